package org.metope.kernels.tornado;

import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;
import org.metope.kernels.KernelKind;
import org.metope.kernels.body.RowKernels;

/**
 * The cells a device launch may write, as runs of consecutive array indices, found from the
 * boundary table on the host. A device launch gathers these runs into a staging array on the
 * device ({@link TornadoKernels#gather}); only the staging array comes back, and {@link
 * DeviceLaunch#scatter} puts each run where it belongs. So a launch writes back exactly the cells
 * its kernel wrote and never the rest of an arena, which other task threads and the communicator
 * own meanwhile.
 *
 * <pre>
 *   runs: | START[0..r) | LENGTH[0..r) | STAGING[0..r) | BOUNDARY[0..r) |
 *   run q copies target[START[q] .. START[q] + LENGTH[q]) to staging[STAGING[q] ..) and back
 *
 *   kind          target   runs of each boundary of the subset
 *   LOAD          buffers  its buffer slice, one run (allocated boundaries write it)
 *   UNLOAD        data     each row of its box in var (unless receiveMode is RECEIVE_SKIP)
 *   PROLONGATE    data     each fine row of the children of its box (PROLONGATE, allocated)
 *   RESTRICT      data     each row of its box in var (RESTRICT, allocated)
 * </pre>
 *
 * Runs follow the subset's order and, within a boundary, the order of its rows, so staging
 * offsets grow with q. Whether a boundary was written is decided per launch by the same per-step
 * arrays the kernel reads ({@link #written}).
 */
final class WrittenRegions {
  static final int START = 0;
  static final int LENGTH = 1;
  static final int STAGING = 2;
  static final int BOUNDARY = 3;
  static final int COLUMNS = 4;

  /** The kind of launch these runs belong to. */
  final KernelKind kind;
  /** Number of runs. */
  final int count;
  /** The runs, column after column; at least one entry so that a device buffer can exist. */
  final int[] runs;
  /** Sum of the run lengths: the doubles one launch stages and brings back. */
  final int stagingLength;

  private WrittenRegions(KernelKind kind, int count, int[] runs, int stagingLength) {
    this.kind = kind;
    this.count = count;
    this.runs = runs;
    this.stagingLength = stagingLength;
  }

  /** The runs a {@code kind} launch over {@code subset[0..count)} of {@code t} may write. */
  static WrittenRegions of(KernelKind kind, BoundaryTable t, int[] subset, int count) {
    int runCount = 0;
    for (int s = 0; s < count; s++) {
      runCount += runsOf(kind, t, subset[s], null, 0, 0);
    }
    int[] runs = new int[Math.max(1, COLUMNS * runCount)];
    int q = 0;
    int staged = 0;
    for (int s = 0; s < count; s++) {
      int before = q;
      q += runsOf(kind, t, subset[s], runs, runCount, q);
      for (int r = before; r < q; r++) {
        runs[STAGING * runCount + r] = staged;
        runs[BOUNDARY * runCount + r] = subset[s];
        staged += runs[LENGTH * runCount + r];
      }
    }
    return new WrittenRegions(kind, runCount, runs, staged);
  }

  /**
   * Writes boundary b's runs from index {@code q} on (when {@code out} is not null) and returns
   * how many there are.
   */
  private static int runsOf(KernelKind kind, BoundaryTable t, int b, int[] out, int stride,
      int q) {
    final int op = t.get(BoundaryTable.OP, b);
    final int rows = t.get(BoundaryTable.ROWS, b);
    final int width = t.get(BoundaryTable.IE, b) - t.get(BoundaryTable.IS, b) + 1;
    switch (kind) {
      case LOAD:
        put(out, stride, q, t.get(BoundaryTable.BUFFER_OFFSET, b), t.bufferLength(b));
        return 1;
      case UNLOAD:
        return boxRows(t, b, rows, width, out, stride, q);
      case RESTRICT:
        return op == BoundaryOp.RESTRICT ? boxRows(t, b, rows, width, out, stride, q) : 0;
      case PROLONGATE:
        return op == BoundaryOp.PROLONGATE ? fineRows(t, b, rows, width, out, stride, q) : 0;
      default:
        throw new IllegalStateException("unknown kernel kind: kind=" + kind);
    }
  }

  private static int boxRows(BoundaryTable t, int b, int rows, int width, int[] out, int stride,
      int q) {
    for (int r = 0; r < rows && out != null; r++) {
      put(out, stride, q + r, RowKernels.varIndex(b, r, t.size, t.ints), width);
    }
    return rows;
  }

  /** Prolongation writes 2 fine cells per coarse cell along i, on 1, 2 or 4 fine rows. */
  private static int fineRows(BoundaryTable t, int b, int rows, int width, int[] out, int stride,
      int q) {
    final int ndim = t.get(BoundaryTable.NDIM, b);
    final int ys = ndim >= 2 ? 2 : 1;
    final int zs = ndim >= 3 ? 2 : 1;
    final int fineJ = t.get(BoundaryTable.FINE_NI, b);
    final int fineK = fineJ * t.get(BoundaryTable.FINE_NJ, b);
    int at = q;
    for (int r = 0; r < rows && out != null; r++) {
      final int first = RowKernels.fineRowStart(b, r, t.size, t.ints);
      for (int z = 0; z < zs; z++) {
        for (int y = 0; y < ys; y++) {
          put(out, stride, at++, first + z * fineK + y * fineJ, 2 * width);
        }
      }
    }
    return rows * ys * zs;
  }

  private static void put(int[] out, int stride, int q, int start, int length) {
    if (out != null) {
      out[START * stride + q] = start;
      out[LENGTH * stride + q] = length;
    }
  }

  /** Whether this launch's kernel wrote boundary {@code b}, from the arrays it read. */
  boolean written(BoundaryTable t, int b) {
    return kind == KernelKind.UNLOAD
        ? t.receiveMode[b] != BoundaryTable.RECEIVE_SKIP
        : t.allocated[b] != 0;
  }
}
