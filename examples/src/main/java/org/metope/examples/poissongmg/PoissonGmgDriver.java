package org.metope.examples.poissongmg;

import java.io.PrintStream;
import java.util.List;
import org.metope.comm.Communicator;
import org.metope.driver.Driver;
import org.metope.driver.DriverStatus;
import org.metope.driver.RunOptions;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.DriverError;
import org.metope.mesh.Mesh;
import org.metope.mesh.MultigridLevels;
import org.metope.mesh.SimTime;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Params;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.view.IndexBox;
import org.metope.outputs.OutputSignal;
import org.metope.outputs.Outputs;
import org.metope.outputs.PrintfFormat;
import org.metope.solvers.BiCGStabSolver;
import org.metope.solvers.FieldOps;
import org.metope.solvers.GlobalDot;
import org.metope.solvers.LinearSolver;
import org.metope.solvers.MultigridParams;
import org.metope.solvers.MultigridSolver;
import org.metope.solvers.Preconditioner;
import org.metope.solvers.SolverParams;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskRegion;
import org.metope.tasking.TaskStatus;
import org.metope.tasking.TaskThreadPool;

/**
 * The driver of Parthenon's {@code poisson_gmg} example ({@code PoissonDriver}): outputs, one
 * task collection, outputs. Per partition: optionally {@code rhs = A exact} (ghosts of {@code
 * exact} exchanged through {@code u}), the solve ({@code solver = MG}: multigrid; {@code
 * BiCGSTAB}: BiCGSTAB preconditioned by a V-cycle), and with an exact
 * right-hand side {@code u = exact - u} and rank 0's {@code Final rms error: %e}. Before the
 * tasks the coefficient {@code D} is restricted down the multigrid levels (Parthenon's solver
 * set-up tasks).
 *
 * <p>Like Parthenon's example, a run whose final rms residual is above {@value #RESIDUAL_LIMIT},
 * whose rms error against the exact solution is above {@value #ERROR_LIMIT}, or either NaN, fails
 * (exit code 1), with one line on rank 0's error stream saying which.
 */
final class PoissonGmgDriver implements Driver {
  private static final PrintfFormat E = PrintfFormat.parse("%e");
  /** The largest final rms residual Parthenon's example lets pass. */
  static final double RESIDUAL_LIMIT = 1e-10;
  /** The largest final rms error Parthenon's example lets pass. */
  static final double ERROR_LIMIT = 1e-12;

  private final Mesh mesh;
  private final MultigridLevels levels;
  private final BoundaryCommunication boundaries;
  private final TaskThreadPool pool;
  private final Communicator comm;
  private final PrintStream out;
  private final PrintStream err;
  private final Outputs outputs;
  private final SimTime clock = SimTime.at(0.0);
  private final LinearSolver solver;
  private final PoissonEquation equation;
  private double finalRmsError = Double.NaN;

  PoissonGmgDriver(ParameterInput pin, Mesh mesh, MultigridLevels levels,
      BoundaryCommunication boundaries, TaskThreadPool pool, Communicator comm,
      RunOptions options, PrintStream err) {
    this.err = err;
    this.outputs = new Outputs(mesh, pin, clock, options.outputDirectory());
    this.mesh = mesh;
    this.levels = levels;
    this.boundaries = boundaries;
    this.pool = pool;
    this.comm = comm;
    this.out = options.out();
    Params p = mesh.packages().get(PoissonGmgPackage.NAME).params();
    this.equation = new PoissonEquation(p.getDouble("diagonal_alpha"),
        p.getBoolean("parthenon_x3_flux"));
    MultigridSolver multigrid = new MultigridSolver(PoissonGmgPackage.SOLVER,
        p.get("mg_params", MultigridParams.class), equation, levels, comm, out);
    this.solver = p.getString("solver").equals("MG") ? multigrid
        : new BiCGStabSolver(PoissonGmgPackage.KRYLOV, p.get("bicgstab_params",
            SolverParams.class), equation, p.getBoolean("precondition")
            ? multigrid.preconditioner(PoissonGmgPackage.U, PoissonGmgPackage.RHS)
            : Preconditioner.IDENTITY, mesh, comm, out);
  }

  @Override
  public DriverStatus execute() {
    Params p = mesh.packages().get(PoissonGmgPackage.NAME).params();
    boolean exactRhs = p.getBoolean("use_exact_rhs");
    restrictCoefficient();
    List<MeshData> base = mesh.meshData("base");
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(base.size());
    GlobalDot error = new GlobalDot(comm, mesh, "poisson_error");
    for (int l = 0; l < base.size(); l++) {
      TaskList tl = region.get(l);
      MeshData md = base.get(l);
      int u = md.state().fieldId(PoissonGmgPackage.U);
      int rhs = md.state().fieldId(PoissonGmgPackage.RHS);
      int exact = md.state().fieldId(PoissonGmgPackage.EXACT);
      IndexBox entire = IndexBox.of(md.block(0).cellBounds(), IndexDomain.ENTIRE);
      TaskId ready = TaskId.NONE;
      if (exactRhs) {
        TaskId copied = tl.addTask(ready, "copy_exact", () -> {
          FieldOps.copy(md, entire, exact, u);
          return TaskStatus.COMPLETE;
        });
        TaskId ghosts = boundaries.addBoundaryExchange(copied, tl, md);
        ready = tl.addTask(ghosts, "rhs_from_exact", () -> {
          equation.boundary(md, u);
          equation.apply(md, u, rhs);
          return TaskStatus.COMPLETE;
        });
      }
      TaskId solved = solver.addTasks(tl, ready, l, base.size(), md, u, rhs, boundaries);
      if (exactRhs) {
        int list = l;
        TaskId difference = tl.addTask(solved, "error", () -> {
          FieldOps.combine(md, entire, 1.0, exact, -1.0, u, u);
          return TaskStatus.COMPLETE;
        });
        tl.addTask(error.add(tl, difference, l, md, u, u), "print_error", () -> {
          if (list == 0) {
            finalRmsError = Math.sqrt(error.value() / cells());
            if (comm.rank() == 0) {
              out.print("Final rms error: " + E.format(finalRmsError) + "\n");
            }
          }
          return TaskStatus.COMPLETE;
        });
      }
    }
    outputs.makeOutputs(mesh, clock, OutputSignal.NONE, () -> { });
    DriverError.execute(tc, pool, () -> "the poisson_gmg solve", boundaries::describeChannels);
    outputs.makeOutputs(mesh, clock, OutputSignal.NONE, () -> { });
    return verdict();
  }

  /** Parthenon's pass rule for this example: the final residual and error small, not NaN. */
  private DriverStatus verdict() {
    double residual = solver.finalResidual();
    String failure = null;
    if (!(residual <= RESIDUAL_LIMIT)) {
      failure = "final rms residual " + E.format(residual) + " is not below "
          + E.format(RESIDUAL_LIMIT);
    } else if (useExactRhs() && !(finalRmsError <= ERROR_LIMIT)) {
      failure = "final rms error " + E.format(finalRmsError) + " is not below "
          + E.format(ERROR_LIMIT);
    }
    if (failure == null) {
      return DriverStatus.COMPLETE;
    }
    if (comm.rank() == 0) {
      err.println("metope: poisson_gmg: " + failure + ", so the run fails, as Parthenon's"
          + " example does (exit code 1)");
    }
    return DriverStatus.FAILED;
  }

  private boolean useExactRhs() {
    return mesh.packages().get(PoissonGmgPackage.NAME).params().getBoolean("use_exact_rhs");
  }

  /** The rms residual after the last iteration. */
  double finalResidual() {
    return solver.finalResidual();
  }

  /** The rms error against {@code exact} ({@code NaN} without {@code use_exact_rhs}). */
  double finalRmsError() {
    return finalRmsError;
  }

  /** Iterations of the solve. */
  int iterations() {
    return solver.iterations();
  }

  private long cells() {
    IndexBox interior = IndexBox.of(mesh.blocks().get(0).cellBounds(), IndexDomain.INTERIOR);
    return interior.size() * mesh.totalBlocks();
  }

  /**
   * Restricts {@code D} level by level, partition by partition (blocks stay on their rank); on a
   * refined mesh the mesh's values first go to level 0 and each level's leaves take theirs from it.
   */
  private void restrictCoefficient() {
    levels.exchangeWithMesh(true, 0, -1);
    for (int m = 0; m + 1 < levels.count(); m++) {
      levels.pullLeaves(m, 0);
      List<MeshData> fine = levels.mesh(m).meshData("base");
      List<MeshData> coarse = levels.mesh(m + 1).meshData("base");
      for (int part = 0; part < fine.size(); part++) {
        PoissonGmgPackage.restrictCoefficient(fine.get(part), levels.links(m), coarse.get(part));
      }
    }
  }
}
