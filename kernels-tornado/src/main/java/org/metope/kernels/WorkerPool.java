package org.metope.kernels;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A fixed set of threads that run the parts of one {@link Part} at a time, the caller included.
 * The parts are a static split of the work; which thread runs which part is decided at run time:
 * every thread, the caller first, claims the next unclaimed part until none is left. So the caller
 * never waits for a worker that the operating system has not scheduled yet (on a busy machine that
 * can take milliseconds): it runs the parts itself and waits only for parts already begun.
 * Results do not depend on who runs a part as long as parts write disjoint outputs.
 *
 * <p>A run publishes its work through one atomic word, {@code generation << 32 | next part}, and
 * counts finished parts; nothing is allocated per run. Idle workers spin briefly, then park.
 */
final class WorkerPool implements AutoCloseable {
  /** Spin iterations before a waiting thread parks. */
  private static final int SPINS = 1 << 10;

  /** Work split into parts; part p of parts runs once, on some thread. */
  interface Part {
    void run(int part, int parts);
  }

  private final int parts;
  private final Thread[] workers;
  private final AtomicLong state = new AtomicLong();
  private final AtomicInteger finished = new AtomicInteger();
  private int generation;
  private volatile boolean closed;
  private volatile Part current;
  private volatile Thread waiter;
  private volatile Throwable failure;

  /**
   * Starts {@code threads - 1} daemon workers named {@code name-1}, {@code name-2}, ...; each run
   * is split into {@code parts} parts.
   */
  WorkerPool(int threads, int parts, String name) {
    if (threads < 2 || parts < threads) {
      throw new IllegalArgumentException("a pool needs at least 2 threads and a part per thread:"
          + " threads=" + threads + " parts=" + parts);
    }
    this.parts = parts;
    this.workers = new Thread[threads - 1];
    for (int w = 1; w < threads; w++) {
      Thread t = new Thread(this::workerLoop, name + "-" + w);
      t.setDaemon(true);
      workers[w - 1] = t;
      t.start();
    }
  }

  /** Number of parts a run is split into. */
  int parts() {
    return parts;
  }

  /** Runs every part of {@code work} once and returns when all are done; rethrows a failure. */
  synchronized void run(Part work) {
    if (closed) {
      throw new IllegalStateException("worker pool is closed");
    }
    current = work;
    failure = null;
    waiter = Thread.currentThread();
    finished.set(0);
    generation++;
    state.set((long) generation << 32);
    for (Thread w : workers) {
      LockSupport.unpark(w);
    }
    claimAndRun(generation, work);
    int spins = 0;
    while (finished.get() != parts) {
      if (spins < SPINS) {
        spins++;
        Thread.onSpinWait();
      } else {
        LockSupport.park(this);
      }
    }
    current = null;
    Throwable thrown = failure;
    if (thrown instanceof RuntimeException re) {
      throw re;
    }
    if (thrown instanceof Error err) {
      throw err;
    }
  }

  /**
   * Claims and runs parts of generation {@code g} until none is left. A successful claim proves
   * that generation {@code g} is unfinished, so {@code work}, read after {@code g} was published,
   * is still its work.
   */
  private void claimAndRun(int g, Part work) {
    while (true) {
      long now = state.get();
      int part = (int) now;
      if ((int) (now >>> 32) != g || part >= parts) {
        return;
      }
      if (state.compareAndSet(now, now + 1)) {
        try {
          work.run(part, parts);
        } catch (RuntimeException | Error e) {
          failure = e;
        }
        if (finished.incrementAndGet() == parts) {
          LockSupport.unpark(waiter);
        }
      }
    }
  }

  private void workerLoop() {
    int seen = 0;
    int spins = 0;
    while (!closed) {
      long now = state.get();
      int g = (int) (now >>> 32);
      if (g != seen && (int) now < parts) {
        seen = g;
        claimAndRun(g, current);
        spins = 0;
      } else if (spins < SPINS) {
        seen = g;
        spins++;
        Thread.onSpinWait();
      } else {
        LockSupport.park(this);
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
