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
 * BiCGSTAB for {@code A u = rhs} with any invertible {@link LinearOperator}, unpreconditioned,
 * as tasks of a package's lists (Parthenon's {@code BiCGSTABSolver} with {@code precondition =
 * false}, step for step: {@code x = 0}, {@code r = p = rhat0 = rhs}; per iteration {@code v = A
 * p}, {@code h = x + alpha p}, {@code s = r - alpha v}, {@code t = A s}, {@code x = h + omega s},
 * {@code r = s - omega t}, {@code p = r + beta (p - omega v)}). Each application of {@code A} is
 * preceded by a ghost exchange of its input inside the iterative group; dot products fold in
 * global block order, so the history and the solution have the same bits on any number of ranks
 * and partitions. With {@link SolverParams#printPerStep} rank 0 prints Parthenon's header and
 * the rms residual after each half step, {@code 2n + 1} after {@code s} and {@code 2n + 2} after
 * {@code r}, as {@code %i %e}.
 *
 * <p>Usage as {@link ConjugateGradientSolver}: {@link #addFields}, then {@link #addTasks} in
 * every list of a region.
 */
public final class BiCGStabSolver implements LinearSolver {
  private static final PrintfFormat E = PrintfFormat.parse("%e");
  private static final String[] FIELDS = {"rhat0", "v", "h", "s", "t", "r", "p", "x", "w"};

  private final String name;
  private final SolverParams params;
  private final LinearOperator operator;
  private final Communicator comm;
  private final PrintStream out;
  private final long cells;
  private final GlobalDot rhat0r;
  private final GlobalDot rhat0v;
  private final GlobalDot ss;
  private final GlobalDot ts;
  private final GlobalDot tt;
  private final GlobalDot rr;
  private final GlobalDot rhs2;
  private IterativeTasks[] groups = new IterativeTasks[0];
  private int iterations;
  private double finalResidual = Double.NaN;

  /**
   * A solver over {@code mesh} named {@code name} (the prefix of its fields); collective over
   * {@code comm}: every rank makes its solvers in the same order.
   *
   * @param out where rank 0 prints the residual history
   */
  public BiCGStabSolver(String name, SolverParams params, LinearOperator operator, Mesh mesh,
      Communicator comm, PrintStream out) {
    this.name = name;
    this.params = params;
    this.operator = operator;
    this.comm = comm;
    this.out = out;
    IndexBox interior = IndexBox.of(mesh.blocks().get(0).cellBounds(), IndexDomain.INTERIOR);
    this.cells = interior.size() * mesh.totalBlocks();
    this.rhat0r = new GlobalDot(comm, mesh, name + "_rhat0r");
    this.rhat0v = new GlobalDot(comm, mesh, name + "_rhat0v");
    this.ss = new GlobalDot(comm, mesh, name + "_ss");
    this.ts = new GlobalDot(comm, mesh, name + "_ts");
    this.tt = new GlobalDot(comm, mesh, name + "_tt");
    this.rr = new GlobalDot(comm, mesh, name + "_rr");
    this.rhs2 = new GlobalDot(comm, mesh, name + "_rhs2");
  }

  /**
   * Declares the solver's internal fields {@code NAME_rhat0}, {@code _v}, {@code _h}, {@code _s},
   * {@code _t}, {@code _r}, {@code _p}, {@code _x} and {@code NAME_w}, the input of {@code A}
   * (ghosts filled).
   */
  public static void addFields(StateDescriptor pkg, String name) {
    for (String field : FIELDS) {
      Metadata m = field.equals("w")
          ? Metadata.of(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY, Metadata.FILL_GHOST)
          : Metadata.of(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY);
      pkg.addField(name + "_" + field, m);
    }
  }

  /** This list's copies of the scalars of the iteration. */
  private static final class Scalars {
    double rhat0rOld;
    double alpha;
    double omega;
  }

  /**
   * Adds the solve of list {@code list} (of {@code lists}) over partition {@code md} after
   * {@code dependency}: {@code u} becomes the solution of {@code A u = rhs}.
   *
   * @return the task after which the solve has ended and {@code u} holds the solution
   */
  @Override
  public TaskId addTasks(TaskList tl, TaskId dependency, int list, int lists, MeshData md,
      int u, int rhs, BoundaryCommunication boundaries) {
    if (groups.length != lists) {
      groups = new IterativeTasks[lists];
    }
    int rhat0 = field(md, "rhat0");
    int v = field(md, "v");
    int h = field(md, "h");
    int s = field(md, "s");
    int t = field(md, "t");
    int r = field(md, "r");
    int p = field(md, "p");
    int x = field(md, "x");
    int w = field(md, "w");
    IndexBox box = IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
    Scalars my = new Scalars();
    TaskId start = tl.addTask(dependency, name + "_start", () -> {
      FieldOps.zero(md, box, x);
      FieldOps.copy(md, box, rhs, r);
      FieldOps.copy(md, box, rhs, p);
      FieldOps.copy(md, box, rhs, rhat0);
      return TaskStatus.COMPLETE;
    });
    TaskId initial = rhat0r.add(tl, start, list, md, rhat0, r);
    if (params.relativeResidual()) {
      initial = rhs2.add(tl, initial, list, md, rhs, rhs);
    }
    TaskId ready = tl.addTask(initial, name + "_header", () -> {
      my.rhat0rOld = rhat0r.value();
      if (list == 0) {
        iterations = 0;
        if (printing()) {
          out.print("# [0] v-cycle\n# [1] rms-residual (tol = " + E.format(tolerance())
              + ") \n# [2] rms-error\n");
        }
      }
      return TaskStatus.COMPLETE;
    });
    IterativeTasks group = tl.addIteration(name).maxIterations(params.maxIterations())
        .atLimit(IterativeTasks.AtLimit.REPORT);
    groups[list] = group;
    TaskId copied = group.addTask(ready, name + "_w_p", () -> {
      FieldOps.copy(md, box, p, w);
      return TaskStatus.COMPLETE;
    });
    TaskId vDone = apply(group, boundaries.addBoundaryExchange(copied, group, md), md, w, v);
    TaskId alphaKnown = rhat0v.add(group, vDone, list, md, rhat0, v);
    TaskId half = group.addTask(alphaKnown, name + "_h_s", () -> {
      my.alpha = my.rhat0rOld / rhat0v.value();
      FieldOps.combine(md, box, 1.0, x, my.alpha, w, h);
      FieldOps.combine(md, box, 1.0, r, -my.alpha, v, s);
      return TaskStatus.COMPLETE;
    });
    TaskId sNorm = ss.add(group, half, list, md, s, s);
    TaskId firstPrinted = group.addTask(sNorm, name + "_print_s",
        () -> print(list, 2 * iterations + 1, ss.value()));
    TaskId copiedS = group.addTask(half, name + "_w_s", () -> {
      FieldOps.copy(md, box, s, w);
      return TaskStatus.COMPLETE;
    });
    TaskId tDone = apply(group,
        boundaries.addBoundaryExchange(copiedS.and(firstPrinted), group, md), md, w, t);
    TaskId omegaKnown = tt.add(group, ts.add(group, tDone, list, md, t, s), list, md, t, t);
    TaskId full = group.addTask(omegaKnown, name + "_x_r", () -> {
      my.omega = ts.value() / tt.value();
      FieldOps.combine(md, box, 1.0, h, my.omega, w, x);
      FieldOps.combine(md, box, 1.0, s, -my.omega, t, r);
      return TaskStatus.COMPLETE;
    });
    TaskId rNorm = rr.add(group, full, list, md, r, r);
    TaskId secondPrinted = group.addTask(rNorm, name + "_print_r",
        () -> print(list, 2 * iterations + 2, rr.value()));
    TaskId betaKnown = rhat0r.add(group, secondPrinted, list, md, rhat0, r);
    TaskId done = group.setCompletionTask(betaKnown, name + "_converged", () -> {
      if (list == 0) {
        iterations++;
        finalResidual = Math.sqrt(rr.value() / cells);
      }
      if (Math.sqrt(rr.value() / cells) < tolerance()) {
        return TaskStatus.COMPLETE;
      }
      double beta = rhat0r.value() / my.rhat0rOld * my.alpha / my.omega;
      FieldOps.combine(md, box, 1.0, p, -my.omega, v, p);
      FieldOps.combine(md, box, 1.0, r, beta, p, p);
      my.rhat0rOld = rhat0r.value();
      return TaskStatus.ITERATE;
    });
    return tl.addTask(done, name + "_solution", () -> {
      FieldOps.copy(md, box, x, u);
      return TaskStatus.COMPLETE;
    });
  }

  private TaskId apply(IterativeTasks group, TaskId ghosts, MeshData md, int in, int result) {
    return group.addTask(ghosts, name + "_A", () -> {
      operator.apply(md, in, result);
      return TaskStatus.COMPLETE;
    });
  }

  private TaskStatus print(int list, int step, double squares) {
    if (list == 0 && printing()) {
      out.print(step + " " + E.format(Math.sqrt(squares / cells)) + "\n");
    }
    return TaskStatus.COMPLETE;
  }

  private int field(MeshData md, String suffix) {
    return md.state().fieldId(name + "_" + suffix);
  }

  private boolean printing() {
    return params.printPerStep() && comm.rank() == 0;
  }

  /** The tolerance on the rms residual: absolute, or relative to the right-hand side's rms. */
  private double tolerance() {
    return params.relativeResidual()
        ? params.residualTolerance() * Math.sqrt(rhs2.value() / cells)
        : params.residualTolerance();
  }

  @Override
  public int iterations() {
    return iterations;
  }

  @Override
  public double finalResidual() {
    return finalResidual;
  }

  @Override
  public boolean converged() {
    return groups.length > 0 && groups[0] != null && !groups[0].limitReached();
  }
}
