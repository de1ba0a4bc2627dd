package org.metope.kernels.tornado;

import org.metope.kernels.BoundaryOp;
import org.metope.kernels.BoundaryTable;
import org.metope.kernels.RowKernels;
import uk.ac.manchester.tornado.api.annotations.Parallel;

/**
 * The TornadoVM tasks: one device thread per (subset entry, row), each calling the same row bodies
 * as the JVM backend ({@link RowKernels}), plus the gather that packs what a launch wrote. They are
 * plain static Java: {@link EmulatedDeviceBackend} runs these same methods on the JVM. Rows beyond a boundary's own row count idle, which is
 * the price of a rectangular launch over boundaries of different sizes. Everything is a primitive
 * array or an int, as TornadoVM requires.
 *
 * <p>Plain {@code double[]} and {@code int[]} are used rather than TornadoVM's off-heap
 * {@code DoubleArray}/{@code IntArray}: the OpenCL, PTX and SPIR-V backends still map Java arrays
 * to device buffers, and the arenas are ordinary Java arrays that physics and communication use on
 * the host, so wrapping them would mean a copy per launch or a second storage scheme. Should a
 * TornadoVM release drop Java arrays, only these wrappers and the arena type change; the row
 * bodies take arrays through index arithmetic and have no other dependency.
 */
public final class TornadoKernels {
  private TornadoKernels() {}

  /** Clears the non-zero flag of every subset entry before a load. */
  public static void clearFlags(int count, int[] flags) {
    for (@Parallel int s = 0; s < count; s++) {
      flags[s] = 0;
    }
  }

  /**
   * Loads every row of every allocated boundary of the subset; {@code flags[s]} becomes 1 when a
   * value of subset entry s reached its sparse threshold (the host copies it to the table's
   * {@code nonzero}).
   */
  public static void load(int[] subset, int count, int maxRows, int n, int[] ints,
      double[] reals, int[] allocated, int[] flags, double[] data, double[] buffers) {
    for (@Parallel int s = 0; s < count; s++) {
      for (@Parallel int r = 0; r < maxRows; r++) {
        final int b = subset[s];
        if (allocated[b] != 0 && r < ints[BoundaryTable.ROWS * n + b]) {
          if (RowKernels.loadRow(b, r, n, ints, reals, data, buffers) != 0) {
            flags[s] = 1;
          }
        }
      }
    }
  }

  /** Unloads every row of every boundary of the subset as its receive mode says. */
  public static void unload(int[] subset, int count, int maxRows, int n, int[] ints,
      double[] reals, int[] receiveMode, double[] data, double[] buffers) {
    for (@Parallel int s = 0; s < count; s++) {
      for (@Parallel int r = 0; r < maxRows; r++) {
        final int b = subset[s];
        if (r < ints[BoundaryTable.ROWS * n + b]) {
          RowKernels.unloadRow(b, r, n, ints, reals, receiveMode, data, buffers);
        }
      }
    }
  }

  /** Prolongates every row of every allocated PROLONGATE boundary of the subset. */
  public static void prolongate(int[] subset, int count, int maxRows, int n, int[] ints,
      double[] reals, int[] allocated, double[] data) {
    for (@Parallel int s = 0; s < count; s++) {
      for (@Parallel int r = 0; r < maxRows; r++) {
        final int b = subset[s];
        if (allocated[b] != 0 && r < ints[BoundaryTable.ROWS * n + b]
            && ints[BoundaryTable.OP * n + b] == BoundaryOp.PROLONGATE) {
          RowKernels.prolongateRow(b, r, n, ints, reals, data);
        }
      }
    }
  }

  /**
   * Restricts every row of every allocated RESTRICT boundary of the subset. (Not named "restrict": TornadoVM emits the method name
   * as the OpenCL kernel name, and {@code restrict} is a C keyword.)
   */
  public static void restrictRows(int[] subset, int count, int maxRows, int n, int[] ints,
      double[] reals, int[] allocated, double[] data) {
    for (@Parallel int s = 0; s < count; s++) {
      for (@Parallel int r = 0; r < maxRows; r++) {
        final int b = subset[s];
        final int code = ints[BoundaryTable.OP * n + b];
        if (allocated[b] != 0 && r < ints[BoundaryTable.ROWS * n + b]
            && code == BoundaryOp.RESTRICT) {
          RowKernels.restrictRow(b, r, n, ints, reals, data);
        }
      }
    }
  }

  /**
   * Copies each run of {@code source} into the staging array ({@link WrittenRegions}): the cells a
   * launch wrote, packed, so that only they travel back to the host.
   */
  public static void gather(int runCount, int[] runs, double[] source, double[] staging) {
    for (@Parallel int q = 0; q < runCount; q++) {
      final int from = runs[WrittenRegions.START * runCount + q];
      final int length = runs[WrittenRegions.LENGTH * runCount + q];
      final int to = runs[WrittenRegions.STAGING * runCount + q];
      for (int m = 0; m < length; m++) {
        staging[to + m] = source[from + m];
      }
    }
  }

  /**
   * The inverse of {@link #gather}: copies each packed run of {@code staging} to its place in
   * {@code target} (a resident unload's received region, from the host).
   */
  public static void scatter(int runCount, int[] runs, double[] staging, double[] target) {
    for (@Parallel int q = 0; q < runCount; q++) {
      final int to = runs[WrittenRegions.START * runCount + q];
      final int length = runs[WrittenRegions.LENGTH * runCount + q];
      final int from = runs[WrittenRegions.STAGING * runCount + q];
      for (int m = 0; m < length; m++) {
        target[to + m] = staging[from + m];
      }
    }
  }

  /**
   * Changes nothing: the task of a resident graph that only moves its arenas (a graph needs a
   * task, and every graph names both arenas so that the device buffers pass from graph to graph).
   * It writes each arena's first value back in place because TornadoVM copies an array back to
   * the host only when a task of the graph writes it (with a write under a condition its
   * compiler proves false, a graph brought nothing back).
   */
  public static void keep(double[] data, double[] buffers) {
    data[0] = data[0];
    buffers[0] = buffers[0];
  }
}
