package org.metope.kernels;

import static org.metope.kernels.table.BoundaryTable.CELLS;
import static org.metope.kernels.table.BoundaryTable.OP;
import static org.metope.kernels.table.BoundaryTable.ROWS;

import java.util.concurrent.atomic.AtomicLongArray;
import org.metope.kernels.body.BufferKernels;
import org.metope.kernels.body.ElementRefinementKernels;
import org.metope.kernels.body.RefinementKernels;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;

/**
 * The default backend: each launch is one parallel loop over the boundaries of a subset, on a
 * fixed pool of threads created once. The subset is cut into {@value #PARTS_PER_THREAD} parts per
 * thread of equal work (cells plus rows, in subset order), so parts carry similar amounts of data
 * whatever the mix of faces, edges and corners; threads claim parts as they come (see {@link
 * WorkerPool}).
 *
 * <p>Each output value is written by one boundary, from inputs that the same launch does not
 * write, so the results are the same bits for any thread count and any assignment of parts to
 * threads; 1 thread is the reference. A launch allocates nothing: its arguments go into fields,
 * and the pool's handshake publishes them.
 */
public final class JvmKernelBackend implements KernelBackend {
  /** Parts per thread: enough to even out a thread that starts late, few enough to stay cheap. */
  static final int PARTS_PER_THREAD = 4;

  private final int threads;
  private final WorkerPool pool;
  private final WorkerPool.Part part = this::runPart;
  private final AtomicLongArray launches = new AtomicLongArray(KernelKind.values().length);
  private final int[] partStart;

  private KernelKind kind;
  private BoundaryTable table;
  private int[] subset;
  private double[] data;
  private double[] buffers;

  /** A backend running launches on {@code threads} threads (the caller included). */
  public JvmKernelBackend(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1: threads=" + threads);
    }
    this.threads = threads;
    this.pool = threads == 1
        ? null
        : new WorkerPool(threads, PARTS_PER_THREAD * threads, "metope-kernels");
    this.partStart = new int[pool == null ? 0 : pool.parts() + 1];
  }

  @Override
  public String name() {
    return "jvm";
  }

  @Override
  public int threads() {
    return threads;
  }

  @Override
  public void load(BoundaryTable table, int[] subset, int count, double[] data,
      double[] buffers) {
    launch(KernelKind.LOAD, table, subset, count, data, buffers);
  }

  @Override
  public void unload(BoundaryTable table, int[] subset, int count, double[] data,
      double[] buffers) {
    launch(KernelKind.UNLOAD, table, subset, count, data, buffers);
  }

  @Override
  public void prolongate(BoundaryTable table, int[] subset, int count, double[] data) {
    launch(KernelKind.PROLONGATE, table, subset, count, data, null);
  }

  @Override
  public void restrictBlocks(BoundaryTable table, int[] subset, int count, double[] data) {
    launch(KernelKind.RESTRICT, table, subset, count, data, null);
  }

  @Override
  public long launches(KernelKind which) {
    return launches.get(which.ordinal());
  }

  @Override
  public void close() {
    if (pool != null) {
      pool.close();
    }
  }

  /**
   * One launch. With one thread it runs on the caller with its own arguments, so task threads of
   * different partitions launch concurrently; with a pool, launches take turns, since the pool's
   * workers read the launch from this object's fields.
   */
  private void launch(KernelKind launchKind, BoundaryTable launchTable, int[] launchSubset,
      int launchCount, double[] launchData, double[] launchBuffers) {
    if (launchCount < 0 || launchCount > launchSubset.length) {
      throw new IllegalArgumentException("count outside subset: count=" + launchCount
          + " subset.length=" + launchSubset.length);
    }
    launches.incrementAndGet(launchKind.ordinal());
    if (launchCount == 0) {
      return;
    }
    if (pool == null) {
      run(launchKind, launchTable, launchSubset, 0, launchCount, launchData, launchBuffers);
      return;
    }
    synchronized (this) {
      kind = launchKind;
      table = launchTable;
      subset = launchSubset;
      data = launchData;
      buffers = launchBuffers;
      split(launchTable, launchSubset, launchCount, pool.parts());
      pool.run(part);
      table = null;
      subset = null;
      data = null;
      buffers = null;
    }
  }

  /**
   * Cuts {@code subset[0..n)} into {@code parts} runs of about equal work: part p holds the
   * boundaries from the first whose cumulative work reaches {@code total * p / parts}.
   */
  private void split(BoundaryTable t, int[] s, int n, int parts) {
    long total = 0;
    for (int i = 0; i < n; i++) {
      total += weight(t, s[i]);
    }
    int i = 0;
    long start = 0;
    for (int p = 0; p < parts; p++) {
      final long target = total * p / parts;
      while (i < n && start < target) {
        start += weight(t, s[i]);
        i++;
      }
      partStart[p] = i;
    }
    partStart[parts] = n;
  }

  private static int weight(BoundaryTable t, int b) {
    return t.ints[CELLS * t.size + b] + t.ints[ROWS * t.size + b];
  }

  /** Runs part {@code p} of the current launch: subset entries partStart[p] to partStart[p+1]. */
  private void runPart(int p, int parts) {
    run(kind, table, subset, partStart[p], partStart[p + 1], data, buffers);
  }

  /**
   * Runs {@code subset[from..to)} with the kernel of {@code kind}. Each kind's loop is a method of
   * its own, so the JIT compiles a kind's loop when that kind gets hot and never recompiles it
   * when another kind first runs (one loop over a switch inlined every body into one large method,
   * compiled again as each kind appeared).
   */
  private static void run(KernelKind kind, BoundaryTable t, int[] s, int from, int to,
      double[] data, double[] buffers) {
    switch (kind) {
      case LOAD:
        loads(t, s, from, to, data, buffers);
        break;
      case UNLOAD:
        unloads(t, s, from, to, data, buffers);
        break;
      case PROLONGATE:
        prolongations(t, s, from, to, data);
        break;
      case RESTRICT:
        restrictions(t, s, from, to, data);
        break;
      default:
        throw new IllegalStateException("unknown kernel kind: kind=" + kind);
    }
  }

  private static void loads(BoundaryTable t, int[] s, int from, int to, double[] data,
      double[] buffers) {
    final int n = t.size;
    final int[] ints = t.ints;
    final double[] reals = t.reals;
    final int[] allocated = t.allocated;
    final int[] nonzero = t.nonzero;
    for (int i = from; i < to; i++) {
      final int b = s[i];
      nonzero[b] = allocated[b] == 0
          ? 0
          : BufferKernels.loadBoundary(b, n, ints, reals, data, buffers);
    }
  }

  private static void unloads(BoundaryTable t, int[] s, int from, int to, double[] data,
      double[] buffers) {
    final int n = t.size;
    final int[] ints = t.ints;
    final double[] reals = t.reals;
    final int[] receiveMode = t.receiveMode;
    for (int i = from; i < to; i++) {
      BufferKernels.unloadBoundary(s[i], n, ints, reals, receiveMode, data, buffers);
    }
  }

  private static void prolongations(BoundaryTable t, int[] s, int from, int to, double[] data) {
    final int n = t.size;
    final int[] ints = t.ints;
    final double[] reals = t.reals;
    final int[] allocated = t.allocated;
    for (int i = from; i < to; i++) {
      final int b = s[i];
      if (allocated[b] != 0 && ints[OP * n + b] == BoundaryOp.PROLONGATE) {
        RefinementKernels.prolongateBoundary(b, n, ints, reals, data);
      } else if (allocated[b] != 0 && BoundaryOp.isInternal(ints[OP * n + b])) {
        ElementRefinementKernels.prolongate(b, n, ints, reals, data);
      }
    }
  }

  private static void restrictions(BoundaryTable t, int[] s, int from, int to, double[] data) {
    final int n = t.size;
    final int[] ints = t.ints;
    final double[] reals = t.reals;
    final int[] allocated = t.allocated;
    for (int i = from; i < to; i++) {
      final int b = s[i];
      if (allocated[b] != 0 && ints[OP * n + b] == BoundaryOp.RESTRICT) {
        RefinementKernels.restrictBoundary(b, n, ints, reals, data, null, false);
      }
    }
  }
}
