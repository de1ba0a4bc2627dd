package org.metope.tasking;

import java.util.concurrent.Phaser;
import java.util.concurrent.locks.StampedLock;

/**
 * Persistent worker threads that run the lists of a {@link TaskRegion} in parallel. The calling
 * thread is worker 0; the others wait on a phaser between regions, so running a region starts no
 * thread and allocates nothing.
 *
 * <p>A worker runs each pass over its lists inside the pool's gate (shared); {@link
 * #runExclusive} lets a task do something no other task may overlap, such as moving an array the
 * other tasks' kernels write, by waiting until every other worker has finished its current pass.
 */
public final class TaskThreadPool implements AutoCloseable {
  /**
   * The pool and worker index of the current thread while it runs a region, in a one-element
   * holder per thread, so that entering and leaving a region allocates nothing (a {@code
   * ThreadLocal.set} after {@code remove} makes a new map entry every time).
   */
  private static final ThreadLocal<WorkerSlot[]> CURRENT =
      ThreadLocal.withInitial(() -> new WorkerSlot[1]);

  private final int threads;
  private final Phaser phaser;
  private final Thread[] workers;
  private final StampedLock gate = new StampedLock();
  /** Per worker: the read stamp of the gate it holds during a pass, 0 outside passes. */
  private final long[] passStamps;
  private final WorkerSlot[] slots;
  private volatile TaskRegion region;
  private volatile TaskCollection collection;
  private volatile boolean shutdown;
  private volatile Throwable failure;

  /** Starts {@code threads - 1} daemon workers; with 1 thread everything runs on the caller. */
  public TaskThreadPool(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1: threads=" + threads);
    }
    this.threads = threads;
    this.phaser = new Phaser(threads);
    this.workers = new Thread[threads - 1];
    this.passStamps = new long[threads];
    this.slots = new WorkerSlot[threads];
    for (int w = 0; w < threads; w++) {
      slots[w] = new WorkerSlot(this, w);
    }
    for (int w = 1; w < threads; w++) {
      final int worker = w;
      Thread t = new Thread(() -> workerLoop(worker), "metope-tasks-" + w);
      t.setDaemon(true);
      workers[w - 1] = t;
      t.start();
    }
  }

  /** Number of threads, the caller included. */
  public int threads() {
    return threads;
  }

  void run(TaskRegion target, TaskCollection owner) {
    region = target;
    collection = owner;
    failure = null;
    phaser.arriveAndAwaitAdvance(); // start
    work(0);
    phaser.arriveAndAwaitAdvance(); // end
    region = null;
    collection = null;
    Throwable f = failure;
    if (f instanceof RuntimeException re) {
      throw re;
    }
    if (f instanceof Error err) {
      throw err;
    }
  }

  private void workerLoop(int worker) {
    while (true) {
      phaser.arriveAndAwaitAdvance();
      if (shutdown) {
        return;
      }
      work(worker);
      phaser.arriveAndAwaitAdvance();
    }
  }

  private void work(int worker) {
    WorkerSlot[] current = CURRENT.get();
    current[0] = slots[worker];
    try {
      if (worker < region.size()) {
        collection.runLists(region, worker, threads, this);
      }
    } catch (Throwable t) {
      region.abort();
      synchronized (this) {
        if (failure == null) {
          failure = t;
        }
      }
    } finally {
      current[0] = null;
    }
  }

  /** Enters the gate (shared) for one pass of {@code worker} over its lists. */
  void beginPass(int worker) {
    passStamps[worker] = gate.readLock();
  }

  /** Leaves the gate after a pass of {@code worker}. */
  void endPass(int worker) {
    long stamp = passStamps[worker];
    passStamps[worker] = 0;
    gate.unlockRead(stamp);
  }

  /**
   * Runs {@code action} while no other task of the current thread's pool runs: called from a task
   * on a pool thread, it leaves the gate, waits until every other worker has ended its pass (they
   * wait at their next pass until {@code action} returns), runs {@code action}, and re-enters the
   * gate; anywhere else (serial execution, set-up, a pool of one thread) it just runs {@code
   * action}. For work that moves data other tasks' kernels read or write, e.g. growing the field
   * arena when a sparse field is allocated on receive.
   *
   * <p>The other tasks must not block waiting for the caller's progress (a blocking collective
   * in a region where another list may still need to run here), or they never end their pass;
   * regional dependencies give that order (the drivers' time step reduction follows a regional
   * task).
   */
  public static void runExclusive(Runnable action) {
    WorkerSlot slot = CURRENT.get()[0];
    if (slot == null || slot.pool.threads == 1 || slot.pool.passStamps[slot.worker] == 0) {
      action.run();
      return;
    }
    TaskThreadPool pool = slot.pool;
    pool.gate.unlockRead(pool.passStamps[slot.worker]);
    long write = pool.gate.writeLock();
    try {
      action.run();
    } finally {
      pool.passStamps[slot.worker] = pool.gate.tryConvertToReadLock(write);
    }
  }

  /** A worker thread's identity: its pool and index. */
  private record WorkerSlot(TaskThreadPool pool, int worker) {}

  /** Stops the workers. */
  @Override
  public void close() {
    if (shutdown) {
      return;
    }
    shutdown = true;
    phaser.arriveAndAwaitAdvance();
    for (Thread t : workers) {
      try {
        t.join(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
