package org.metope.kernels;

import static org.metope.kernels.BoundaryTable.BUFFER_OFFSET;
import static org.metope.kernels.BoundaryTable.DEFAULT_VALUE;
import static org.metope.kernels.BoundaryTable.FINE_DX1;
import static org.metope.kernels.BoundaryTable.FINE_NI;
import static org.metope.kernels.BoundaryTable.FINE_NJ;
import static org.metope.kernels.BoundaryTable.FINE_NK;
import static org.metope.kernels.BoundaryTable.FINE_OFFSET;
import static org.metope.kernels.BoundaryTable.FINE_ORIGIN_I;
import static org.metope.kernels.BoundaryTable.FINE_ORIGIN_J;
import static org.metope.kernels.BoundaryTable.FINE_ORIGIN_K;
import static org.metope.kernels.BoundaryTable.IE;
import static org.metope.kernels.BoundaryTable.IS;
import static org.metope.kernels.BoundaryTable.JE;
import static org.metope.kernels.BoundaryTable.JS;
import static org.metope.kernels.BoundaryTable.KE;
import static org.metope.kernels.BoundaryTable.KS;
import static org.metope.kernels.BoundaryTable.NDIM;
import static org.metope.kernels.BoundaryTable.OP;
import static org.metope.kernels.BoundaryTable.RECEIVE_COPY;
import static org.metope.kernels.BoundaryTable.RECEIVE_DEFAULT;
import static org.metope.kernels.BoundaryTable.SPARSE_THRESHOLD;
import static org.metope.kernels.BoundaryTable.VAR_NI;
import static org.metope.kernels.BoundaryTable.VAR_NJ;
import static org.metope.kernels.BoundaryTable.VAR_NK;
import static org.metope.kernels.BoundaryTable.VAR_OFFSET;

/**
 * The kernels one row at a time: row {@code r} of boundary {@code b} is component, k and j of its
 * box, numbered {@code r = (c * nk + (k - ks)) * nj + (j - js)}, the order of the buffer slice. A
 * device runs one thread per (boundary, row) and calls these; they decode the row and call the
 * same row bodies ({@link BufferKernels#copyRow}, {@link RefinementOps#restrictRow}, {@link
 * RefinementOps#prolongateRow}) as the boundary walks of the JVM backend, so both backends compute
 * every value with the same arithmetic.
 */
public final class RowKernels {
  private RowKernels() {}

  /** Loads row {@code row} of boundary {@code b}; returns 1 when a value reached the threshold. */
  public static int loadRow(int b, int row, int n, int[] ints, double[] reals, double[] data,
      double[] buffers) {
    final int count = ints[IE * n + b] - ints[IS * n + b] + 1;
    final int to = ints[BUFFER_OFFSET * n + b] + row * count;
    final int op = ints[OP * n + b];
    if (BoundaryOp.isRestriction(op)) {
      restrictInto(b, row, n, ints, reals, data, buffers, to);
    } else {
      BufferKernels.copyRow(data, varIndex(b, row, n, ints), buffers, to, count);
    }
    return BufferKernels.anyAtLeast(buffers, to, count, reals[SPARSE_THRESHOLD * n + b]);
  }

  /** Unloads row {@code row} of boundary {@code b} as {@code receiveMode[b]} says. */
  public static void unloadRow(int b, int row, int n, int[] ints, double[] reals,
      int[] receiveMode, double[] data, double[] buffers) {
    final int mode = receiveMode[b];
    final int count = ints[IE * n + b] - ints[IS * n + b] + 1;
    if (mode == RECEIVE_COPY) {
      BufferKernels.copyRow(buffers, ints[BUFFER_OFFSET * n + b] + row * count, data,
          varIndex(b, row, n, ints), count);
    } else if (mode == RECEIVE_DEFAULT) {
      BufferKernels.fillRow(data, varIndex(b, row, n, ints), count,
          reals[DEFAULT_VALUE * n + b]);
    }
  }

  /** Restricts row {@code row} of boundary {@code b} into the box of var. */
  public static void restrictRow(int b, int row, int n, int[] ints, double[] reals,
      double[] data) {
    restrictInto(b, row, n, ints, reals, data, data, varIndex(b, row, n, ints));
  }

  /** Prolongates row {@code row} of boundary {@code b} from var into the fine layout. */
  public static void prolongateRow(int b, int row, int n, int[] ints, double[] reals,
      double[] data) {
    final int ndim = ints[NDIM * n + b];
    final int is = ints[IS * n + b];
    final int count = ints[IE * n + b] - is + 1;
    final int vni = ints[VAR_NI * n + b];
    final int vnj = ints[VAR_NJ * n + b];
    final int fni = ints[FINE_NI * n + b];
    final int fnj = ints[FINE_NJ * n + b];
    final int j = rowJ(b, row, n, ints);
    final int k = rowK(b, row, n, ints);
    final int fineI = ints[FINE_ORIGIN_I * n + b] + 2 * is;
    final int fj = ints[FINE_ORIGIN_J * n + b] + (ndim >= 2 ? 2 : 1) * j;
    final int fk = ints[FINE_ORIGIN_K * n + b] + (ndim >= 3 ? 2 : 1) * k;
    RefinementOps.prolongateRow(data, varIndex(b, row, n, ints), vni, vni * vnj,
        fineRowStart(b, row, n, ints), fni, fni * fnj, count, ndim, is, fineI, j, fj, k, fk, b,
        n, reals);
  }

  /**
   * Arena index of the first fine child of the first box cell of row {@code row}: prolongation
   * writes {@code 2 * (IE - IS + 1)} cells from there, and as many on the next fine j row (2D, 3D)
   * and the next fine k rows (3D).
   */
  public static int fineRowStart(int b, int row, int n, int[] ints) {
    final int ndim = ints[NDIM * n + b];
    final int fni = ints[FINE_NI * n + b];
    final int fnj = ints[FINE_NJ * n + b];
    final int fj = ints[FINE_ORIGIN_J * n + b] + (ndim >= 2 ? 2 : 1) * rowJ(b, row, n, ints);
    final int fk = ints[FINE_ORIGIN_K * n + b] + (ndim >= 3 ? 2 : 1) * rowK(b, row, n, ints);
    return ints[FINE_OFFSET * n + b]
        + ((rowComponent(b, row, n, ints) * ints[FINE_NK * n + b] + fk) * fnj + fj) * fni
        + ints[FINE_ORIGIN_I * n + b] + 2 * ints[IS * n + b];
  }

  private static void restrictInto(int b, int row, int n, int[] ints, double[] reals,
      double[] data, double[] out, int to) {
    final int op = ints[OP * n + b];
    final int ndim = ints[NDIM * n + b];
    final int is = ints[IS * n + b];
    final int count = ints[IE * n + b] - is + 1;
    final int fni = ints[FINE_NI * n + b];
    final int fnj = ints[FINE_NJ * n + b];
    final int fj = ints[FINE_ORIGIN_J * n + b] + (ndim >= 2 ? 2 : 1) * rowJ(b, row, n, ints);
    final int fk = ints[FINE_ORIGIN_K * n + b] + (ndim >= 3 ? 2 : 1) * rowK(b, row, n, ints);
    final int c = rowComponent(b, row, n, ints);
    final int from = ints[FINE_OFFSET * n + b] + ints[FINE_ORIGIN_I * n + b] + 2 * is
        + ((c * ints[FINE_NK * n + b] + fk) * fnj + fj) * fni;
    final int mask = RefinementOps.restrictionMask(op, ndim);
    final double weight = RefinementOps.restrictionWeight(op, reals[FINE_DX1 * n + b],
        reals[(FINE_DX1 + 2) * n + b], reals[(FINE_DX1 + 4) * n + b]);
    RefinementOps.restrictRow(data, from, fni, fni * fnj, mask, weight,
        RefinementOps.totalWeight(mask, weight), out, to, count);
  }

  /** Arena index of the first box cell of row {@code row} in var. */
  public static int varIndex(int b, int row, int n, int[] ints) {
    final int ni = ints[VAR_NI * n + b];
    final int nj = ints[VAR_NJ * n + b];
    final int nk = ints[VAR_NK * n + b];
    final int c = rowComponent(b, row, n, ints);
    return ints[VAR_OFFSET * n + b]
        + ((c * nk + rowK(b, row, n, ints)) * nj + rowJ(b, row, n, ints)) * ni + ints[IS * n + b];
  }

  static int rowJ(int b, int row, int n, int[] ints) {
    final int js = ints[JS * n + b];
    return js + row % (ints[JE * n + b] - js + 1);
  }

  static int rowK(int b, int row, int n, int[] ints) {
    final int ks = ints[KS * n + b];
    final int boxJ = ints[JE * n + b] - ints[JS * n + b] + 1;
    return ks + (row / boxJ) % (ints[KE * n + b] - ks + 1);
  }

  static int rowComponent(int b, int row, int n, int[] ints) {
    final int boxJ = ints[JE * n + b] - ints[JS * n + b] + 1;
    final int boxK = ints[KE * n + b] - ints[KS * n + b] + 1;
    return row / (boxJ * boxK);
  }
}
