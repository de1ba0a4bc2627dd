package org.metope.solvers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessRun;
import org.metope.kernels.KernelBackends;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.view.IndexBox;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskRegion;

/**
 * The solvers' test problem: {@code A u = f} on a 32x32 grid of 8x8 blocks over the unit square,
 * {@code A} a five-point stencil with constant weights and zero ghosts on the domain boundary,
 * {@code f} a bump plus a slope; the same stencil on one global array ({@link #residual}) is the
 * independent reference a test compares with.
 *
 * @param centre the weight of the cell itself
 * @param west the weight of {@code i - 1}
 * @param east the weight of {@code i + 1}
 * @param south the weight of {@code j - 1}
 * @param north the weight of {@code j + 1}
 */
record GridProblem(double centre, double west, double east, double south, double north) {
  static final int N = 32;
  static final double H = 1.0 / N;

  /** {@code -lap}, symmetric positive definite. */
  static GridProblem minusLaplacian() {
    double d = 1.0 / (H * H);
    return new GridProblem(4 * d, -d, -d, -d, -d);
  }

  /** {@code -lap + c d/dx} with upwind differences: not symmetric. */
  static GridProblem advectionDiffusion(double c) {
    double d = 1.0 / (H * H);
    return new GridProblem(4 * d + c / H, -d - c / H, -d, -d, -d);
  }

  static double source(double x, double y) {
    return Math.exp(-40 * ((x - 0.3) * (x - 0.3) + (y - 0.6) * (y - 0.6))) + x;
  }

  /** Makes the solver of a rank, printing to {@code out}. */
  interface SolverFactory {
    LinearSolver make(SolverParams params, LinearOperator operator, Mesh mesh, Communicator world,
        PrintStream out);
  }

  /** What a solve gave: rank 0's printed history, counts, and the solution by gid and globally. */
  record Solve(String history, int iterations, double reported, boolean converged,
      Map<Integer, double[]> byGid, double[] global) {}

  private static String deck(int packSize, int maxIterations, double tolerance) {
    return "<parthenon/mesh>\npack_size = " + packSize + "\nnx1 = 32\nx1min = 0\nx1max = 1\n"
        + "ix1_bc = outflow\nox1_bc = outflow\nnx2 = 32\nx2min = 0\nx2max = 1\n"
        + "ix2_bc = outflow\nox2_bc = outflow\nnx3 = 1\nx3min = 0\nx3max = 1\n"
        + "<parthenon/meshblock>\nnx1 = 8\nnx2 = 8\n<solver>\nmax_iterations = " + maxIterations
        + "\nresidual_tolerance = " + tolerance + "\nprint_per_step = true\n";
  }

  /** {@code y = A x} on the interior, ghosts as they are. */
  void apply(MeshData md, int x, int y) {
    double[] a = md.data();
    IndexBox box = IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
    for (int b = 0; b < md.numBlocks(); b++) {
      for (int j = box.j().s(); j <= box.j().e(); j++) {
        for (int i = box.i().s(); i <= box.i().e(); i++) {
          a[md.index(y, b, 0, 0, j, i)] = centre * a[md.index(x, b, 0, 0, j, i)]
              + west * a[md.index(x, b, 0, 0, j, i - 1)] + east * a[md.index(x, b, 0, 0, j, i + 1)]
              + south * a[md.index(x, b, 0, 0, j - 1, i)]
              + north * a[md.index(x, b, 0, 0, j + 1, i)];
        }
      }
    }
  }

  /** {@code A x} at cell {@code (i, j)} of a global array, zero outside. */
  double applyGlobal(double[] x, int i, int j) {
    return centre * x[j * N + i] + west * (i > 0 ? x[j * N + i - 1] : 0.0)
        + east * (i < N - 1 ? x[j * N + i + 1] : 0.0) + south * (j > 0 ? x[(j - 1) * N + i] : 0.0)
        + north * (j < N - 1 ? x[(j + 1) * N + i] : 0.0);
  }

  /** The rms of {@code f - A u} on the global array: without the mesh, exchange or solver. */
  double residual(double[] u) {
    double sum = 0.0;
    for (int j = 0; j < N; j++) {
      for (int i = 0; i < N; i++) {
        double r = source((i + 0.5) * H, (j + 0.5) * H) - applyGlobal(u, i, j);
        sum += r * r;
      }
    }
    return Math.sqrt(sum / (N * N));
  }

  /** Solves on {@code ranks} in-process ranks with {@code pack_size = packSize}. */
  Solve solve(int ranks, int packSize, int maxIterations, double tolerance,
      String solverName, SolverFactory factory) {
    Map<Integer, double[]> byGid = new ConcurrentHashMap<>();
    double[] global = new double[N * N];
    Solve[] solves = new Solve[ranks];
    InProcessRun.run(ranks, world -> solves[world.rank()] = solveRank(world,
        deck(packSize, maxIterations, tolerance), solverName, factory, byGid, global));
    for (Solve s : solves) {
      assertEquals(solves[0].iterations(), s.iterations(), "every rank's iterations");
    }
    return solves[0];
  }

  private Solve solveRank(Communicator world, String deck, String solverName,
      SolverFactory factory, Map<Integer, double[]> byGid, double[] global) {
    ParameterInput pin = ParameterInput.parse("solve.in", deck, List.of());
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin), world);
    StateDescriptor pkg = new StateDescriptor("solve_test");
    pkg.addField("u", Metadata.of(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY));
    pkg.addField("f", Metadata.of(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY));
    if (solverName.equals("cg")) {
      ConjugateGradientSolver.addFields(pkg, solverName);
    } else {
      BiCGStabSolver.addFields(pkg, solverName);
    }
    Packages packages = new Packages();
    packages.add(pkg);
    mesh.initializeFields(packages, List.of("base"));
    InOneBoundaryCommunication comm = InOneBoundaryCommunication.fromInput(pin,
        KernelBackends.create("jvm", 1));
    comm.setup(mesh);
    List<MeshData> parts = mesh.meshData("base");
    int u = parts.get(0).state().fieldId("u");
    int f = parts.get(0).state().fieldId("f");
    for (MeshData md : parts) {
      forInterior(md, (b, j, i, n) -> md.data()[md.index(f, b, 0, 0, j, i)] =
          source(md.block(b).coords().x1c(i), md.block(b).coords().x2c(j)));
    }
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    SolverParams params = SolverParams.fromInput(pin, "solver");
    LinearSolver solver = factory.make(params, this::apply, mesh, world,
        new PrintStream(printed, true, StandardCharsets.UTF_8));
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(parts.size());
    for (int l = 0; l < parts.size(); l++) {
      solver.addTasks(region.get(l), TaskId.NONE, l, parts.size(), parts.get(l), u, f, comm);
    }
    tc.execute();
    for (MeshData md : parts) {
      for (int b = 0; b < md.numBlocks(); b++) {
        byGid.put(md.block(b).gid(), new double[64]);
      }
      forInterior(md, (b, j, i, n) -> {
        double value = md.data()[md.index(u, b, 0, 0, j, i)];
        byGid.get(md.block(b).gid())[n] = value;
        int gi = (int) Math.floor(md.block(b).coords().x1c(i) / H);
        int gj = (int) Math.floor(md.block(b).coords().x2c(j) / H);
        global[gj * N + gi] = value;
      });
    }
    return new Solve(printed.toString(StandardCharsets.UTF_8), solver.iterations(),
        solver.finalResidual(), solver.converged(), byGid, global);
  }

  /** A visitor of interior cells: block, row, column, the cell's number in its block. */
  private interface CellVisitor {
    void visit(int b, int j, int i, int n);
  }

  private static void forInterior(MeshData md, CellVisitor visitor) {
    IndexBox box = IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
    for (int b = 0; b < md.numBlocks(); b++) {
      int n = 0;
      for (int j = box.j().s(); j <= box.j().e(); j++) {
        for (int i = box.i().s(); i <= box.i().e(); i++) {
          visitor.visit(b, j, i, n++);
        }
      }
    }
  }
}
