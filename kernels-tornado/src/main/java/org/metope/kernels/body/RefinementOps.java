package org.metope.kernels.body;

import org.metope.kernels.table.BoundaryOp;

/**
 * The arithmetic of restriction and prolongation for one row of coarse cells: Parthenon's
 * {@code RestrictAverage} and {@code ProlongateSharedMinMod} (src/prolong_restrict/pr_ops.hpp) for
 * cell-centred data on uniform Cartesian coordinates, followed term by term so that results agree
 * with Parthenon's to the last bit where the compiler does not contract multiply-adds:
 *
 * <ul>
 *   <li>restriction forms the eight volume-weighted terms (zero for directions not averaged) and
 *       sums them, and the eight volumes, in Parthenon's pairing
 *       {@code ((000 + 010) + (001 + 011)) + ((100 + 110) + (101 + 111))}, then divides;
 *   <li>prolongation takes spacings from cell-centre coordinates ({@code xc - xm}, {@code xp - xc},
 *       {@code xc - fxm}, {@code fxp - xc}), one-sided gradients divided by those spacings, the
 *       minmod {@code 0.5 * (sign(gm) + sign(gp)) * min(|gm|, |gp|)} with {@code sign(0) = +1},
 *       and writes the eight children with Parthenon's signs and bracketing.
 * </ul>
 *
 * Deviation: Parthenon computes coordinates inside the kernel from its block's coordinate object;
 * here they come from the table's columns, so bit-equality also needs the caller to compute xmin
 * and
 * dx as Parthenon does (see {@link org.metope.kernels.table.BoundaryTableBuilder#coordinates}).
 */
public final class RefinementOps {
  private RefinementOps() {}

  /**
   * Directions averaged by a restriction: bit 0 x1, bit 1 x2, bit 2 x3. A flux correction does
   * not average along the face normal.
   */
  public static int restrictionMask(int op, int ndim) {
    int mask = 0;
    if (op != BoundaryOp.FLUX_X1) {
      mask |= 1;
    }
    if (ndim >= 2 && op != BoundaryOp.FLUX_X2) {
      mask |= 2;
    }
    if (ndim >= 3 && op != BoundaryOp.FLUX_X3) {
      mask |= 4;
    }
    return mask;
  }

  /**
   * Weight of one fine term: the fine cell volume for a cell, the fine face area for a face, as
   * Parthenon's {@code Volume<el>()} on uniform Cartesian coordinates.
   */
  public static double restrictionWeight(int op, double dx1, double dx2, double dx3) {
    if (op == BoundaryOp.FLUX_X1) {
      return dx2 * dx3;
    }
    if (op == BoundaryOp.FLUX_X2) {
      return dx1 * dx3;
    }
    if (op == BoundaryOp.FLUX_X3) {
      return dx1 * dx2;
    }
    return dx1 * dx2 * dx3;
  }

  /** Sum of the eight weights (zero where not averaged), in Parthenon's pairing. */
  public static double totalWeight(int mask, double w) {
    final boolean x1 = (mask & 1) != 0;
    final boolean x2 = (mask & 2) != 0;
    final boolean x3 = (mask & 4) != 0;
    final double v000 = w;
    final double v001 = x1 ? w : 0.0;
    final double v010 = x2 ? w : 0.0;
    final double v011 = x1 && x2 ? w : 0.0;
    final double v100 = x3 ? w : 0.0;
    final double v101 = x3 && x1 ? w : 0.0;
    final double v110 = x3 && x2 ? w : 0.0;
    final double v111 = x3 && x2 && x1 ? w : 0.0;
    return ((v000 + v010) + (v001 + v011)) + ((v100 + v110) + (v101 + v111));
  }

  /**
   * Restricts {@code count} coarse cells of a row. The first child of coarse cell m is
   * {@code fine[from + 2 * m]}; children along x2 and x3 are {@code strideJ} and {@code strideK}
   * further.
   */
  public static void restrictRow(double[] fine, int from, int strideJ, int strideK, int mask,
      double weight, double total, double[] out, int to, int count) {
    final boolean x1 = (mask & 1) != 0;
    final boolean x2 = (mask & 2) != 0;
    final boolean x3 = (mask & 4) != 0;
    for (int m = 0; m < count; m++) {
      final int f = from + 2 * m;
      final double t000 = weight * fine[f];
      final double t001 = x1 ? weight * fine[f + 1] : 0.0;
      final double t010 = x2 ? weight * fine[f + strideJ] : 0.0;
      final double t011 = x1 && x2 ? weight * fine[f + strideJ + 1] : 0.0;
      final double t100 = x3 ? weight * fine[f + strideK] : 0.0;
      final double t101 = x3 && x1 ? weight * fine[f + strideK + 1] : 0.0;
      final double t110 = x3 && x2 ? weight * fine[f + strideK + strideJ] : 0.0;
      final double t111 = x3 && x2 && x1 ? weight * fine[f + strideK + strideJ + 1] : 0.0;
      out[to + m] = (((t000 + t010) + (t001 + t011)) + ((t100 + t110) + (t101 + t111))) / total;
    }
  }

  /**
   * Prolongates {@code count} coarse cells of a row. Coarse cell m is {@code data[coarse + m]} at
   * coarse index (k, j, ci0 + m); its first fine child is {@code data[fine + 2 * m]} at fine index
   * (fk, fj, fi0 + 2 * m). Coordinates come from the table's real columns of boundary {@code b}.
   * With {@code linear} each child takes the one-sided slope towards its side (Parthenon's {@code
   * ProlongateSharedLinear}), else both take the min-mod slope ({@code ProlongateSharedMinMod});
   * the children's expressions are Parthenon's for both.
   */
  public static void prolongateRow(double[] data, int coarse, int coarseJ, int coarseK, int fine,
      int fineJ, int fineK, int count, int ndim, int ci0, int fi0, int j, int fj, int k, int fk,
      int b, int n, double[] reals, boolean linear) {
    final double cx1 = RefinementKernels.coarseXmin(reals, n, b, 0);
    final double cdx1 = RefinementKernels.coarseDx(reals, n, b, 0);
    final double fx1 = RefinementKernels.fineXmin(reals, n, b, 0);
    final double fdx1 = RefinementKernels.fineDx(reals, n, b, 0);
    final boolean x2 = ndim >= 2;
    final boolean x3 = ndim >= 3;
    // Parthenon leaves spacings and gradients of inactive directions at zero. One branch per
    // direction, not one per value: TornadoVM inlines the row into one graph of limited size.
    double dx2m = 0.0;
    double dx2p = 0.0;
    double dx2fm = 0.0;
    double dx2fp = 0.0;
    if (x2) {
      dx2m = spacingBelow(reals, n, b, 1, j);
      dx2p = spacingAbove(reals, n, b, 1, j);
      dx2fm = toFirstChild(reals, n, b, 1, j, fj);
      dx2fp = toSecondChild(reals, n, b, 1, j, fj);
    }
    double dx3m = 0.0;
    double dx3p = 0.0;
    double dx3fm = 0.0;
    double dx3fp = 0.0;
    if (x3) {
      dx3m = spacingBelow(reals, n, b, 2, k);
      dx3p = spacingAbove(reals, n, b, 2, k);
      dx3fm = toFirstChild(reals, n, b, 2, k, fk);
      dx3fp = toSecondChild(reals, n, b, 2, k, fk);
    }
    for (int m = 0; m < count; m++) {
      final int p = coarse + m;
      final int ci = ci0 + m;
      final int fi = fi0 + 2 * m;
      final double fc = data[p];
      final double xc = RefinementKernels.center(cx1, cdx1, ci);
      final double dx1m = xc - RefinementKernels.center(cx1, cdx1, ci - 1);
      final double dx1p = RefinementKernels.center(cx1, cdx1, ci + 1) - xc;
      final double dx1fm = xc - RefinementKernels.center(fx1, fdx1, fi);
      final double dx1fp = RefinementKernels.center(fx1, fdx1, fi + 1) - xc;
      // one-sided slopes towards each side, and one min-mod slope of the two per direction
      final double g1lo = (fc - data[p - 1]) / dx1m;
      final double g1hi = (data[p + 1] - fc) / dx1p;
      double g2lo = 0.0;
      double g2hi = 0.0;
      if (x2) {
        g2lo = (fc - data[p - coarseJ]) / dx2m;
        g2hi = (data[p + coarseJ] - fc) / dx2p;
      }
      double g3lo = 0.0;
      double g3hi = 0.0;
      if (x3) {
        g3lo = (fc - data[p - coarseK]) / dx3m;
        g3hi = (data[p + coarseK] - fc) / dx3p;
      }
      double g1m = g1lo;
      double g1p = g1hi;
      double g2m = g2lo;
      double g2p = g2hi;
      double g3m = g3lo;
      double g3p = g3hi;
      if (!linear) {
        g1m = minmod(g1lo, g1hi);
        g1p = g1m;
        g2m = minmod(g2lo, g2hi);
        g2p = g2m;
        g3m = minmod(g3lo, g3hi);
        g3p = g3m;
      }
      final int f = fine + 2 * m;
      data[f] = fc - (g1m * dx1fm + g2m * dx2fm + g3m * dx3fm);
      data[f + 1] = fc + (g1p * dx1fp - g2m * dx2fm - g3m * dx3fm);
      if (x2) {
        data[f + fineJ] = fc - (g1m * dx1fm - g2p * dx2fp + g3m * dx3fm);
        data[f + fineJ + 1] = fc + (g1p * dx1fp + g2p * dx2fp - g3m * dx3fm);
      }
      if (x3) {
        data[f + fineK] = fc - (g1m * dx1fm + g2m * dx2fm - g3p * dx3fp);
        data[f + fineK + 1] = fc + (g1p * dx1fp - g2m * dx2fm + g3p * dx3fp);
        data[f + fineK + fineJ] = fc - (g1m * dx1fm - g2p * dx2fp - g3p * dx3fp);
        data[f + fineK + fineJ + 1] = fc + (g1p * dx1fp + g2p * dx2fp + g3p * dx3fp);
      }
    }
  }

  /** Coarse centre {@code idx} minus coarse centre {@code idx - 1} along direction d. */
  static double spacingBelow(double[] reals, int n, int b, int d, int idx) {
    final double xmin = RefinementKernels.coarseXmin(reals, n, b, d);
    final double dx = RefinementKernels.coarseDx(reals, n, b, d);
    return RefinementKernels.center(xmin, dx, idx) - RefinementKernels.center(xmin, dx, idx - 1);
  }

  /** Coarse centre {@code idx + 1} minus coarse centre {@code idx} along direction d. */
  static double spacingAbove(double[] reals, int n, int b, int d, int idx) {
    final double xmin = RefinementKernels.coarseXmin(reals, n, b, d);
    final double dx = RefinementKernels.coarseDx(reals, n, b, d);
    return RefinementKernels.center(xmin, dx, idx + 1) - RefinementKernels.center(xmin, dx, idx);
  }

  /** Coarse centre {@code idx} minus the centre of its first fine child {@code fidx}. */
  static double toFirstChild(double[] reals, int n, int b, int d, int idx, int fidx) {
    return RefinementKernels.center(RefinementKernels.coarseXmin(reals, n, b, d),
        RefinementKernels.coarseDx(reals, n, b, d), idx)
        - RefinementKernels.center(RefinementKernels.fineXmin(reals, n, b, d),
            RefinementKernels.fineDx(reals, n, b, d), fidx);
  }

  /** Centre of the second fine child {@code fidx + 1} minus coarse centre {@code idx}. */
  static double toSecondChild(double[] reals, int n, int b, int d, int idx, int fidx) {
    return RefinementKernels.center(RefinementKernels.fineXmin(reals, n, b, d),
        RefinementKernels.fineDx(reals, n, b, d), fidx + 1)
        - RefinementKernels.center(RefinementKernels.coarseXmin(reals, n, b, d),
            RefinementKernels.coarseDx(reals, n, b, d), idx);
  }

  /**
   * Minmod-limited gradient from one-sided differences, Parthenon's {@code GradMinMod}: zero at an
   * extremum, else the smaller slope.
   */
  public static double minmod(double fc, double fm, double fp, double dxm, double dxp) {
    return minmod((fc - fm) / dxm, (fp - fc) / dxp);
  }

  /**
   * The min-mod of the one-sided slopes {@code gm} and {@code gp}: zero where their signs differ,
   * else the one of smaller magnitude (zero for two zeros).
   */
  static double minmod(double gm, double gp) {
    final double am = Math.abs(gm);
    final double ap = Math.abs(gp);
    // std::min(am, ap) returns am unless ap is strictly smaller
    return 0.5 * (sign(gm) + sign(gp)) * (ap < am ? ap : am);
  }

  /** Parthenon's SIGN: -1 for negative values, +1 otherwise (zero included). */
  static double sign(double x) {
    return x < 0.0 ? -1.0 : 1.0;
  }
}
