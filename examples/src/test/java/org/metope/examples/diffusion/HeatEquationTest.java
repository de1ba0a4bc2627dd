package org.metope.examples.diffusion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HeatEquationTest {
  @Test
  void fluxRunsFromHotToColdAndIsExactOnALinearProfile() {
    assertTrue(HeatEquation.faceFlux(2.0, 3.0, 1.0, 0.5) > 0.0, "heat flows towards the cold cell");
    // u = 5 x: Fick's law gives -kappa 5 on every face, whatever dx.
    for (double dx : new double[] {0.1, 0.01, 1e-4}) {
      assertEquals(-0.3 * 5.0, HeatEquation.faceFlux(0.3, 5.0 * 1.0, 5.0 * (1.0 + dx), dx), 1e-9);
    }
  }

  @Test
  void stableTimestepIsTheForwardEulerLimitOfTheCheckerboard() {
    // The checkerboard u_i = (-1)^i is the Laplacian's most damped mode: forward Euler multiplies
    // it by 1 - 4 kappa dt / dx^2 per step, in each dimension. At the limit the factor is -1.
    double kappa = 0.7;
    double dx = 0.05;
    for (int ndim = 1; ndim <= 3; ndim++) {
      double dt = HeatEquation.stableTimestep(kappa, 1.0, ndim, dx, dx, dx);
      assertEquals(-1.0, 1.0 - ndim * 4.0 * kappa * dt / (dx * dx), 1e-14);
    }
    // And a 1D run of that mode decays just below the limit and grows just above it.
    double limit = HeatEquation.stableTimestep(kappa, 1.0, 1, dx, dx, dx);
    assertTrue(growth(kappa, dx, 0.99 * limit) < 1.0);
    assertTrue(growth(kappa, dx, 1.01 * limit) > 1.0);
    // Unequal widths: the narrow axis dominates.
    double dt = HeatEquation.stableTimestep(1.0, 0.5, 2, 0.1, 0.01, 1.0);
    assertEquals(0.5 / (2.0 * (100.0 + 10000.0)), dt, 1e-18);
  }

  /** |amplitude| after 200 forward Euler steps of a 1D periodic checkerboard of 16 cells. */
  private static double growth(double kappa, double dx, double dt) {
    int n = 16;
    double[] u = new double[n];
    for (int i = 0; i < n; i++) {
      u[i] = (i % 2 == 0) ? 1.0 : -1.0;
    }
    double[] next = new double[n];
    for (int step = 0; step < 200; step++) {
      for (int i = 0; i < n; i++) {
        double fl = HeatEquation.faceFlux(kappa, u[(i + n - 1) % n], u[i], dx);
        double fr = HeatEquation.faceFlux(kappa, u[i], u[(i + 1) % n], dx);
        next[i] = u[i] - dt * (fr - fl) / dx;
      }
      System.arraycopy(next, 0, u, 0, n);
    }
    return Math.abs(u[0]);
  }

  @Test
  void gaussianSolvesTheHeatEquationAndKeepsItsIntegral() {
    double a = 1.5;
    double w = 0.1;
    double kappa = 0.2;
    double h = 1e-4;
    for (int ndim = 1; ndim <= 3; ndim++) {
      // du/dt = kappa laplacian u, the radial Laplacian u'' + (ndim - 1) u' / r, at r = 0.13.
      double r = 0.13;
      double t = 0.05;
      double dudt = (u(a, w, kappa, ndim, t + h, r) - u(a, w, kappa, ndim, t - h, r)) / (2 * h);
      double d2 = (u(a, w, kappa, ndim, t, r + h) - 2 * u(a, w, kappa, ndim, t, r)
          + u(a, w, kappa, ndim, t, r - h)) / (h * h);
      double d1 = (u(a, w, kappa, ndim, t, r + h) - u(a, w, kappa, ndim, t, r - h)) / (2 * h);
      assertEquals(dudt, kappa * (d2 + (ndim - 1) * d1 / r), 1e-5 * Math.abs(dudt));
      assertEquals(a * Math.exp(-r * r / (2 * w * w)), u(a, w, kappa, ndim, 0.0, r), 1e-15);
    }
    // 1D integral by the midpoint rule on [-3, 3] at two times: a sqrt(2 pi) w both times.
    for (double t : new double[] {0.0, 0.4}) {
      double sum = 0.0;
      int n = 60000;
      double dx = 6.0 / n;
      for (int i = 0; i < n; i++) {
        double x = -3.0 + (i + 0.5) * dx;
        sum += u(a, w, kappa, 1, t, x) * dx;
      }
      assertEquals(a * Math.sqrt(2 * Math.PI) * w, sum, 1e-12);
    }
  }

  private static double u(double a, double w, double kappa, int ndim, double t, double r) {
    return HeatEquation.gaussian(a, w, kappa, ndim, t, r * r);
  }

  @Test
  void l1ErrorIsTheVolumeWeightedMeanOfTheAbsoluteDifference() {
    double[] u = {1.0, 2.0, 3.0};
    double[] exact = {1.5, 2.0, 1.0};
    double[] volume = {1.0, 2.0, 1.0};
    assertEquals((0.5 + 0.0 + 2.0) / 4.0, HeatEquation.l1Error(u, exact, volume, 3), 1e-15);
    assertEquals(0.5, HeatEquation.l1Error(u, exact, volume, 1), 1e-15);
  }
}
