package org.metope.kernels;

import static org.metope.kernels.BoundaryTable.BUFFER_OFFSET;
import static org.metope.kernels.BoundaryTable.COARSE_DX1;
import static org.metope.kernels.BoundaryTable.COARSE_XMIN1;
import static org.metope.kernels.BoundaryTable.FINE_DX1;
import static org.metope.kernels.BoundaryTable.FINE_NI;
import static org.metope.kernels.BoundaryTable.FINE_NJ;
import static org.metope.kernels.BoundaryTable.FINE_NK;
import static org.metope.kernels.BoundaryTable.FINE_OFFSET;
import static org.metope.kernels.BoundaryTable.FINE_ORIGIN_I;
import static org.metope.kernels.BoundaryTable.FINE_ORIGIN_J;
import static org.metope.kernels.BoundaryTable.FINE_ORIGIN_K;
import static org.metope.kernels.BoundaryTable.FINE_XMIN1;
import static org.metope.kernels.BoundaryTable.IE;
import static org.metope.kernels.BoundaryTable.IS;
import static org.metope.kernels.BoundaryTable.JE;
import static org.metope.kernels.BoundaryTable.JS;
import static org.metope.kernels.BoundaryTable.KE;
import static org.metope.kernels.BoundaryTable.KS;
import static org.metope.kernels.BoundaryTable.NCOMP;
import static org.metope.kernels.BoundaryTable.NDIM;
import static org.metope.kernels.BoundaryTable.OP;
import static org.metope.kernels.BoundaryTable.SPARSE_THRESHOLD;
import static org.metope.kernels.BoundaryTable.VAR_NI;
import static org.metope.kernels.BoundaryTable.VAR_NJ;
import static org.metope.kernels.BoundaryTable.VAR_NK;
import static org.metope.kernels.BoundaryTable.VAR_OFFSET;

/**
 * Kernel bodies of the walks over whole boundaries that change resolution: restriction (into a
 * buffer while loading, or into var) and prolongation. The arithmetic of one row lives in {@link
 * RefinementOps}; these methods hoist a boundary's columns once and walk its rows, the way the JVM
 * backend's fused loop wants them. {@link RowKernels} reaches the same row bodies one row at a time.
 */
public final class RefinementKernels {
  private RefinementKernels() {}

  /**
   * Restricts the fine children of every cell of boundary {@code b}'s box, writing either the
   * boundary's buffer slice (load) or the box of var (restrictBlocks).
   *
   * @param source the data arena holding the fine layout, and var when writing var
   * @param target the buffer arena when {@code intoBuffer}, else ignored (var is in source)
   * @return when {@code intoBuffer}, 1 if some value reached the sparse threshold; else 0
   */
  public static int restrictBoundary(int b, int n, int[] ints, double[] reals, double[] source,
      double[] target, boolean intoBuffer) {
    final int op = ints[OP * n + b];
    final int ndim = ints[NDIM * n + b];
    final int ncomp = ints[NCOMP * n + b];
    final int is = ints[IS * n + b];
    final int js = ints[JS * n + b];
    final int je = ints[JE * n + b];
    final int ks = ints[KS * n + b];
    final int ke = ints[KE * n + b];
    final int count = ints[IE * n + b] - is + 1;
    final int vni = ints[VAR_NI * n + b];
    final int vnj = ints[VAR_NJ * n + b];
    final int vnk = ints[VAR_NK * n + b];
    final int fni = ints[FINE_NI * n + b];
    final int fnj = ints[FINE_NJ * n + b];
    final int fnk = ints[FINE_NK * n + b];
    final int fy = ndim >= 2 ? 2 : 1;
    final int fz = ndim >= 3 ? 2 : 1;
    final int fineI = ints[FINE_OFFSET * n + b] + ints[FINE_ORIGIN_I * n + b] + 2 * is;
    final int originJ = ints[FINE_ORIGIN_J * n + b];
    final int originK = ints[FINE_ORIGIN_K * n + b];
    final int mask = RefinementOps.restrictionMask(op, ndim);
    final double weight = RefinementOps.restrictionWeight(op, reals[FINE_DX1 * n + b],
        reals[(FINE_DX1 + 2) * n + b], reals[(FINE_DX1 + 4) * n + b]);
    final double total = RefinementOps.totalWeight(mask, weight);
    final double threshold = reals[SPARSE_THRESHOLD * n + b];
    final double[] out = intoBuffer ? target : source;
    int bufferPos = ints[BUFFER_OFFSET * n + b];
    int nonzero = 0;
    for (int c = 0; c < ncomp; c++) {
      for (int k = ks; k <= ke; k++) {
        final int fk = originK + fz * k;
        for (int j = js; j <= je; j++) {
          final int fj = originJ + fy * j;
          final int from = fineI + ((c * fnk + fk) * fnj + fj) * fni;
          final int to = intoBuffer
              ? bufferPos
              : ints[VAR_OFFSET * n + b] + ((c * vnk + k) * vnj + j) * vni + is;
          RefinementOps.restrictRow(source, from, fni, fni * fnj, mask, weight, total, out, to,
              count);
          if (intoBuffer && nonzero == 0) {
            nonzero = BufferKernels.anyAtLeast(out, to, count, threshold);
          }
          bufferPos += count;
        }
      }
    }
    return nonzero;
  }

  /**
   * Prolongates boundary {@code b}: every cell of the box of var (the coarse buffer) is spread over
   * its 2, 4 or 8 fine children with minmod-limited slopes.
   */
  public static void prolongateBoundary(int b, int n, int[] ints, double[] reals, double[] data) {
    final int ndim = ints[NDIM * n + b];
    final int ncomp = ints[NCOMP * n + b];
    final int is = ints[IS * n + b];
    final int js = ints[JS * n + b];
    final int je = ints[JE * n + b];
    final int ks = ints[KS * n + b];
    final int ke = ints[KE * n + b];
    final int count = ints[IE * n + b] - is + 1;
    final int vni = ints[VAR_NI * n + b];
    final int vnj = ints[VAR_NJ * n + b];
    final int vnk = ints[VAR_NK * n + b];
    final int fni = ints[FINE_NI * n + b];
    final int fnj = ints[FINE_NJ * n + b];
    final int fnk = ints[FINE_NK * n + b];
    final int fy = ndim >= 2 ? 2 : 1;
    final int fz = ndim >= 3 ? 2 : 1;
    final int fineI = ints[FINE_ORIGIN_I * n + b] + 2 * is;
    final int originJ = ints[FINE_ORIGIN_J * n + b];
    final int originK = ints[FINE_ORIGIN_K * n + b];
    final int varBase = ints[VAR_OFFSET * n + b] + is;
    final int fineBase = ints[FINE_OFFSET * n + b] + fineI;
    for (int c = 0; c < ncomp; c++) {
      for (int k = ks; k <= ke; k++) {
        final int fk = originK + fz * k;
        for (int j = js; j <= je; j++) {
          final int fj = originJ + fy * j;
          RefinementOps.prolongateRow(data, varBase + ((c * vnk + k) * vnj + j) * vni, vni,
              vni * vnj, fineBase + ((c * fnk + fk) * fnj + fj) * fni, fni, fni * fnj, count, ndim,
              is, fineI, j, fj, k, fk, b, n, reals);
        }
      }
    }
  }

  /** Cell-centre coordinate of index {@code idx}, as Parthenon's uniform Cartesian X(). */
  static double center(double xmin, double dx, int idx) {
    return xmin + (idx + 0.5) * dx;
  }

  /** Coarse xmin of direction {@code d} (0, 1, 2) of boundary {@code b}. */
  static double coarseXmin(double[] reals, int n, int b, int d) {
    return reals[(COARSE_XMIN1 + 2 * d) * n + b];
  }

  /** Coarse dx of direction {@code d} of boundary {@code b}. */
  static double coarseDx(double[] reals, int n, int b, int d) {
    return reals[(COARSE_DX1 + 2 * d) * n + b];
  }

  /** Fine xmin of direction {@code d} of boundary {@code b}. */
  static double fineXmin(double[] reals, int n, int b, int d) {
    return reals[(FINE_XMIN1 + 2 * d) * n + b];
  }

  /** Fine dx of direction {@code d} of boundary {@code b}. */
  static double fineDx(double[] reals, int n, int b, int d) {
    return reals[(FINE_DX1 + 2 * d) * n + b];
  }
}
