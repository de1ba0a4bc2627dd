package org.metope.kernels;

import static org.metope.kernels.BoundaryTable.BUFFER_OFFSET;
import static org.metope.kernels.BoundaryTable.DEFAULT_VALUE;
import static org.metope.kernels.BoundaryTable.IE;
import static org.metope.kernels.BoundaryTable.IS;
import static org.metope.kernels.BoundaryTable.JE;
import static org.metope.kernels.BoundaryTable.JS;
import static org.metope.kernels.BoundaryTable.KE;
import static org.metope.kernels.BoundaryTable.KS;
import static org.metope.kernels.BoundaryTable.NCOMP;
import static org.metope.kernels.BoundaryTable.OP;
import static org.metope.kernels.BoundaryTable.RECEIVE_COPY;
import static org.metope.kernels.BoundaryTable.RECEIVE_DEFAULT;
import static org.metope.kernels.BoundaryTable.SPARSE_THRESHOLD;
import static org.metope.kernels.BoundaryTable.VAR_NI;
import static org.metope.kernels.BoundaryTable.VAR_NJ;
import static org.metope.kernels.BoundaryTable.VAR_NK;
import static org.metope.kernels.BoundaryTable.VAR_OFFSET;

/**
 * Kernel bodies that move boundary data between the data arena and the buffer arena: load (send
 * side) and unload (receive side). Static methods over flat arrays and the columns of a
 * {@link BoundaryTable}, so that the JVM backend and TornadoVM run the same code.
 *
 * <p>Two granularities share the row bodies ({@link #copyRow}, {@link #fillRow}, {@link
 * #anyAtLeast}): {@code *Boundary} methods walk every row of one boundary with the table columns
 * hoisted (what the JVM backend's fused loop calls), and {@link RowKernels} decodes one row from a
 * flat row number (what a device thread calls).
 */
public final class BufferKernels {
  private BufferKernels() {}

  /**
   * Loads boundary {@code b} of a table of {@code n} boundaries into its buffer slice, copying the
   * box (COPY, PROLONGATE) or restricting the box's fine children (RESTRICT, FLUX_*).
   *
   * @return 1 when some loaded |value| reached the boundary's sparse threshold, else 0
   */
  public static int loadBoundary(int b, int n, int[] ints, double[] reals, double[] data,
      double[] buffers) {
    if (BoundaryOp.isRestriction(ints[OP * n + b])) {
      return RefinementKernels.restrictBoundary(b, n, ints, reals, data, buffers, true);
    }
    final int ni = ints[VAR_NI * n + b];
    final int nj = ints[VAR_NJ * n + b];
    final int nk = ints[VAR_NK * n + b];
    final int ncomp = ints[NCOMP * n + b];
    final int is = ints[IS * n + b];
    final int js = ints[JS * n + b];
    final int je = ints[JE * n + b];
    final int ks = ints[KS * n + b];
    final int ke = ints[KE * n + b];
    final int count = ints[IE * n + b] - is + 1;
    final int base = ints[VAR_OFFSET * n + b] + is;
    final double threshold = reals[SPARSE_THRESHOLD * n + b];
    int to = ints[BUFFER_OFFSET * n + b];
    int nonzero = 0;
    for (int c = 0; c < ncomp; c++) {
      for (int k = ks; k <= ke; k++) {
        int from = base + ((c * nk + k) * nj + js) * ni;
        for (int j = js; j <= je; j++) {
          copyRow(data, from, buffers, to, count);
          if (nonzero == 0) {
            nonzero = anyAtLeast(buffers, to, count, threshold);
          }
          from += ni;
          to += count;
        }
      }
    }
    return nonzero;
  }

  /**
   * Unloads boundary {@code b}: copies its buffer slice into the box, fills the box with the
   * default value, or leaves it, as {@code receiveMode[b]} says.
   */
  public static void unloadBoundary(int b, int n, int[] ints, double[] reals, int[] receiveMode,
      double[] data, double[] buffers) {
    final int mode = receiveMode[b];
    if (mode != RECEIVE_COPY && mode != RECEIVE_DEFAULT) {
      return;
    }
    final int ni = ints[VAR_NI * n + b];
    final int nj = ints[VAR_NJ * n + b];
    final int nk = ints[VAR_NK * n + b];
    final int ncomp = ints[NCOMP * n + b];
    final int is = ints[IS * n + b];
    final int js = ints[JS * n + b];
    final int je = ints[JE * n + b];
    final int ks = ints[KS * n + b];
    final int ke = ints[KE * n + b];
    final int count = ints[IE * n + b] - is + 1;
    final int base = ints[VAR_OFFSET * n + b] + is;
    final double value = reals[DEFAULT_VALUE * n + b];
    int from = ints[BUFFER_OFFSET * n + b];
    for (int c = 0; c < ncomp; c++) {
      for (int k = ks; k <= ke; k++) {
        int to = base + ((c * nk + k) * nj + js) * ni;
        for (int j = js; j <= je; j++) {
          if (mode == RECEIVE_COPY) {
            copyRow(buffers, from, data, to, count);
          } else {
            fillRow(data, to, count, value);
          }
          to += ni;
          from += count;
        }
      }
    }
  }

  /** Copies {@code count} doubles; the inner loop of load and unload. */
  public static void copyRow(double[] from, int fromPos, double[] to, int toPos, int count) {
    for (int m = 0; m < count; m++) {
      to[toPos + m] = from[fromPos + m];
    }
  }

  /** Writes {@code value} into {@code count} doubles. */
  public static void fillRow(double[] to, int toPos, int count, double value) {
    for (int m = 0; m < count; m++) {
      to[toPos + m] = value;
    }
  }

  /**
   * Returns 1 when some |a[pos + m]| is at least {@code threshold} (Parthenon's test for sending a
   * sparse field's data instead of a null message), else 0.
   */
  public static int anyAtLeast(double[] a, int pos, int count, double threshold) {
    int found = 0;
    for (int m = 0; m < count; m++) {
      if (Math.abs(a[pos + m]) >= threshold) {
        found = 1;
      }
    }
    return found;
  }
}
