package org.metope.solvers;

import java.io.PrintStream;
import org.metope.comm.Communicator;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.Mesh;
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
 * Conjugate gradients for {@code A u = rhs} with a symmetric positive definite {@link
 * LinearOperator}, as tasks of a package's lists (one list per partition of a region), starting
 * from {@code u = 0}: per iteration a ghost exchange of the search direction {@code p} inside the
 * iterative group (the ghosts on the domain boundary keep their values, so they are the
 * operator's boundary values), {@code A p}, two global dot products in global block order, and
 * the updates of {@code u}, {@code r} and {@code p}. Every value printed or tested has the same
 * bits on any number of ranks and partitions.
 *
 * <p>Usage: {@link #addFields} when the package is declared (the internal fields {@code
 * NAME_r}, {@code NAME_p} (ghosts filled) and {@code NAME_Ap}); then, once the mesh exists, a
 * solver per solve with {@link #addTasks} in every list of a region. Rank 0 prints the rms
 * residual of every iteration when {@link SolverParams#printPerStep} says so.
 */
public final class ConjugateGradientSolver extends IterativeSolver {
  private static final PrintfFormat LINE = PrintfFormat.parse("%e");

  private final GlobalDot rr;
  private final GlobalDot pAp;
  private final GlobalDot rrNew;
  private final GlobalDot rz;
  private final Preconditioner preconditioner;

  /**
   * A solver over {@code mesh} named {@code name} (the prefix of its fields); collective over
   * {@code comm}: every rank makes its solvers in the same order.
   *
   * @param out where rank 0 prints the residual history
   */
  public ConjugateGradientSolver(String name, SolverParams params, LinearOperator operator,
      Mesh mesh, Communicator comm, PrintStream out) {
    this(name, params, operator, Preconditioner.IDENTITY, mesh, comm, out);
  }

  /**
   * A solver preconditioned by {@code preconditioner} ({@code z = M r}, search directions {@code
   * p = z + beta p} with {@code beta = (r, z) / (r, z)_old}); {@code M} should be symmetric
   * positive definite.
   */
  public ConjugateGradientSolver(String name, SolverParams params, LinearOperator operator,
      Preconditioner preconditioner, Mesh mesh, Communicator comm, PrintStream out) {
    super(name, params, operator, mesh, comm, out);
    this.rr = new GlobalDot(comm, mesh, name + "_rr");
    this.pAp = new GlobalDot(comm, mesh, name + "_pAp");
    this.rrNew = new GlobalDot(comm, mesh, name + "_rr_new");
    this.rz = new GlobalDot(comm, mesh, name + "_rz");
    this.preconditioner = preconditioner;
  }

  /**
   * Declares the solver's internal fields {@code NAME_r}, {@code NAME_p}, {@code NAME_Ap} and
   * {@code NAME_z} (the preconditioned residual).
   */
  public static void addFields(StateDescriptor pkg, String name) {
    pkg.addField(name + "_r", Metadata.of(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY));
    pkg.addField(name + "_p", Metadata.of(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY,
        Metadata.FILL_GHOST));
    pkg.addField(name + "_Ap", Metadata.of(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY));
    pkg.addField(name + "_z", Metadata.of(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY));
  }

  /** This list's scalars: {@code (r, z)} of the last direction, whether one was made yet. */
  private static final class Scalars {
    double rzOld;
    boolean first;
  }

  /**
   * Adds the solve of list {@code list} (of {@code lists}) over partition {@code md} after
   * {@code dependency}: {@code u} becomes the solution of {@code A u = rhs}.
   *
   * @param u the field id of the solution; its ghosts are not read
   * @param rhs the field id of the right-hand side
   * @return the task after which the solve has ended (converged or at its limit)
   */
  @Override
  public TaskId addTasks(TaskList tl, TaskId dependency, int list, int lists, MeshData md,
      int u, int rhs, BoundaryCommunication boundaries) {
    if (groups.length != lists) {
      groups = new IterativeTasks[lists];
    }
    int r = md.state().fieldId(name + "_r");
    int p = md.state().fieldId(name + "_p");
    int ap = md.state().fieldId(name + "_Ap");
    int z = md.state().fieldId(name + "_z");
    IndexBox box = IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
    Scalars my = new Scalars();
    TaskId start = tl.addTask(dependency, name + "_start", () -> {
      FieldOps.zero(md, box, u);
      FieldOps.copy(md, box, rhs, r);
      return TaskStatus.COMPLETE;
    });
    TaskId initial = rr.add(tl, start, list, md, r, r);
    TaskId ready = tl.addTask(initial, name + "_header", () -> {
      my.rzOld = rr.value();
      my.first = true;
      if (list == 0) {
        iterations = 0;
        if (printing()) {
          out.print("# [0] iteration\n# [1] rms-residual (tol = " + LINE.format(tolerance(rr.value()))
              + ") \n");
        }
      }
      return TaskStatus.COMPLETE;
    });
    IterativeTasks group = tl.addIteration(name).maxIterations(params.maxIterations())
        .atLimit(IterativeTasks.AtLimit.REPORT);
    groups[list] = group;
    TaskId directed = addDirection(group, ready, list, md, box, r, z, p, my);
    TaskId ghosts = boundaries.addBoundaryExchange(directed, group, md);
    TaskId applied = group.addTask(ghosts, name + "_Ap", () -> {
      operator.boundary(md, p);
      operator.apply(md, p, ap);
      return TaskStatus.COMPLETE;
    });
    TaskId curvature = pAp.add(group, applied, list, md, p, ap);
    TaskId stepped = group.addTask(curvature, name + "_step", () -> {
      double alpha = my.rzOld / pAp.value();
      FieldOps.combine(md, box, 1.0, u, alpha, p, u);
      FieldOps.combine(md, box, 1.0, r, -alpha, ap, r);
      return TaskStatus.COMPLETE;
    });
    TaskId residual = rrNew.add(group, stepped, list, md, r, r);
    TaskId printed = group.addTask(residual, name + "_print", () -> {
      if (list == 0) {
        iterations++;
        finalResidual = rms(rrNew.value());
        if (printing()) {
          out.print(iterations + " " + LINE.format(finalResidual) + "\n");
        }
      }
      return TaskStatus.COMPLETE;
    });
    return group.setCompletionTask(printed, name + "_converged",
        () -> rms(rrNew.value()) < tolerance(rr.value()) ? TaskStatus.COMPLETE
            : TaskStatus.ITERATE);
  }

  /**
   * The search direction at the top of an iteration: {@code p = r} (or {@code z = M r}) first,
   * then {@code p = z + beta p}, {@code beta = (r, z) / (r, z)_old}. Unpreconditioned, {@code
   * (r, z)} is the {@code (r, r)} the last iteration summed, and {@code z} is {@code r} itself.
   */
  private TaskId addDirection(IterativeTasks group, TaskId ready, int list, MeshData md,
      IndexBox box, int r, int z, int p, Scalars my) {
    boolean identity = preconditioner == Preconditioner.IDENTITY;
    TaskId known = ready;
    if (!identity) {
      known = rz.add(group, preconditioner.add(group, ready, list, md, r, z), list, md, r, z);
    }
    int direction = identity ? r : z;
    return group.addTask(known, name + "_direction", () -> {
      double rzNew = identity ? (my.first ? rr.value() : rrNew.value()) : rz.value();
      if (my.first) {
        FieldOps.copy(md, box, direction, p);
        my.first = false;
      } else {
        FieldOps.combine(md, box, 1.0, direction, rzNew / my.rzOld, p, p);
      }
      my.rzOld = rzNew;
      return TaskStatus.COMPLETE;
    });
  }
}
