package org.metope.kernels.tornado;

import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;
import org.metope.kernels.body.RowKernels;
import uk.ac.manchester.tornado.api.annotations.Parallel;

/**
 * The TornadoVM tasks: one device thread per (subset entry, row), each calling the same row bodies
 * as the JVM backend ({@link RowKernels}), plus the gather that packs what a launch wrote. They are
 * plain static Java: {@code EmulatedDeviceBackend} runs these same methods on the JVM. Rows beyond
 * a boundary's own row count idle, which is
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
        loadEntryRow(s, b, r, n, ints, reals, allocated[b], flags, data, buffers);
      }
    }
  }

  /** Unloads every row of every boundary of the subset as its receive mode says. */
  public static void unload(int[] subset, int count, int maxRows, int n, int[] ints,
      double[] reals, int[] receiveMode, double[] data, double[] buffers) {
    for (@Parallel int s = 0; s < count; s++) {
      for (@Parallel int r = 0; r < maxRows; r++) {
        final int b = subset[s];
        unloadEntryRow(b, r, n, ints, reals, receiveMode[b], data, buffers);
      }
    }
  }

  /** Prolongates every row of every allocated PROLONGATE boundary of the subset. */
  public static void prolongate(int[] subset, int count, int maxRows, int n, int[] ints,
      double[] reals, int[] allocated, double[] data) {
    for (@Parallel int s = 0; s < count; s++) {
      for (@Parallel int r = 0; r < maxRows; r++) {
        final int b = subset[s];
        prolongateEntryRow(b, r, n, ints, reals, allocated[b], data);
      }
    }
  }

  /**
   * Restricts every row of every allocated RESTRICT boundary of the subset. (Not named "restrict":
   * TornadoVM emits the method name
   * as the OpenCL kernel name, and {@code restrict} is a C keyword.)
   */
  public static void restrictRows(int[] subset, int count, int maxRows, int n, int[] ints,
      double[] reals, int[] allocated, double[] data) {
    for (@Parallel int s = 0; s < count; s++) {
      for (@Parallel int r = 0; r < maxRows; r++) {
        final int b = subset[s];
        restrictEntryRow(b, r, n, ints, reals, allocated[b], data);
      }
    }
  }

  /**
   * Copies each run of {@code source} into the staging array ({@link WrittenRegions}): the cells a
   * launch wrote, packed, so that only they travel back to the host.
   */
  public static void gather(int runCount, int[] runs, double[] source, double[] staging) {
    for (@Parallel int q = 0; q < runCount; q++) {
      copyRun(runs, 0, runCount, q, WrittenRegions.START, source, WrittenRegions.STAGING,
          staging);
    }
  }

  /**
   * Row r of subset entry s (boundary b) of a load, if the boundary is allocated and has the
   * row: the body {@link #load} and {@link ResidentTasks#load} share.
   */
  static void loadEntryRow(int s, int b, int r, int n, int[] ints, double[] reals,
      int allocated, int[] flags, double[] data, double[] buffers) {
    if (allocated != 0 && r < ints[BoundaryTable.ROWS * n + b]) {
      if (RowKernels.loadRow(b, r, n, ints, reals, data, buffers) != 0) {
        flags[s] = 1;
      }
    }
  }

  /** Row r of boundary b of an unload with receive mode {@code mode}, if it has the row. */
  static void unloadEntryRow(int b, int r, int n, int[] ints, double[] reals, int mode,
      double[] data, double[] buffers) {
    if (r < ints[BoundaryTable.ROWS * n + b]) {
      RowKernels.unloadRow(b, r, n, ints, reals, mode, data, buffers);
    }
  }

  /** Row r of boundary b of a prolongation, if it is an allocated PROLONGATE boundary. */
  static void prolongateEntryRow(int b, int r, int n, int[] ints, double[] reals,
      int allocated, double[] data) {
    if (allocated != 0 && r < ints[BoundaryTable.ROWS * n + b]
        && ints[BoundaryTable.OP * n + b] == BoundaryOp.PROLONGATE) {
      RowKernels.prolongateRow(b, r, n, ints, reals, data);
    }
  }

  /** Row r of boundary b of a restriction, if it is an allocated RESTRICT boundary. */
  static void restrictEntryRow(int b, int r, int n, int[] ints, double[] reals, int allocated,
      double[] data) {
    final int code = ints[BoundaryTable.OP * n + b];
    if (allocated != 0 && r < ints[BoundaryTable.ROWS * n + b]
        && code == BoundaryOp.RESTRICT) {
      RowKernels.restrictRow(b, r, n, ints, reals, data);
    }
  }

  /**
   * Copies run q of the {@code runCount} runs at {@code runs[at ..]} ({@link WrittenRegions}'
   * layout) from {@code from[runs[fromColumn]]} to {@code to[runs[toColumn]]}: a gather reads at
   * START and writes at STAGING, a scatter the other way round.
   */
  static void copyRun(int[] runs, int at, int runCount, int q, int fromColumn, double[] from,
      int toColumn, double[] to) {
    final int source = runs[at + fromColumn * runCount + q];
    final int length = runs[at + WrittenRegions.LENGTH * runCount + q];
    final int target = runs[at + toColumn * runCount + q];
    for (int m = 0; m < length; m++) {
      to[target + m] = from[source + m];
    }
  }
}
