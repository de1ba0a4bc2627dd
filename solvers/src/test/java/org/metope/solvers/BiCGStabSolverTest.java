package org.metope.solvers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * GIVEN {@code -lap u + 40 du/dx = f} with upwind differences on the {@link GridProblem} grid (an
 * operator that is not symmetric, where conjugate gradients do not apply), THEN BiCGSTAB on the
 * mesh takes the iterations of a textbook BiCGSTAB on one global array (an independent
 * implementation), reduces the rms residual below the tolerance (a reduction by 1e-10 from its
 * start), leaves a true residual equal to the one it reports, prints Parthenon's header and two
 * lines per iteration, and gives the same history and bits on 1, 2 and 4 ranks and with 16
 * partitions; too few iterations end unconverged.
 */
class BiCGStabSolverTest {
  private static final double TOLERANCE = 1e-10;
  private static final GridProblem PROBLEM = GridProblem.advectionDiffusion(40.0);
  private static final int N = GridProblem.N;
  private static final GridProblem.SolverFactory BICGSTAB =
      (params, operator, mesh, world, out) ->
          new BiCGStabSolver("bicg", params, operator, mesh, world, out);

  private static GridProblem.Solve solve(int ranks, int packSize, int maxIterations) {
    return PROBLEM.solve(ranks, packSize, maxIterations, TOLERANCE, "bicg", BICGSTAB);
  }

  private static double[] apply(double[] x) {
    double[] y = new double[N * N];
    for (int j = 0; j < N; j++) {
      for (int i = 0; i < N; i++) {
        y[j * N + i] = PROBLEM.applyGlobal(x, i, j);
      }
    }
    return y;
  }

  /** Textbook unpreconditioned BiCGSTAB on one global array; the iterations to TOLERANCE. */
  private static int referenceIterations() {
    double[] r = new double[N * N];
    for (int j = 0; j < N; j++) {
      for (int i = 0; i < N; i++) {
        r[j * N + i] = GridProblem.source((i + 0.5) * GridProblem.H, (j + 0.5) * GridProblem.H);
      }
    }
    double[] rhat = r.clone();
    double[] p = r.clone();
    double rho = ConjugateGradientSolverTest.dot(rhat, r);
    for (int k = 1; k <= 1000; k++) {
      double[] v = apply(p);
      double alpha = rho / ConjugateGradientSolverTest.dot(rhat, v);
      double[] s = new double[N * N];
      for (int c = 0; c < s.length; c++) {
        s[c] = r[c] - alpha * v[c];
      }
      double[] t = apply(s);
      double omega = ConjugateGradientSolverTest.dot(t, s) / ConjugateGradientSolverTest.dot(t, t);
      for (int c = 0; c < s.length; c++) {
        r[c] = s[c] - omega * t[c];
      }
      if (Math.sqrt(ConjugateGradientSolverTest.dot(r, r) / (N * N)) < TOLERANCE) {
        return k;
      }
      double next = ConjugateGradientSolverTest.dot(rhat, r);
      double beta = next / rho * alpha / omega;
      for (int c = 0; c < s.length; c++) {
        p[c] = r[c] + beta * (p[c] - omega * v[c]);
      }
      rho = next;
    }
    return -1;
  }

  @Test
  void givenANonSymmetricProblem_thenBiCgStabConvergesAsATextbookOneAndItsResidualIsTrue() {
    GridProblem.Solve s = solve(1, -1, 500);
    assertTrue(s.converged());
    assertTrue(s.reported() < TOLERANCE, "reported=" + s.reported());
    assertEquals(referenceIterations(), s.iterations());
    assertEquals(s.reported(), PROBLEM.residual(s.global()), 0.05 * TOLERANCE);
    List<String> lines = s.history().lines().toList();
    assertEquals(List.of("# [0] v-cycle", "# [1] rms-residual (tol = 1.000000e-10) ",
        "# [2] rms-error"), lines.subList(0, 3));
    assertEquals(3 + 2 * s.iterations(), lines.size());
    assertTrue(lines.get(3).startsWith("1 "), lines.get(3));
    assertTrue(lines.get(lines.size() - 1).startsWith(2 * s.iterations() + " "));
    double first = Double.parseDouble(lines.get(3).split(" ")[1]);
    assertTrue(first > 1e3 * TOLERANCE, "first=" + first);
  }

  @Test
  void givenOneTwoAndFourRanksAndSixteenPartitions_thenTheSameHistoryAndBits() {
    GridProblem.Solve one = solve(1, -1, 500);
    int[][] variants = {{1, 1}, {2, -1}, {4, 1}};
    for (int[] v : variants) {
      GridProblem.Solve s = solve(v[0], v[1], 500);
      String name = "ranks=" + v[0] + " pack_size=" + v[1];
      assertEquals(one.history(), s.history(), name);
      assertArrayEquals(one.global(), s.global(), name);
    }
  }

  @Test
  void givenTooFewIterations_thenTheSolveEndsUnconverged() {
    GridProblem.Solve s = solve(2, -1, 3);
    assertFalse(s.converged());
    assertEquals(3, s.iterations());
    assertTrue(s.reported() > TOLERANCE);
  }
}
