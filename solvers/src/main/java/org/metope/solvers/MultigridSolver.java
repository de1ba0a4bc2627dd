package org.metope.solvers;

import java.io.PrintStream;
import org.metope.comm.Communicator;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.MultigridLevels;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.view.IndexBox;
import org.metope.outputs.PrintfFormat;
import org.metope.tasking.IterativeTasks;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskStatus;

/**
 * Geometric multigrid for {@code A u = rhs} over the levels of {@link MultigridLevels}, as tasks
 * of a package's lists (Parthenon's {@code MGSolver}): V-cycles ({@link VCycle}) with SRJ
 * smoothing and optionally FAS, until the rms residual of the mesh is at or below {@code
 * residual_tolerance} or {@code max_iterations} V-cycles have run. After each V-cycle the
 * residual {@code rhs - A u} is formed on the mesh and its rms (global dot product in global
 * block order) printed by rank 0 as Parthenon prints it: its header {@code # [0] v-cycle} ...
 * after the first V-cycle, then {@code %i %e} per V-cycle.
 *
 * <p>{@code u} is worked on in place on every level, so it must be a ghost-filled field
 * ({@code FILL_GHOST}) that the package declares (with {@code rhs}) on every level, and the
 * solver's fields ({@link #addFields}) must be the only other fields of its container that the
 * ghost exchange fills, or they are exchanged too. The solve starts from {@code u = 0}.
 */
public final class MultigridSolver extends IterativeSolver {
  private static final PrintfFormat E = PrintfFormat.parse("%e");

  private final MultigridParams mgParams;
  private final VCycle cycle;
  private final GlobalDot residual;

  /**
   * A solver named {@code name} (the prefix of its fields) over {@code levels}; collective over
   * {@code comm}: every rank makes its solvers in the same order.
   *
   * @param out where rank 0 prints the residual history
   */
  public MultigridSolver(String name, MultigridParams params, MultigridOperator operator,
      MultigridLevels levels, Communicator comm, PrintStream out) {
    super(name, new SolverParams(params.maxIterations(), params.residualTolerance(), true, false),
        operator, levels.leaf(), comm, out);
    this.mgParams = params;
    this.cycle = new VCycle(name, params, operator, levels);
    this.residual = new GlobalDot(comm, levels.leaf(), name + "_residual");
  }

  /**
   * Declares the solver's fields {@code NAME_res_err} (the residual going down, the error going
   * up), {@code NAME_temp}, {@code NAME_u0} (the restricted solution, FAS) and {@code NAME_D}
   * (the diagonal), as Parthenon's {@code MGSolver} declares them.
   */
  public static void addFields(StateDescriptor pkg, String name) {
    for (String field : new String[] {"res_err", "temp", "u0", "D"}) {
      pkg.addField(name + "_" + field,
          Metadata.of(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY));
    }
  }

  /**
   * One V-cycle as a preconditioner (Parthenon's BiCGSTAB with {@code precondition = true}):
   * {@code rhs = in}, {@code u = 0}, a V-cycle, {@code out = u}, on the package's fields {@code u}
   * and {@code rhs}, which it overwrites on every level.
   */
  public Preconditioner preconditioner(String u, String rhs) {
    return (group, dependency, list, md, in, out) -> {
      IndexBox interior = IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
      int uId = md.state().fieldId(u);
      int rhsId = md.state().fieldId(rhs);
      TaskId ready = group.addTask(dependency, name + "_precondition", () -> {
        FieldOps.copy(md, interior, in, rhsId);
        FieldOps.zero(md, interior, uId);
        return TaskStatus.COMPLETE;
      });
      return group.addTask(cycle.addFor(group, ready, list, u, rhs), name + "_preconditioned",
          () -> {
            FieldOps.copy(md, interior, uId, out);
            return TaskStatus.COMPLETE;
          });
    };
  }

  /** The parameters read from the deck. */
  public MultigridParams multigridParams() {
    return mgParams;
  }

  @Override
  public TaskId addTasks(TaskList tl, TaskId dependency, int list, int lists, MeshData md,
      int u, int rhs, BoundaryCommunication boundaries) {
    if (groups.length != lists) {
      groups = new IterativeTasks[lists];
    }
    IndexBox interior = IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
    int resErr = md.state().fieldId(name + "_res_err");
    TaskId start = tl.addTask(dependency, name + "_start", () -> {
      FieldOps.zero(md, interior, u);
      if (list == 0) {
        iterations = 0;
      }
      return TaskStatus.COMPLETE;
    });
    IterativeTasks group = tl.addIteration(name).maxIterations(params.maxIterations())
        .atLimit(IterativeTasks.AtLimit.REPORT);
    groups[list] = group;
    TaskId counted = group.addTask(start, name + "_header", () -> {
      if (list == 0) {
        iterations++;
        if (iterations == 1 && printing()) {
          out.print("# [0] v-cycle\n# [1] rms-residual\n# [2] rms-error\n");
        }
      }
      return TaskStatus.COMPLETE;
    });
    TaskId cycled = cycle.addFor(group, counted, list, md.state().field(u).name(),
        md.state().field(rhs).name());
    TaskId ghosts = boundaries.addBoundaryExchange(cycled, group, md);
    TaskId formed = group.addTask(ghosts, name + "_residual_leaf", () -> {
      operator.boundary(md, u);
      operator.apply(md, u, resErr);
      FieldOps.combine(md, interior, 1.0, rhs, -1.0, resErr, resErr);
      return TaskStatus.COMPLETE;
    });
    TaskId summed = residual.add(group, formed, list, md, resErr, resErr);
    return group.setCompletionTask(summed, name + "_converged", () -> {
      double rms = rms(residual.value());
      if (list == 0) {
        finalResidual = rms;
        if (printing()) {
          out.print(iterations + " " + E.format(rms) + "\n");
        }
      }
      return rms > params.residualTolerance() ? TaskStatus.ITERATE : TaskStatus.COMPLETE;
    });
  }
}
