package org.metope.examples.diffusion;

/**
 * The formulas of the diffusion example, {@code du/dt = div(kappa grad u)} with a constant
 * diffusivity {@code kappa}: the face flux, the explicit time step limit, the exact solution for
 * a Gaussian start and the error norm the convergence test measures. Plain functions of numbers,
 * so kernels call them without allocating and tests check them alone.
 */
public final class HeatEquation {
  private HeatEquation() {}

  /**
   * The heat flux through the face between two cells {@code dx} apart, in the direction from
   * {@code uLeft} to {@code uRight}: {@code -kappa (uRight - uLeft) / dx}, second order at the
   * face (Fick's law with a centred difference).
   */
  public static double faceFlux(double kappa, double uLeft, double uRight, double dx) {
    return -kappa * (uRight - uLeft) / dx;
  }

  /**
   * The largest stable time step of forward Euler (and of the deck's rk2/rk3/vl2, whose stability
   * regions hold the same stretch of the negative real axis, {@code [-2, 0]}) for the centred
   * Laplacian on cells of widths {@code dx1, dx2, dx3}, times {@code cfl}: {@code cfl / (2 kappa
   * sum 1/dx_d^2)}, summed over the first {@code ndim} axes. The most damped mode (a checkerboard)
   * has the eigenvalue {@code -4 kappa sum 1/dx_d^2}.
   */
  public static double stableTimestep(double kappa, double cfl, int ndim, double dx1,
      double dx2, double dx3) {
    double inverse = 1.0 / (dx1 * dx1);
    if (ndim > 1) {
      inverse += 1.0 / (dx2 * dx2);
    }
    if (ndim > 2) {
      inverse += 1.0 / (dx3 * dx3);
    }
    return cfl / (2.0 * kappa * inverse);
  }

  /**
   * The exact solution at time {@code t} and squared distance {@code r2} from the centre, in
   * unbounded space of {@code ndim} dimensions, for the start {@code amplitude exp(-r^2 / (2
   * width^2))}: the Gaussian spreads to the variance {@code width^2 + 2 kappa t} and its peak
   * drops so that its integral, {@code amplitude (2 pi width^2)^(ndim/2)}, stays.
   */
  public static double gaussian(double amplitude, double width, double kappa, int ndim,
      double t, double r2) {
    double w2 = width * width;
    double variance = w2 + 2.0 * kappa * t;
    return amplitude * Math.pow(w2 / variance, 0.5 * ndim) * Math.exp(-r2 / (2.0 * variance));
  }

  /**
   * The volume-weighted L1 error {@code sum |u - exact| V / sum V} of {@code n} cells, the norm
   * whose decrease with resolution shows the order of a finite-volume scheme.
   */
  public static double l1Error(double[] u, double[] exact, double[] volume, int n) {
    double error = 0.0;
    double total = 0.0;
    for (int c = 0; c < n; c++) {
      error += Math.abs(u[c] - exact[c]) * volume[c];
      total += volume[c];
    }
    return error / total;
  }
}
