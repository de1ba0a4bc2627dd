package org.metope.solvers;

import java.io.PrintStream;
import org.metope.comm.Communicator;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.RefinementOps;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.view.IndexBox;
import org.metope.outputs.PrintfFormat;
import org.metope.tasking.IterativeTasks;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskStatus;

/**
 * BiCGSTAB for {@code A u = rhs} with any invertible {@link LinearOperator}, optionally
 * preconditioned, as tasks of a package's lists (Parthenon's {@code BiCGSTABSolver}, step for
 * step: {@code x = 0}, {@code r = p = rhat0 = rhs}; per iteration {@code w = M p}, {@code v = A
 * w}, {@code h = x + alpha w}, {@code s = r - alpha v}, {@code w = M s}, {@code t = A w}, {@code x
 * = h + omega w}, {@code r = s - omega t}, {@code p = r + beta (p - omega v)}, with {@code M} the
 * {@link Preconditioner}: the identity, or a multigrid V-cycle as Parthenon's {@code precondition
 * = true}). Each application of {@code A} is preceded by a ghost exchange of its input inside the
 * iterative group and the operator's {@link LinearOperator#boundary}; dot products fold in
 * global block order, so the history and the solution have the same bits on any number of ranks
 * and partitions. With {@link SolverParams#printPerStep} rank 0 prints Parthenon's header and
 * the rms residual after each half step, {@code 2n + 1} after {@code s} and {@code 2n + 2} after
 * {@code r}, as {@code %i %e}.
 *
 * <p>Usage as {@link ConjugateGradientSolver}: {@link #addFields}, then {@link #addTasks} in
 * every list of a region.
 */
public final class BiCGStabSolver extends IterativeSolver {
  private static final PrintfFormat E = PrintfFormat.parse("%e");
  private static final String[] FIELDS = {"rhat0", "v", "h", "s", "t", "r", "p", "x", "w"};

  private final GlobalDot rhat0r;
  private final GlobalDot rhat0v;
  private final GlobalDot ss;
  private final GlobalDot ts;
  private final GlobalDot tt;
  private final GlobalDot rr;
  private final GlobalDot rhs2;
  private final Preconditioner preconditioner;

  /**
   * A solver over {@code mesh} named {@code name} (the prefix of its fields); collective over
   * {@code comm}: every rank makes its solvers in the same order.
   *
   * @param out where rank 0 prints the residual history
   */
  public BiCGStabSolver(String name, SolverParams params, LinearOperator operator, Mesh mesh,
      Communicator comm, PrintStream out) {
    this(name, params, operator, Preconditioner.IDENTITY, mesh, comm, out);
  }

  /**
   * A solver preconditioned by {@code preconditioner} ({@code w = M p} and {@code w = M s}
   * before each application of {@code A}, Parthenon's steps 1 and 6).
   */
  public BiCGStabSolver(String name, SolverParams params, LinearOperator operator,
      Preconditioner preconditioner, Mesh mesh, Communicator comm, PrintStream out) {
    super(name, params, operator, mesh, comm, out);
    this.preconditioner = preconditioner;
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
   * (ghosts filled, prolongated linearly at fine-coarse boundaries so that {@code A} is linear).
   */
  public static void addFields(StateDescriptor pkg, String name) {
    for (String field : FIELDS) {
      Metadata m = field.equals("w")
          ? Metadata.builder(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY,
              Metadata.FILL_GHOST).refinementOps(RefinementOps.LINEAR).build()
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

  /** The field ids of one partition's solve. */
  private record Fields(int rhat0, int v, int h, int s, int t, int r, int p, int x, int w,
      int u, int rhs) {}

  @Override
  public TaskId addTasks(TaskList tl, TaskId dependency, int list, int lists, MeshData md,
      int u, int rhs, BoundaryCommunication boundaries) {
    if (groups.length != lists) {
      groups = new IterativeTasks[lists];
    }
    Fields f = new Fields(field(md, "rhat0"), field(md, "v"), field(md, "h"), field(md, "s"),
        field(md, "t"), field(md, "r"), field(md, "p"), field(md, "x"), field(md, "w"), u, rhs);
    IndexBox box = IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
    Scalars my = new Scalars();
    TaskId ready = addStart(tl, dependency, list, md, box, f, my);
    IterativeTasks group = tl.addIteration(name).maxIterations(params.maxIterations())
        .atLimit(IterativeTasks.AtLimit.REPORT);
    groups[list] = group;
    TaskId done = addIteration(group, ready, list, md, box, f, my, boundaries);
    return tl.addTask(done, name + "_solution", () -> {
      FieldOps.copy(md, box, f.x(), f.u());
      return TaskStatus.COMPLETE;
    });
  }

  /** {@code x = 0}, {@code r = p = rhat0 = rhs}, the first {@code (rhat0, r)}, the header. */
  private TaskId addStart(TaskList tl, TaskId dependency, int list, MeshData md, IndexBox box,
      Fields f, Scalars my) {
    TaskId start = tl.addTask(dependency, name + "_start", () -> {
      FieldOps.zero(md, box, f.x());
      FieldOps.copy(md, box, f.rhs(), f.r());
      FieldOps.copy(md, box, f.rhs(), f.p());
      FieldOps.copy(md, box, f.rhs(), f.rhat0());
      return TaskStatus.COMPLETE;
    });
    TaskId initial = rhat0r.add(tl, start, list, md, f.rhat0(), f.r());
    if (params.relativeResidual()) {
      initial = rhs2.add(tl, initial, list, md, f.rhs(), f.rhs());
    }
    return tl.addTask(initial, name + "_header", () -> {
      my.rhat0rOld = rhat0r.value();
      if (list == 0) {
        iterations = 0;
        if (printing()) {
          out.print("# [0] v-cycle\n# [1] rms-residual (tol = " + E.format(tolerance(rhs2.value()))
              + ") \n# [2] rms-error\n");
        }
      }
      return TaskStatus.COMPLETE;
    });
  }

  /** One iteration, Parthenon's steps 1 to 14; returns the completion task. */
  private TaskId addIteration(IterativeTasks group, TaskId ready, int list, MeshData md,
      IndexBox box, Fields f, Scalars my, BoundaryCommunication boundaries) {
    TaskId copied = preconditioner.add(group, ready, list, md, f.p(), f.w());
    TaskId vDone = apply(group, boundaries.addBoundaryExchange(copied, group, md), md, f.w(),
        f.v());
    TaskId alphaKnown = rhat0v.add(group, vDone, list, md, f.rhat0(), f.v());
    TaskId half = group.addTask(alphaKnown, name + "_h_s", () -> {
      my.alpha = my.rhat0rOld / rhat0v.value();
      FieldOps.combine(md, box, 1.0, f.x(), my.alpha, f.w(), f.h());
      FieldOps.combine(md, box, 1.0, f.r(), -my.alpha, f.v(), f.s());
      return TaskStatus.COMPLETE;
    });
    TaskId sNorm = ss.add(group, half, list, md, f.s(), f.s());
    TaskId firstPrinted = group.addTask(sNorm, name + "_print_s",
        () -> print(list, 2 * iterations + 1, ss.value()));
    TaskId copiedS = preconditioner.add(group, half.and(firstPrinted), list, md, f.s(), f.w());
    TaskId tDone = apply(group, boundaries.addBoundaryExchange(copiedS, group, md), md, f.w(),
        f.t());
    TaskId omegaKnown = tt.add(group, ts.add(group, tDone, list, md, f.t(), f.s()), list, md,
        f.t(), f.t());
    TaskId full = group.addTask(omegaKnown, name + "_x_r", () -> {
      my.omega = ts.value() / tt.value();
      FieldOps.combine(md, box, 1.0, f.h(), my.omega, f.w(), f.x());
      FieldOps.combine(md, box, 1.0, f.s(), -my.omega, f.t(), f.r());
      return TaskStatus.COMPLETE;
    });
    TaskId rNorm = rr.add(group, full, list, md, f.r(), f.r());
    TaskId secondPrinted = group.addTask(rNorm, name + "_print_r",
        () -> print(list, 2 * iterations + 2, rr.value()));
    TaskId betaKnown = rhat0r.add(group, secondPrinted, list, md, f.rhat0(), f.r());
    return group.setCompletionTask(betaKnown, name + "_converged", () -> {
      if (list == 0) {
        iterations++;
        finalResidual = rms(rr.value());
      }
      if (rms(rr.value()) < tolerance(rhs2.value())) {
        return TaskStatus.COMPLETE;
      }
      double beta = rhat0r.value() / my.rhat0rOld * my.alpha / my.omega;
      FieldOps.combine(md, box, 1.0, f.p(), -my.omega, f.v(), f.p());
      FieldOps.combine(md, box, 1.0, f.r(), beta, f.p(), f.p());
      my.rhat0rOld = rhat0r.value();
      return TaskStatus.ITERATE;
    });
  }

  private TaskId apply(IterativeTasks group, TaskId ghosts, MeshData md, int in, int result) {
    return group.addTask(ghosts, name + "_A", () -> {
      operator.boundary(md, in);
      operator.apply(md, in, result);
      return TaskStatus.COMPLETE;
    });
  }

  private TaskStatus print(int list, int step, double squares) {
    if (list == 0 && printing()) {
      out.print(step + " " + E.format(rms(squares)) + "\n");
    }
    return TaskStatus.COMPLETE;
  }

  private int field(MeshData md, String suffix) {
    return md.state().fieldId(name + "_" + suffix);
  }
}
