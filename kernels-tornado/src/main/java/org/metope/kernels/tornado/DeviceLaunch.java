package org.metope.kernels.tornado;

import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;
import org.metope.kernels.KernelKind;

/**
 * One kind of launch over one subset of a table with given arenas, as a device runs it: declared
 * once ({@link #declare}), executed at every launch, then scattered on the host ({@link
 * #scatter}).
 *
 * <p>The rule that keeps a device launch safe while other task threads and the communicator
 * write the same arenas: the device writes back nothing but arrays this object owns. The kernel
 * writes its device copy of an arena, {@link TornadoKernels#gather} packs the cells it may have
 * written ({@link WrittenRegions}) into {@link #staging}, and only the staging array (and the
 * per-entry load flags) cross back; {@link #scatter} then copies the runs of the boundaries that
 * were written into the host arena, and nothing else. The host arrays are only read by a launch,
 * whole, when it starts.
 *
 * <p>The table's columns travel once per declaration; a declaration whose {@link
 * #columnsVersion} is behind the table's is stale and must be declared again ({@link
 * DeviceBackend} does that), which uploads the columns and recomputes the runs.
 */
final class DeviceLaunch {
  final KernelKind kind;
  final BoundaryTable table;
  final int[] subset;
  final int count;
  final double[] data;
  final double[] buffers;
  /** The table's columns version this declaration was made from. */
  final int columnsVersion;
  final WrittenRegions regions;
  /** Device output: the written runs, packed; at least one entry. */
  final double[] staging;
  /** Device output of a load: 1 where subset entry s reached its threshold; at least one entry. */
  final int[] flags;
  private final int maxRows;
  /** Bytes the declaration sends once, at every execution, and back at every execution. */
  final long firstBytes;
  final long everyBytes;
  final long backBytes;
  /** Whether the declaration has been executed: its first-execution transfers are done. */
  boolean executed;

  DeviceLaunch(KernelKind kind, BoundaryTable table, int[] subset, int count, double[] data,
      double[] buffers) {
    this.kind = kind;
    this.table = table;
    this.subset = subset;
    this.count = count;
    this.data = data;
    this.buffers = buffers;
    this.columnsVersion = table.columnsVersion();
    this.regions = WrittenRegions.of(kind, table, subset, count);
    this.staging = new double[Math.max(1, regions.stagingLength)];
    this.flags = new int[Math.max(1, count)];
    int rows = 0;
    for (int s = 0; s < count; s++) {
      rows = Math.max(rows, table.get(BoundaryTable.ROWS, subset[s]));
    }
    this.maxRows = rows;
    Sizes sizes = new Sizes();
    declare(sizes);
    this.firstBytes = sizes.first;
    this.everyBytes = sizes.every;
    this.backBytes = sizes.back;
  }

  /** Whether this declaration is for these arguments. */
  boolean isFor(KernelKind k, int[] s, int n, double[] d, double[] b) {
    return kind == k && subset == s && count == n && data == d && buffers == b;
  }

  /** Whether the table's columns changed since this declaration. */
  boolean isStale() {
    return columnsVersion != table.columnsVersion();
  }

  /** The arena the kernel writes and {@link #scatter} fills. */
  double[] target() {
    return kind == KernelKind.LOAD ? buffers : data;
  }

  /** Declares the launch: transfers, tasks, transfers back. Both engines follow this. */
  void declare(DeviceGraph g) {
    final BoundaryTable t = table;
    final int n = t.size;
    g.upload(false, subset, t.ints, t.reals, regions.runs);
    switch (kind) {
      case LOAD:
        g.upload(true, t.allocated, data, buffers);
        g.clearFlags(count, flags);
        g.load(subset, count, maxRows, n, t.ints, t.reals, t.allocated, flags, data, buffers);
        g.gather(regions.count, regions.runs, buffers, staging);
        g.download(staging, flags);
        break;
      case UNLOAD:
        g.upload(true, t.receiveMode, data, buffers);
        g.unload(subset, count, maxRows, n, t.ints, t.reals, t.receiveMode, data, buffers);
        g.gather(regions.count, regions.runs, data, staging);
        g.download(staging);
        break;
      case PROLONGATE:
        g.upload(true, t.allocated, data);
        g.prolongate(subset, count, maxRows, n, t.ints, t.reals, t.allocated, data);
        g.gather(regions.count, regions.runs, data, staging);
        g.download(staging);
        break;
      case RESTRICT:
        g.upload(true, t.allocated, data);
        g.restrictRows(subset, count, maxRows, n, t.ints, t.reals, t.allocated, data);
        g.gather(regions.count, regions.runs, data, staging);
        g.download(staging);
        break;
      default:
        throw new IllegalStateException("unknown kernel kind: kind=" + kind);
    }
  }

  /**
   * After an execution: copies each run of a boundary the kernel wrote from {@link #staging} into
   * the host arena, and a load's flags into the table's {@code nonzero}.
   */
  void scatter() {
    final double[] target = target();
    final int r = regions.count;
    final int[] runs = regions.runs;
    for (int q = 0; q < r; q++) {
      if (regions.written(table, runs[WrittenRegions.BOUNDARY * r + q])) {
        System.arraycopy(staging, runs[WrittenRegions.STAGING * r + q], target,
            runs[WrittenRegions.START * r + q], runs[WrittenRegions.LENGTH * r + q]);
      }
    }
    if (kind == KernelKind.LOAD) {
      for (int s = 0; s < count; s++) {
        table.nonzero[subset[s]] = flags[s];
      }
    }
  }

  /** Counts the bytes a declaration moves; runs no task. */
  private static final class Sizes implements DeviceGraph {
    long first;
    long every;
    long back;

    private static long bytes(Object... arrays) {
      long n = 0;
      for (Object a : arrays) {
        n += a instanceof double[] d ? 8L * d.length : 4L * ((int[]) a).length;
      }
      return n;
    }

    @Override
    public void upload(boolean everyExecution, Object... arrays) {
      if (everyExecution) {
        every += bytes(arrays);
      } else {
        first += bytes(arrays);
      }
    }

    @Override
    public void download(Object... arrays) {
      back += bytes(arrays);
    }

    @Override
    public void clearFlags(int count, int[] flags) {}

    @Override
    public void load(int[] subset, int count, int maxRows, int n, int[] ints, double[] reals,
        int[] allocated, int[] flags, double[] data, double[] buffers) {}

    @Override
    public void unload(int[] subset, int count, int maxRows, int n, int[] ints, double[] reals,
        int[] receiveMode, double[] data, double[] buffers) {}

    @Override
    public void prolongate(int[] subset, int count, int maxRows, int n, int[] ints,
        double[] reals, int[] allocated, double[] data) {}

    @Override
    public void restrictRows(int[] subset, int count, int maxRows, int n, int[] ints,
        double[] reals, int[] allocated, double[] data) {}

    @Override
    public void gather(int runCount, int[] runs, double[] source, double[] staging) {}
  }
}
