package org.metope.examples.poisson;

/**
 * The finite-difference stencil of the Poisson package (Parthenon's {@code solvers::Stencil}):
 * {@code 1 + 2 ndim} points, the centre second, the {@code i} neighbours first and third, then
 * the {@code j} pair and the {@code k} pair, with their weights. {@link #jacobi} is one Jacobi
 * update of one cell, with the products summed in stencil order from 0.0, as Parthenon sums
 * them.
 *
 * @param weights the weight of each point
 * @param di the {@code i} offset of each point
 * @param dj the {@code j} offset of each point
 * @param dk the {@code k} offset of each point
 * @param centre the index of the point with no offset
 */
record PoissonStencil(double[] weights, int[] di, int[] dj, int[] dk, int centre) {
  private static final int[] DI = {-1, 0, 1, 0, 0, 0, 0};
  private static final int[] DJ = {0, 0, 0, -1, 1, 0, 0};
  private static final int[] DK = {0, 0, 0, 0, 0, -1, 1};

  /**
   * The stencil of Parthenon's package in {@code ndim} dimensions: weights {@code 1, -2 ndim, 1,
   * ...} for {@code jacobi} (the Laplacian times dx^2), else {@code 1 / (2 ndim), -1, ...}.
   */
  static PoissonStencil of(int ndim, boolean jacobi) {
    int n = 1 + 2 * ndim;
    double[] w = new double[n];
    double side = jacobi ? 1.0 : 1.0 / (2.0 * ndim);
    java.util.Arrays.fill(w, side);
    w[1] = jacobi ? -2.0 * ndim : -1.0;
    return new PoissonStencil(w, java.util.Arrays.copyOf(DI, n), java.util.Arrays.copyOf(DJ, n),
        java.util.Arrays.copyOf(DK, n), 1);
  }

  /** Number of points. */
  int size() {
    return weights.length;
  }

  /**
   * The Jacobi update of the cell at {@code c} of {@code v}: {@code (rhs - A v + w_c v_c) / w_c}.
   *
   * @param shift {@code shift[n]}: the arena distance of point {@code n} from the centre
   */
  double jacobi(double[] v, int c, int[] shift, double rhs) {
    double matvec = 0.0;
    for (int n = 0; n < weights.length; n++) {
      matvec += weights[n] * v[c + shift[n]];
    }
    return (rhs - matvec + weights[centre] * v[c]) / weights[centre];
  }
}
