package org.metope.kernels.tornado;

import org.metope.kernels.body.RowKernels;
import org.metope.kernels.body.StageLaunch;
import org.metope.kernels.body.TagLaunch;
import uk.ac.manchester.tornado.api.annotations.Parallel;

/**
 * The tasks of the resident TornadoVM backend's fixed task graphs (one graph per kernel kind, see
 * {@link TornadoResident}): every size and offset of a launch is read from its {@code args} array
 * and the {@link LaunchTables} on the device, never passed as a scalar, because TornadoVM compiles
 * a task's scalar arguments into the kernel as constants; so one compiled kernel per kind serves
 * every launch of that kind, before and after a remesh. Each calls the same row bodies as the JVM
 * backend ({@link RowKernels}; {@link StageLaunch}'s row helpers, which call {@link
 * org.metope.kernels.body.StageKernels}; {@link TagLaunch}'s, which call {@link
 * org.metope.kernels.body.TagKernels}): a stage launcher runs one device thread per (entry, k, j)
 * row (per entry for a weighted sum, the physical boundaries, and a measure), rows
 * past an entry's own extent idle. Plain static Java over primitive arrays: {@code
 * EmulatedDeviceBackend} runs the stage and measure launchers on its device copies ({@link #run},
 * {@link #measure}, a launch's own tables standing for the launch tables with {@code ENTRY = 0})
 * and {@code LaunchTablesTest} runs them on the JVM. A bound is read into a local before its loop
 * so that the loop stays a counted parallel loop.
 */
public final class ResidentTasks {
  private ResidentTasks() {}

  /**
   * Changes nothing: the task of a graph that only moves arrays (a graph needs a task). It writes
   * the first value of each array back in place because TornadoVM copies an array back to the host
   * only when a task of the graph writes it.
   */
  public static void keep(double[] data, double[] buffers, int[] ints, double[] reals,
      int[] launches, double[] launchReals) {
    data[0] = data[0];
    buffers[0] = buffers[0];
    ints[0] = ints[0];
    reals[0] = reals[0];
    launches[0] = launches[0];
    launchReals[0] = launchReals[0];
  }

  /** Clears the non-zero flag of every entry of a load. */
  public static void clearFlags(int[] args, int[] flags) {
    final int count = args[LaunchTables.COUNT];
    for (@Parallel int s = 0; s < count; s++) {
      flags[s] = 0;
    }
  }

  /**
   * {@link TornadoKernels#load} of the launch {@code args} describe: boundary {@code
   * launches[SUBSET + s]} of the column tables, whether it is allocated in {@code step[s]}.
   */
  public static void load(int[] args, int[] launches, int[] ints, double[] reals, int[] step,
      int[] flags, double[] data, double[] buffers) {
    final int count = args[LaunchTables.COUNT];
    final int maxRows = args[LaunchTables.ROWS];
    final int n = args[LaunchTables.N];
    final int at = args[LaunchTables.SUBSET];
    for (@Parallel int s = 0; s < count; s++) {
      for (@Parallel int r = 0; r < maxRows; r++) {
        TornadoKernels.loadEntryRow(s, launches[at + s], r, n, ints, reals, step[s], flags,
            data, buffers);
      }
    }
  }

  /** {@link TornadoKernels#unload}, the receive mode of entry s in {@code step[s]}. */
  public static void unload(int[] args, int[] launches, int[] ints, double[] reals, int[] step,
      double[] data, double[] buffers) {
    final int count = args[LaunchTables.COUNT];
    final int maxRows = args[LaunchTables.ROWS];
    final int n = args[LaunchTables.N];
    final int at = args[LaunchTables.SUBSET];
    for (@Parallel int s = 0; s < count; s++) {
      for (@Parallel int r = 0; r < maxRows; r++) {
        TornadoKernels.unloadEntryRow(launches[at + s], r, n, ints, reals, step[s], data,
            buffers);
      }
    }
  }

  /** {@link TornadoKernels#prolongate}, allocation in {@code step[s]}. */
  public static void prolongate(int[] args, int[] launches, int[] ints, double[] reals,
      int[] step, double[] data) {
    final int count = args[LaunchTables.COUNT];
    final int maxRows = args[LaunchTables.ROWS];
    final int n = args[LaunchTables.N];
    final int at = args[LaunchTables.SUBSET];
    for (@Parallel int s = 0; s < count; s++) {
      for (@Parallel int r = 0; r < maxRows; r++) {
        TornadoKernels.prolongateEntryRow(launches[at + s], r, n, ints, reals, step[s], data);
      }
    }
  }

  /** {@link TornadoKernels#restrictRows}, allocation in {@code step[s]}. */
  public static void restrictRows(int[] args, int[] launches, int[] ints, double[] reals,
      int[] step, double[] data) {
    final int count = args[LaunchTables.COUNT];
    final int maxRows = args[LaunchTables.ROWS];
    final int n = args[LaunchTables.N];
    final int at = args[LaunchTables.SUBSET];
    for (@Parallel int s = 0; s < count; s++) {
      for (@Parallel int r = 0; r < maxRows; r++) {
        TornadoKernels.restrictEntryRow(launches[at + s], r, n, ints, reals, step[s], data);
      }
    }
  }

  /**
   * {@link TornadoKernels#gather} over the runs at {@code launches[RUNS]} ({@link
   * WrittenRegions}' layout, {@code args[RUN_COUNT]} runs).
   */
  public static void gather(int[] args, int[] launches, double[] source, double[] staging) {
    final int runCount = args[LaunchTables.RUN_COUNT];
    final int at = args[LaunchTables.RUNS];
    for (@Parallel int q = 0; q < runCount; q++) {
      TornadoKernels.copyRun(launches, at, runCount, q, WrittenRegions.START, source,
          WrittenRegions.STAGING, staging);
    }
  }

  /** The inverse of {@link #gather}: the packed runs of {@code staging} to their places. */
  public static void scatter(int[] args, int[] launches, double[] staging, double[] target) {
    final int runCount = args[LaunchTables.RUN_COUNT];
    final int at = args[LaunchTables.RUNS];
    for (@Parallel int q = 0; q < runCount; q++) {
      TornadoKernels.copyRun(launches, at, runCount, q, WrittenRegions.STAGING, staging,
          WrittenRegions.START, target);
    }
  }

  /** {@link StageLaunch.Kind#DIVERGENCE} of entries {@code ENTRY ..} of the launch tables. */
  public static void divergence(int[] args, int[] launches, double[] launchReals, double[] a) {
    final int first = args[LaunchTables.ENTRY];
    final int count = args[LaunchTables.COUNT];
    final int maxK = args[LaunchTables.MAX_K];
    final int maxJ = args[LaunchTables.MAX_J];
    for (@Parallel int e = 0; e < count; e++) {
      for (@Parallel int k = 0; k < maxK; k++) {
        for (@Parallel int j = 0; j < maxJ; j++) {
          StageLaunch.divergenceRow(launches, launchReals, first + e, k, j, a);
        }
      }
    }
  }

  /**
   * {@link StageLaunch.Kind#WEIGHTED_SUM} of entries {@code ENTRY ..}, the weights in {@code
   * w[0]} and {@code w[1]} (a scalar would be compiled in).
   */
  public static void weightedSum(int[] args, int[] launches, double[] w, double[] a) {
    final int first = args[LaunchTables.ENTRY];
    final int count = args[LaunchTables.COUNT];
    for (@Parallel int e = 0; e < count; e++) {
      StageLaunch.weightedSum(launches, first + e, 0, 0, a, w[0], w[1]);
    }
  }

  /**
   * {@link StageLaunch.Kind#PHYSICAL_BOUNDARY} of entries {@code ENTRY ..} of the launch tables,
   * each entry's faces in order.
   */
  public static void physicalBoundary(int[] args, int[] launches, double[] a) {
    final int first = args[LaunchTables.ENTRY];
    final int count = args[LaunchTables.COUNT];
    for (@Parallel int e = 0; e < count; e++) {
      StageLaunch.physicalBoundary(launches, first + e, 0, 0, a);
    }
  }

  /** {@link TagLaunch.Kind#MIN_MAX} of entries {@code ENTRY ..}, entry e's range at {@code 2e}. */
  public static void minMax(int[] args, int[] launches, double[] a, double[] results) {
    final int first = args[LaunchTables.ENTRY];
    final int count = args[LaunchTables.COUNT];
    for (@Parallel int e = 0; e < count; e++) {
      TagLaunch.minMax(launches, first + e, a, results, e);
    }
  }

  /** {@link TagLaunch.Kind#BOX} of entries {@code ENTRY ..}, entry e's measure at {@code e}. */
  public static void box(int[] args, int[] launches, double[] a, double[] results) {
    final int first = args[LaunchTables.ENTRY];
    final int count = args[LaunchTables.COUNT];
    for (@Parallel int e = 0; e < count; e++) {
      TagLaunch.box(launches, first + e, a, results, e);
    }
  }

  /**
   * A CELLS launch of entries {@code ENTRY ..} of the launch tables: one thread per (entry, k, j)
   * row, running {@code launch.body} on each index of the row. Only a device that can call the
   * body runs it (the emulated one); TornadoVM compiles only the static launchers above, so its
   * backend runs CELLS launches on the host copy ({@link DeviceBackend#runsCellBodies}).
   */
  static void cells(StageLaunch launch, int[] args, int[] launches, double[] launchReals,
      double[] a) {
    final int first = args[LaunchTables.ENTRY];
    final int count = args[LaunchTables.COUNT];
    final int maxK = args[LaunchTables.MAX_K];
    final int maxJ = args[LaunchTables.MAX_J];
    for (int e = 0; e < count; e++) {
      for (int k = 0; k < maxK; k++) {
        for (int j = 0; j < maxJ; j++) {
          StageLaunch.cellsRow(launch.body, launch.width, launch.realWidth, launches,
              launchReals, first + e, k, j, a);
        }
      }
    }
  }

  /**
   * A reduction launch (CELLS_MINIMUM, CELLS_MAXIMUM, CELLS_SUM) of entries {@code ENTRY ..}:
   * one thread per entry (block), entry e's value at {@code e}; run as {@link #cells} is.
   */
  static void cellsReduction(StageLaunch launch, int[] args, int[] launches,
      double[] launchReals, double[] a, double[] results) {
    final int first = args[LaunchTables.ENTRY];
    final int count = args[LaunchTables.COUNT];
    for (int e = 0; e < count; e++) {
      results[e] = StageLaunch.blockReduction(launch.kind, launch.measure, launch.width,
          launch.realWidth, launches, launchReals, first + e, a);
    }
  }

  /**
   * Runs stage launch {@code launch} of the launch tables {@code launches} and {@code
   * launchReals} on {@code a} with these launchers (as the device runs them), {@code args} from
   * {@link LaunchTables#entryArgs}; the weights of a weighted sum in {@code w}, a reduction's
   * results into {@code results}.
   */
  static void run(StageLaunch launch, int[] args, int[] launches, double[] launchReals,
      double[] a, double[] w, double[] results) {
    switch (launch.kind) {
      case DIVERGENCE -> divergence(args, launches, launchReals, a);
      case WEIGHTED_SUM -> weightedSum(args, launches, w, a);
      case PHYSICAL_BOUNDARY -> physicalBoundary(args, launches, a);
      case CELLS -> cells(launch, args, launches, launchReals, a);
      case CELLS_MINIMUM, CELLS_MAXIMUM, CELLS_SUM ->
          cellsReduction(launch, args, launches, launchReals, a, results);
      default -> throw new IllegalStateException("unknown stage kind: " + launch.kind);
    }
  }

  /** Runs tag launch {@code launch} of {@code launches} on {@code a} into {@code results}. */
  static void measure(TagLaunch launch, int[] args, int[] launches, double[] a,
      double[] results) {
    switch (launch.kind) {
      case MIN_MAX -> minMax(args, launches, a, results);
      case BOX -> box(args, launches, a, results);
      default -> throw new IllegalStateException("unknown tag kind: " + launch.kind);
    }
  }
}
