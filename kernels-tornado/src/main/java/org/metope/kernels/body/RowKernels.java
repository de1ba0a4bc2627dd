package org.metope.kernels.body;

import org.metope.kernels.table.BoundaryIndex;
import org.metope.kernels.table.BoundaryOp;

import static org.metope.kernels.table.BoundaryTable.BUFFER_OFFSET;
import static org.metope.kernels.table.BoundaryTable.DEFAULT_VALUE;
import static org.metope.kernels.table.BoundaryTable.FINE_NI;
import static org.metope.kernels.table.BoundaryTable.FINE_NJ;
import static org.metope.kernels.table.BoundaryTable.IE;
import static org.metope.kernels.table.BoundaryTable.IS;
import static org.metope.kernels.table.BoundaryTable.JE;
import static org.metope.kernels.table.BoundaryTable.JS;
import static org.metope.kernels.table.BoundaryTable.KE;
import static org.metope.kernels.table.BoundaryTable.KS;
import static org.metope.kernels.table.BoundaryTable.OP;
import static org.metope.kernels.table.BoundaryTable.OWNED_ALL;
import static org.metope.kernels.table.BoundaryTable.RECEIVE_COPY;
import static org.metope.kernels.table.BoundaryTable.RECEIVE_DEFAULT;
import static org.metope.kernels.table.BoundaryTable.SPARSE_THRESHOLD;

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

  /**
   * Unloads row {@code row} of boundary {@code b} as its receive mode {@code mode} says ({@code
   * receiveMode[b]} of its table).
   */
  public static void unloadRow(int b, int row, int n, int[] ints, double[] reals, int mode,
      double[] data, double[] buffers) {
    final int count = ints[IE * n + b] - ints[IS * n + b] + 1;
    if (mode == RECEIVE_COPY) {
      final int owned = BufferKernels.ownedMask(b, n, ints, rowComponent(b, row, n, ints));
      final int from = ints[BUFFER_OFFSET * n + b] + row * count;
      if (owned == OWNED_ALL) {
        BufferKernels.copyRow(buffers, from, data, varIndex(b, row, n, ints), count);
      } else {
        final int js = ints[JS * n + b];
        final int ks = ints[KS * n + b];
        BufferKernels.copyOwnedRow(buffers, from, data, varIndex(b, row, n, ints), count, owned,
            BufferKernels.boxClass(rowJ(b, row, n, ints) - js, ints[JE * n + b] - js + 1),
            BufferKernels.boxClass(rowK(b, row, n, ints) - ks, ints[KE * n + b] - ks + 1));
      }
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
    RefinementKernels.prolongateBoxRow(b, n, ints, reals, data, rowComponent(b, row, n, ints),
        rowK(b, row, n, ints), rowJ(b, row, n, ints));
  }

  /**
   * Arena index of the first fine child of the first box cell of row {@code row}: prolongation
   * writes {@code 2 * (IE - IS + 1)} cells from there, and as many on the next fine j row (2D, 3D)
   * and the next fine k rows (3D).
   */
  public static int fineRowStart(int b, int row, int n, int[] ints) {
    return BoundaryIndex.fineRow(b, n, ints, rowComponent(b, row, n, ints),
        rowK(b, row, n, ints), rowJ(b, row, n, ints));
  }

  private static void restrictInto(int b, int row, int n, int[] ints, double[] reals,
      double[] data, double[] out, int to) {
    final int fni = ints[FINE_NI * n + b];
    final int mask = RefinementKernels.restrictionMask(b, n, ints);
    final double weight = RefinementKernels.restrictionWeight(b, n, ints, reals);
    RefinementOps.restrictRow(data, fineRowStart(b, row, n, ints), fni,
        fni * ints[FINE_NJ * n + b], mask, weight, RefinementOps.totalWeight(mask, weight), out,
        to, ints[IE * n + b] - ints[IS * n + b] + 1);
  }

  /** Arena index of the first box cell of row {@code row} in var. */
  public static int varIndex(int b, int row, int n, int[] ints) {
    return BoundaryIndex.varRow(b, n, ints, rowComponent(b, row, n, ints), rowK(b, row, n, ints),
        rowJ(b, row, n, ints));
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
