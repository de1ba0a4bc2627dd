package org.metope.solvers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessCluster;
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
 * GIVEN {@code -lap u = f} on a 32x32 grid of 8x8 blocks, zero ghosts on the domain boundary
 * (the five-point operator is then symmetric positive definite), THEN conjugate gradients on the
 * mesh take the iterations of a textbook CG on one global array (an independent implementation),
 * end below the tolerance within the iterations the condition number allows, leave a true
 * residual equal to the one they report, and print the same history and write the same bits on
 * 1, 2 and 4 ranks and with 16 partitions; too few iterations end unconverged and say so.
 */
class ConjugateGradientSolverTest {
  private static final int N = 32;
  private static final double H = 1.0 / N;
  private static final double TOLERANCE = 1e-10;

  private static String deck(int packSize, int maxIterations) {
    return "<parthenon/mesh>\npack_size = " + packSize + "\nnx1 = 32\nx1min = 0\nx1max = 1\n"
        + "ix1_bc = outflow\nox1_bc = outflow\nnx2 = 32\nx2min = 0\nx2max = 1\n"
        + "ix2_bc = outflow\nox2_bc = outflow\nnx3 = 1\nx3min = 0\nx3max = 1\n"
        + "<parthenon/meshblock>\nnx1 = 8\nnx2 = 8\n<solver>\nmax_iterations = " + maxIterations
        + "\nresidual_tolerance = " + TOLERANCE + "\nprint_per_step = true\n";
  }

  private static double source(double x, double y) {
    return Math.exp(-40 * ((x - 0.3) * (x - 0.3) + (y - 0.6) * (y - 0.6))) + x;
  }

  private static IndexBox interior(MeshData md) {
    return IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
  }

  /** {@code y = -lap x} with the five-point stencil over the interior, ghosts as they are. */
  private static void minusLaplacian(MeshData md, int x, int y) {
    double[] a = md.data();
    IndexBox box = interior(md);
    for (int b = 0; b < md.numBlocks(); b++) {
      for (int j = box.j().s(); j <= box.j().e(); j++) {
        for (int i = box.i().s(); i <= box.i().e(); i++) {
          a[md.index(y, b, 0, 0, j, i)] = (4 * a[md.index(x, b, 0, 0, j, i)]
              - a[md.index(x, b, 0, 0, j, i - 1)] - a[md.index(x, b, 0, 0, j, i + 1)]
              - a[md.index(x, b, 0, 0, j - 1, i)] - a[md.index(x, b, 0, 0, j + 1, i)]) / (H * H);
        }
      }
    }
  }

  /** What a solve gave (the true residual is computed from every rank's cells). */
  private record Solve(String history, int iterations, double reported, double trueResidual,
      boolean converged) {}

  private static Solve solve(Communicator world, int packSize, int maxIterations,
      Map<Integer, double[]> byGid, double[] global) {
    ParameterInput pin = ParameterInput.parse("cg.in", deck(packSize, maxIterations), List.of());
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin), world);
    StateDescriptor pkg = new StateDescriptor("cg_test");
    pkg.addField("u", Metadata.of(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY));
    pkg.addField("f", Metadata.of(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY));
    ConjugateGradientSolver.addFields(pkg, "cg");
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
      forInterior(md, (b, j, i) -> md.data()[md.index(f, b, 0, 0, j, i)] =
          source(md.block(b).coords().x1c(i), md.block(b).coords().x2c(j)));
    }
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    ConjugateGradientSolver cg = new ConjugateGradientSolver("cg",
        SolverParams.fromInput(pin, "solver"), ConjugateGradientSolverTest::minusLaplacian,
        mesh, world, new PrintStream(printed, true, StandardCharsets.UTF_8));
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(parts.size());
    for (int l = 0; l < parts.size(); l++) {
      cg.addTasks(region.get(l), TaskId.NONE, l, parts.size(), parts.get(l), u, f, comm);
    }
    tc.execute();
    for (MeshData md : parts) {
      forInterior(md, (b, j, i) -> {
        int gi = (int) Math.floor(md.block(b).coords().x1c(i) / H);
        int gj = (int) Math.floor(md.block(b).coords().x2c(j) / H);
        global[gj * N + gi] = md.data()[md.index(u, b, 0, 0, j, i)];
      });
    }
    for (MeshData md : parts) {
      for (int b = 0; b < md.numBlocks(); b++) {
        double[] values = new double[64];
        int[] n = {0};
        final int block = b;
        forInterior(md, (bb, j, i) -> {
          if (bb == block) {
            values[n[0]++] = md.data()[md.index(u, bb, 0, 0, j, i)];
          }
        });
        byGid.put(md.block(b).gid(), values);
      }
    }
    return new Solve(printed.toString(StandardCharsets.UTF_8), cg.iterations(),
        cg.finalResidual(), Double.NaN, cg.converged());
  }

  /** A visitor of interior cells: block, row, column. */
  private interface CellVisitor {
    void visit(int b, int j, int i);
  }

  private static void forInterior(MeshData md, CellVisitor visitor) {
    IndexBox box = interior(md);
    for (int b = 0; b < md.numBlocks(); b++) {
      for (int j = box.j().s(); j <= box.j().e(); j++) {
        for (int i = box.i().s(); i <= box.i().e(); i++) {
          visitor.visit(b, j, i);
        }
      }
    }
  }

  /**
   * The rms of {@code f - A u} on the global grid, zero outside, from the solution gathered by
   * cell position: computed without the mesh, its exchange or the solver.
   */
  private static double trueResidual(double[] u) {
    double sum = 0.0;
    for (int j = 0; j < N; j++) {
      for (int i = 0; i < N; i++) {
        double west = i > 0 ? u[j * N + i - 1] : 0.0;
        double east = i < N - 1 ? u[j * N + i + 1] : 0.0;
        double south = j > 0 ? u[(j - 1) * N + i] : 0.0;
        double north = j < N - 1 ? u[(j + 1) * N + i] : 0.0;
        double r = source((i + 0.5) * H, (j + 0.5) * H)
            - (4 * u[j * N + i] - west - east - south - north) / (H * H);
        sum += r * r;
      }
    }
    return Math.sqrt(sum / (N * N));
  }

  /** Textbook CG on one N x N array with zero outside; the iterations to reach TOLERANCE. */
  private static int referenceIterations() {
    double[] r = new double[N * N];
    for (int j = 0; j < N; j++) {
      for (int i = 0; i < N; i++) {
        r[j * N + i] = source((i + 0.5) * H, (j + 0.5) * H);
      }
    }
    double[] p = r.clone();
    double[] ap = new double[N * N];
    double rr = dot(r, r);
    for (int k = 1; k <= 1000; k++) {
      for (int j = 0; j < N; j++) {
        for (int i = 0; i < N; i++) {
          double west = i > 0 ? p[j * N + i - 1] : 0.0;
          double east = i < N - 1 ? p[j * N + i + 1] : 0.0;
          double south = j > 0 ? p[(j - 1) * N + i] : 0.0;
          double north = j < N - 1 ? p[(j + 1) * N + i] : 0.0;
          ap[j * N + i] = (4 * p[j * N + i] - west - east - south - north) / (H * H);
        }
      }
      double alpha = rr / dot(p, ap);
      for (int c = 0; c < N * N; c++) {
        r[c] -= alpha * ap[c];
      }
      double next = dot(r, r);
      if (Math.sqrt(next / (N * N)) < TOLERANCE) {
        return k;
      }
      for (int c = 0; c < N * N; c++) {
        p[c] = r[c] + next / rr * p[c];
      }
      rr = next;
    }
    return -1;
  }

  private static double dot(double[] a, double[] b) {
    double s = 0.0;
    for (int c = 0; c < a.length; c++) {
      s += a[c] * b[c];
    }
    return s;
  }

  private static Solve run(int ranks, int packSize, int maxIterations,
      Map<Integer, double[]> byGid) {
    Solve[] solves = new Solve[ranks];
    double[] global = new double[N * N];
    InProcessCluster.run(ranks, world ->
        solves[world.rank()] = solve(world, packSize, maxIterations, byGid, global));
    for (Solve s : solves) {
      assertEquals(solves[0].iterations(), s.iterations());
    }
    Solve s = solves[0];
    return new Solve(s.history(), s.iterations(), s.reported(), trueResidual(global),
        s.converged());
  }

  @Test
  void givenAPoissonProblem_thenCgConvergesAsATextbookCgAndItsResidualIsTrue() {
    Solve s = run(1, -1, 500, new ConcurrentHashMap<>());
    assertTrue(s.converged());
    assertTrue(s.reported() < TOLERANCE, "reported=" + s.reported());
    assertEquals(referenceIterations(), s.iterations());
    assertEquals(s.reported(), s.trueResidual(), 0.05 * TOLERANCE);
    // The A-norm error falls at least as 2 ((sqrt(kappa) - 1) / (sqrt(kappa) + 1))^n, kappa the
    // condition number of the 32^2 five-point Laplacian with these boundaries.
    double low = Math.pow(Math.sin(Math.PI / (2 * (N + 1))), 2);
    double high = Math.pow(Math.cos(Math.PI / (2 * (N + 1))), 2);
    double rate = (Math.sqrt(high / low) - 1) / (Math.sqrt(high / low) + 1);
    int bound = (int) Math.ceil(Math.log(1e-16 / 2) / Math.log(rate));
    assertTrue(s.iterations() < bound, "iterations=" + s.iterations() + " bound=" + bound);
    List<String> lines = s.history().lines().toList();
    assertEquals("# [0] iteration", lines.get(0));
    assertEquals("# [1] rms-residual (tol = 1.000000e-10) ", lines.get(1));
    assertEquals(s.iterations() + 2, lines.size());
    assertTrue(lines.get(2).startsWith("1 "), lines.get(2));
    assertTrue(lines.get(lines.size() - 1).startsWith(s.iterations() + " "));
  }

  @Test
  void givenOneTwoAndFourRanksAndSixteenPartitions_thenTheSameHistoryAndBits() {
    Map<Integer, double[]> reference = new ConcurrentHashMap<>();
    Solve one = run(1, -1, 500, reference);
    int[][] variants = {{1, 1}, {2, -1}, {4, -1}, {4, 1}};
    for (int[] v : variants) {
      Map<Integer, double[]> byGid = new ConcurrentHashMap<>();
      Solve s = run(v[0], v[1], 500, byGid);
      String name = "ranks=" + v[0] + " pack_size=" + v[1];
      assertEquals(one.history(), s.history(), name);
      for (int gid = 0; gid < 16; gid++) {
        assertArrayEquals(reference.get(gid), byGid.get(gid), name + " gid=" + gid);
      }
    }
  }

  @Test
  void givenTooFewIterations_thenTheSolveEndsUnconvergedAndSaysSo() {
    Solve s = run(2, -1, 5, new ConcurrentHashMap<>());
    assertFalse(s.converged());
    assertEquals(5, s.iterations());
    assertTrue(s.reported() > TOLERANCE);
  }
}
