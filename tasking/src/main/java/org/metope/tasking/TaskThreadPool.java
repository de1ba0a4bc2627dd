package org.metope.tasking;

import java.util.concurrent.Phaser;

/**
 * Persistent worker threads that run the lists of a {@link TaskRegion} in parallel. The calling
 * thread is worker 0; the others wait on a phaser between regions, so running a region starts no
 * thread and allocates nothing.
 */
public final class TaskThreadPool implements AutoCloseable {
  private final int threads;
  private final Phaser phaser;
  private final Thread[] workers;
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
    try {
      if (worker < region.size()) {
        collection.runLists(region, worker, threads);
      }
    } catch (Throwable t) {
      region.abort();
      synchronized (this) {
        if (failure == null) {
          failure = t;
        }
      }
    }
  }

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
