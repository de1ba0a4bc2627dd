package org.metope.solvers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * GIVEN {@code -lap u = f} on the {@link GridProblem} grid (zero ghosts on the domain boundary:
 * the operator is symmetric positive definite), THEN conjugate gradients on the mesh take the
 * iterations of a textbook CG on one global array (an independent implementation), end below the
 * tolerance within the iterations the condition number allows, leave a true residual equal to the
 * one they report, and print the same history and write the same bits on 1, 2 and 4 ranks and
 * with 16 partitions; too few iterations end unconverged and say so.
 */
class ConjugateGradientSolverTest {
  private static final double TOLERANCE = 1e-10;
  private static final GridProblem PROBLEM = GridProblem.minusLaplacian();
  private static final int N = GridProblem.N;

  private static final GridProblem.SolverFactory CG = (params, operator, mesh, world, out) ->
      new ConjugateGradientSolver("cg", params, operator, mesh, world, out);

  private static GridProblem.Solve solve(int ranks, int packSize, int maxIterations) {
    return PROBLEM.solve(ranks, packSize, maxIterations, TOLERANCE, "cg", CG);
  }

  /** Textbook CG on one N x N array with zero outside; the iterations to reach TOLERANCE. */
  private static int referenceIterations() {
    double[] r = new double[N * N];
    for (int j = 0; j < N; j++) {
      for (int i = 0; i < N; i++) {
        r[j * N + i] = GridProblem.source((i + 0.5) * GridProblem.H, (j + 0.5) * GridProblem.H);
      }
    }
    double[] p = r.clone();
    double[] ap = new double[N * N];
    double rr = dot(r, r);
    for (int k = 1; k <= 1000; k++) {
      for (int j = 0; j < N; j++) {
        for (int i = 0; i < N; i++) {
          ap[j * N + i] = PROBLEM.applyGlobal(p, i, j);
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

  static double dot(double[] a, double[] b) {
    double s = 0.0;
    for (int c = 0; c < a.length; c++) {
      s += a[c] * b[c];
    }
    return s;
  }

  @Test
  void givenAPoissonProblem_thenCgConvergesAsATextbookCgAndItsResidualIsTrue() {
    GridProblem.Solve s = solve(1, -1, 500);
    assertTrue(s.converged());
    assertTrue(s.reported() < TOLERANCE, "reported=" + s.reported());
    assertEquals(referenceIterations(), s.iterations());
    assertEquals(s.reported(), PROBLEM.residual(s.global()), 0.05 * TOLERANCE);
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
    GridProblem.Solve one = solve(1, -1, 500);
    int[][] variants = {{1, 1}, {2, -1}, {4, -1}, {4, 1}};
    for (int[] v : variants) {
      GridProblem.Solve s = solve(v[0], v[1], 500);
      String name = "ranks=" + v[0] + " pack_size=" + v[1];
      assertEquals(one.history(), s.history(), name);
      assertArrayEquals(one.global(), s.global(), name);
    }
  }

  @Test
  void givenTooFewIterations_thenTheSolveEndsUnconvergedAndSaysSo() {
    GridProblem.Solve s = solve(2, -1, 5);
    assertFalse(s.converged());
    assertEquals(5, s.iterations());
    assertTrue(s.reported() > TOLERANCE);
  }
}
