package org.metope.kernels.body;

/**
 * Prolongation of a face field inside a coarse cell: Parthenon's {@code
 * ProlongateInternalTothAndRoe} (src/prolong_restrict/pr_ops.hpp, after Toth and Roe 2002) on
 * uniform Cartesian coordinates, term by term. Given the fine faces that lie on the coarse cell's
 * boundary (filled by a shared prolongation), it sets the fine faces inside the coarse cell so
 * that every fine cell has the coarse cell's divergence: a divergence-free field stays so. That
 * holds for cells of equal widths along the axes in use (cubes, squares), as in Parthenon, whose
 * first term sums the other faces' differences without width ratios; the widths only weigh the
 * cross terms.
 *
 * <p>Layout: the three elements {@code F1, F2, F3} of one component of a face field, element
 * {@code e} at {@code base + e * elementStride}, each {@code nk x nj x ni} with {@code i} fastest
 * (as {@code org.metope.mesh.field.ArenaLayout} stores them). The coarse cell's first fine cell is
 * {@code (fk, fj, fi)}; on a 2D mesh {@code fk} is the single k index and the x3 faces do not
 * move.
 */
public final class FaceRefinementOps {
  private FaceRefinementOps() {}

  /**
   * Sets the fine faces of element {@code element} (0 for F1, 1 for F2, 2 for F3) inside the
   * coarse cell whose first fine cell is {@code (fk, fj, fi)}: the faces half way across the
   * coarse cell along the element's normal. {@code dxc} holds the coarse cell widths along x1, x2,
   * x3; {@code dims} is 2 or 3.
   */
  public static void tothAndRoe(double[] a, int base, int elementStride, int ni, int nj, int dims,
      int element, int fk, int fj, int fi, double dxc1, double dxc2, double dxc3) {
    final int g3 = dims > 2 ? 1 : 0;
    final int g2 = dims > 1 ? 1 : 0;
    double uxx = 0.0;
    double vxyz = 0.0;
    double wxyz = 0.0;
    for (int v = 0; v <= 1; v++) {
      for (int u = 0; u <= 2; u += 2) {
        for (int t = 0; t <= 1; t++) {
          final double fine2 = a[permuted(base, elementStride, ni, nj, element, 1, v, u, t, fk, fj,
              fi, g2, g3)];
          final double fine3 = a[permuted(base, elementStride, ni, nj, element, 2, u, v, t, fk, fj,
              fi, g2, g3)];
          uxx += sign(t) * sign(u) * (fine2 + fine3);
          vxyz += sign(t) * sign(u) * sign(v) * fine2;
          wxyz += sign(t) * sign(u) * sign(v) * fine3;
        }
      }
    }
    uxx *= 0.125;
    final double dx2 = square(width(element, dxc1, dxc2, dxc3));
    final double dy2 = square(width((element + 1) % 3, dxc1, dxc2, dxc3));
    final double dz2 = square(width((element + 2) % 3, dxc1, dxc2, dxc3));
    vxyz *= 0.125 * dz2 / (dx2 + dz2);
    wxyz *= 0.125 * dy2 / (dx2 + dy2);
    for (int ok = 0; ok <= 1; ok++) {
      for (int oj = 0; oj <= 1; oj++) {
        final double low = a[permuted(base, elementStride, ni, nj, element, 0, ok, oj, 0, fk, fj,
            fi, g2, g3)];
        final double high = a[permuted(base, elementStride, ni, nj, element, 0, ok, oj, 2, fk,
            fj, fi, g2, g3)];
        a[permuted(base, elementStride, ni, nj, element, 0, ok, oj, 1, fk, fj, fi, g2, g3)] =
            0.5 * (low + high) + uxx + sign(ok) * vxyz + sign(oj) * wxyz;
      }
    }
  }

  /**
   * The arena index of a fine face seen from element {@code element}'s frame, in which its own
   * normal is the first axis and the other two follow cyclically: element {@code (element + e) %
   * 3}, offsets {@code (ok, oj, oi)} along (second, third, normal) axes of that frame from the
   * coarse cell's first fine cell. Offsets along an axis the mesh does not use are dropped.
   */
  private static int permuted(int base, int elementStride, int ni, int nj, int element, int e,
      int ok, int oj, int oi, int fk, int fj, int fi, int g2, int g3) {
    final int target = (element + e) % 3;
    final int k;
    final int j;
    final int i;
    if (element == 0) {
      k = fk + ok * g3;
      j = fj + oj * g2;
      i = fi + oi;
    } else if (element == 1) {
      k = fk + oj * g3;
      j = fj + oi * g2;
      i = fi + ok;
    } else {
      k = fk + oi * g3;
      j = fj + ok * g2;
      i = fi + oj;
    }
    return base + target * elementStride + (k * nj + j) * ni + i;
  }

  private static double sign(int offset) {
    return offset == 0 ? -1.0 : 1.0;
  }

  private static double square(double x) {
    return x * x;
  }

  private static double width(int axis, double dxc1, double dxc2, double dxc3) {
    return axis == 0 ? dxc1 : axis == 1 ? dxc2 : dxc3;
  }
}
