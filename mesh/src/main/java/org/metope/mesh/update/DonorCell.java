package org.metope.mesh.update;

/**
 * The donor-cell (first-order upwind) flux of a field moving with a constant velocity, as a
 * kernel over the flat arena: what the sparse_advection example computes for each of its fields,
 * and the hand-written reference the view-based advection kernel is benchmarked against.
 */
public final class DonorCell {
  private DonorCell() {}

  /**
   * Fluxes of one component with the constant velocity {@code vel} through the {@code dir} faces
   * ({@code dir} 1, 2 or 3) of the interior {@code box} ({@code is, ie, js, je, ks, ke}), in the
   * arena {@code a} with row and plane strides {@code strides[1]}, {@code strides[2]} ({@code
   * strides[0]} is 1): component data at {@code q}, fluxes at {@code flux}.
   *
   * <p>For each k plane, one loop over the index range from the first face of the first row to
   * the last face of the last row, so that the JIT gets loops of hundreds of iterations instead
   * of rows of 16. The range also covers the faces of ghost columns between rows; their values
   * are never read (the divergence reads interior faces only).
   */
  public static void constantVelocity(double[] a, int q, int flux, double vel, int dir,
      int[] box, int[] strides) {
    final int js = strides[1];
    final int ks = strides[2];
    final int shift = strides[dir - 1];
    final int ie = dir == 1 ? box[1] + 1 : box[1];
    final int je = dir == 2 ? box[3] + 1 : box[3];
    final int ke = dir == 3 ? box[5] + 1 : box[5];
    // Upwind: the donor is the cell below the face for positive velocity, the cell above else.
    final int donor = vel > 0.0 ? q - shift : q;
    for (int k = box[4]; k <= ke; k++) {
      final int first = k * ks + box[2] * js + box[0];
      final int last = k * ks + je * js + ie;
      scaledRange(a, flux + first, donor + first, last - first + 1, vel);
    }
  }

  /** {@code a[to + n] = a[from + n] * vel} for {@code n = 0 .. length - 1}. */
  private static void scaledRange(double[] a, int to, int from, int length, double vel) {
    for (int n = 0; n < length; n++) {
      a[to + n] = a[from + n] * vel;
    }
  }
}
