package org.metope.kernels;

import static org.metope.kernels.BoundaryTable.CELLS;
import static org.metope.kernels.BoundaryTable.OP;
import static org.metope.kernels.BoundaryTable.ROWS;

/**
 * The default backend: each launch is one parallel loop over the boundaries of a subset, split
 * statically over a fixed pool of threads created once. Thread p takes the boundaries whose
 * cumulative work (cells plus rows, in subset order) starts in the p-th equal share, so threads get
 * similar amounts of data whatever the mix of faces, edges and corners.
 *
 * <p>Every output value is computed by exactly one boundary from inputs no launch of the same call
 * writes, so the results are the same bits for any thread count; 1 thread is the reference. A
 * launch allocates nothing: its arguments go into fields, and the pool's handshake publishes them.
 */
public final class JvmKernelBackend implements KernelBackend {
  private final int threads;
  private final WorkerPool pool;
  private final WorkerPool.Part part = this::runPart;
  private final long[] launches = new long[KernelKind.values().length];

  private KernelKind kind;
  private BoundaryTable table;
  private int[] subset;
  private int count;
  private double[] data;
  private double[] buffers;
  private long totalWork;

  /** A backend running launches on {@code threads} threads (the caller included). */
  public JvmKernelBackend(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1: threads=" + threads);
    }
    this.threads = threads;
    this.pool = threads == 1 ? null : new WorkerPool(threads, "metope-kernels");
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
  public void fluxCorrect(BoundaryTable table, int[] subset, int count, double[] fluxes) {
    launch(KernelKind.FLUX_CORRECT, table, subset, count, fluxes, null);
  }

  @Override
  public long launches(KernelKind which) {
    synchronized (this) {
      return launches[which.ordinal()];
    }
  }

  @Override
  public void close() {
    if (pool != null) {
      pool.close();
    }
  }

  private synchronized void launch(KernelKind launchKind, BoundaryTable launchTable,
      int[] launchSubset, int launchCount, double[] launchData, double[] launchBuffers) {
    if (launchCount < 0 || launchCount > launchSubset.length) {
      throw new IllegalArgumentException("count outside subset: count=" + launchCount
          + " subset.length=" + launchSubset.length);
    }
    launches[launchKind.ordinal()]++;
    if (launchCount == 0) {
      return;
    }
    kind = launchKind;
    table = launchTable;
    subset = launchSubset;
    count = launchCount;
    data = launchData;
    buffers = launchBuffers;
    if (pool == null) {
      runPart(0, 1);
    } else {
      totalWork = work(launchTable, launchSubset, launchCount);
      pool.run(part);
    }
    table = null;
    subset = null;
    data = null;
    buffers = null;
  }

  private static long work(BoundaryTable t, int[] s, int n) {
    long sum = 0;
    for (int i = 0; i < n; i++) {
      sum += weight(t, s[i]);
    }
    return sum;
  }

  private static int weight(BoundaryTable t, int b) {
    return t.ints[CELLS * t.size + b] + t.ints[ROWS * t.size + b];
  }

  /** Runs share {@code p} of {@code parts} of the current launch. */
  private void runPart(int p, int parts) {
    final BoundaryTable t = table;
    final int[] s = subset;
    final int n = count;
    if (parts == 1) {
      for (int i = 0; i < n; i++) {
        runBoundary(t, s[i]);
      }
      return;
    }
    final long lo = totalWork * p / parts;
    final long hi = totalWork * (p + 1) / parts;
    long start = 0;
    for (int i = 0; i < n && start < hi; i++) {
      final int b = s[i];
      if (start >= lo) {
        runBoundary(t, b);
      }
      start += weight(t, b);
    }
  }

  private void runBoundary(BoundaryTable t, int b) {
    final int n = t.size;
    final int[] ints = t.ints;
    switch (kind) {
      case LOAD:
        t.nonzero[b] = t.allocated[b] == 0
            ? 0
            : BufferKernels.loadBoundary(b, n, ints, t.reals, data, buffers);
        break;
      case UNLOAD:
        BufferKernels.unloadBoundary(b, n, ints, t.reals, t.receiveMode, data, buffers);
        break;
      case PROLONGATE:
        if (t.allocated[b] != 0 && ints[OP * n + b] == BoundaryOp.PROLONGATE) {
          RefinementKernels.prolongateBoundary(b, n, ints, t.reals, data);
        }
        break;
      case RESTRICT:
        if (t.allocated[b] != 0 && ints[OP * n + b] == BoundaryOp.RESTRICT) {
          RefinementKernels.restrictBoundary(b, n, ints, t.reals, data, null, false);
        }
        break;
      case FLUX_CORRECT:
        if (t.allocated[b] != 0 && BoundaryOp.isFlux(ints[OP * n + b])) {
          RefinementKernels.restrictBoundary(b, n, ints, t.reals, data, null, false);
        }
        break;
      default:
        throw new IllegalStateException("unknown kernel kind: kind=" + kind);
    }
  }
}
