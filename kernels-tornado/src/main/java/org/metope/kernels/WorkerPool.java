package org.metope.kernels;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A fixed set of threads that run one {@link Part} at a time, the caller being part 0. A run
 * publishes the work by bumping a volatile generation and unparking the workers, and waits on a
 * countdown; nothing is allocated per run, so a launch costs a wake-up and a handshake, nothing
 * more. Workers spin briefly before parking, which keeps back-to-back launches cheap without
 * burning a core while idle.
 */
final class WorkerPool implements AutoCloseable {
  /** Spin iterations before a waiting thread parks. */
  private static final int SPINS = 1 << 10;

  /** Work split into parts; part p of parts runs on one thread. */
  interface Part {
    void run(int part, int parts);
  }

  private final int parts;
  private final Thread[] workers;
  private final AtomicInteger remaining = new AtomicInteger();
  private volatile int generation;
  private volatile boolean closed;
  private volatile Part current;
  private volatile Thread waiter;
  private volatile Throwable failure;

  /** Starts {@code parts - 1} daemon workers named {@code name-1}, {@code name-2}, .... */
  WorkerPool(int parts, String name) {
    if (parts < 2) {
      throw new IllegalArgumentException("a pool needs at least 2 parts: parts=" + parts);
    }
    this.parts = parts;
    this.workers = new Thread[parts - 1];
    for (int p = 1; p < parts; p++) {
      final int part = p;
      Thread t = new Thread(() -> workerLoop(part), name + "-" + p);
      t.setDaemon(true);
      workers[p - 1] = t;
      t.start();
    }
  }

  /** Number of parts, the caller included. */
  int parts() {
    return parts;
  }

  /** Runs every part of {@code work} and returns when all are done; rethrows a part's failure. */
  synchronized void run(Part work) {
    if (closed) {
      throw new IllegalStateException("worker pool is closed");
    }
    current = work;
    failure = null;
    waiter = Thread.currentThread();
    remaining.set(parts - 1);
    generation = generation + 1;
    for (Thread w : workers) {
      LockSupport.unpark(w);
    }
    Throwable own = null;
    try {
      work.run(0, parts);
    } catch (RuntimeException | Error e) {
      own = e;
    }
    int spins = 0;
    while (remaining.get() != 0) {
      if (spins < SPINS) {
        spins++;
        Thread.onSpinWait();
      } else {
        LockSupport.park(this);
      }
    }
    current = null;
    Throwable thrown = own != null ? own : failure;
    if (thrown instanceof RuntimeException re) {
      throw re;
    }
    if (thrown instanceof Error err) {
      throw err;
    }
  }

  private void workerLoop(int part) {
    int seen = 0;
    while (true) {
      int spins = 0;
      int now;
      while ((now = generation) == seen) {
        if (closed) {
          return;
        }
        if (spins < SPINS) {
          spins++;
          Thread.onSpinWait();
        } else {
          LockSupport.park(this);
        }
      }
      seen = now;
      try {
        current.run(part, parts);
      } catch (RuntimeException | Error e) {
        failure = e;
      }
      if (remaining.decrementAndGet() == 0) {
        LockSupport.unpark(waiter);
      }
    }
  }

  /** Stops the workers; later runs throw. */
  @Override
  public void close() {
    closed = true;
    for (Thread w : workers) {
      LockSupport.unpark(w);
    }
  }
}
