package org.metope.tasking;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.StampedLock;

/**
 * Persistent worker threads that run the lists of a {@link TaskRegion} in parallel. The calling
 * thread is worker 0; the others wait between regions (spinning briefly, then parked), so running
 * a region starts no thread and allocates nothing.
 *
 * <p>A region never waits for a worker to start: the threads take the lists one pass at a time in
 * one shared order ({@link TaskCollection#runShared}), so the caller works through them alone
 * until a worker joins, and when every list is complete it closes the region to a worker that has
 * not joined yet or sits between two sweeps, and waits only for a worker inside a sweep (which
 * holds a list). So a worker the operating system has not scheduled (the JIT compiler or another
 * process holds the core), before it joins or while it backs off between sweeps, costs the
 * region nothing; which thread runs a list changes no result.
 *
 * <p>A worker runs each sweep of passes inside the pool's gate (shared); {@link #runExclusive}
 * lets a task do something no other task may overlap, such as moving an array the other tasks'
 * kernels write, by waiting until every other worker has finished its current sweep.
 */
public final class TaskThreadPool implements AutoCloseable {
  /**
   * The pool and worker index of the current thread while it runs a region, in a one-element
   * holder per thread, so that entering and leaving a region allocates nothing (a {@code
   * ThreadLocal.set} after {@code remove} makes a new map entry every time).
   */
  private static final ThreadLocal<WorkerSlot[]> CURRENT =
      ThreadLocal.withInitial(() -> new WorkerSlot[1]);
  /** How often the caller waiting for a worker's sweep to end spins before it parks. */
  private static final int IDLE_SPINS = 1 << 10;
  /**
   * How often an idle pool thread spins before it parks. It never yields: Linux's scheduler
   * (EEVDF) moves a thread's deadline a slice later at every {@code sched_yield}, so a thread
   * that yields in a loop loses its core to a busy one (the C2 compiler, another process) for
   * long after it has work again, while a parked thread wakes with a fresh deadline.
   */
  private static final int PURE_SPINS = 64;
  /**
   * How long a pool thread waiting inside a region parks at a time once its spins are over: after
   * a fruitless sweep, or the caller waiting for a worker's sweep to end.
   */
  private static final long IDLE_PARK_NANOS = 20_000L;

  /**
   * A worker's part in region number {@code g} is {@code 8 g + phase}: the caller opens it; the
   * worker joins (open to between) and moves between sweeps and sweeping, each sweep begun only
   * from between; the caller closes it (open or between to closed) when the region is complete,
   * waiting only while the worker sweeps; a worker that leaves on its own marks it done.
   */
  private static final int OPEN = 0;
  private static final int BETWEEN = 1;
  private static final int SWEEPING = 2;
  private static final int CLOSED = 3;
  private static final int DONE = 4;

  private final int threads;
  private final Thread[] workers;
  /** Per worker (index 0 unused): its part in the current region, {@code 8 g + phase}. */
  private final AtomicLongArray parts;
  /** Per worker (index 0 unused): the region number it joined last; written by the worker only. */
  private final long[] joined;
  /** How a worker waits after a sweep without progress (tests may hold it there). */
  private final IdleWait idleWait;
  /** Number of the current region; a worker that sees it change looks for work. */
  private volatile long generation;
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
    this(threads, Thread::new);
  }

  /** As {@link #TaskThreadPool(int)}, the workers made by {@code factory} (tests). */
  TaskThreadPool(int threads, ThreadFactory factory) {
    this(threads, factory, (worker, idleSweeps) -> idleBackOff(idleSweeps));
  }

  /**
   * As {@link #TaskThreadPool(int)}, the workers made by {@code factory} (named {@code
   * metope-tasks-N} and made daemons here) and waiting between sweeps by {@code idleWait}; a
   * test's factory can hold a worker back before its loop, its wait between two sweeps.
   */
  TaskThreadPool(int threads, ThreadFactory factory, IdleWait idleWait) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1: threads=" + threads);
    }
    this.threads = threads;
    this.workers = new Thread[threads - 1];
    this.parts = new AtomicLongArray(threads);
    this.joined = new long[threads];
    this.idleWait = idleWait;
    this.passStamps = new long[threads];
    this.slots = new WorkerSlot[threads];
    for (int w = 0; w < threads; w++) {
      slots[w] = new WorkerSlot(this, w);
      parts.set(w, DONE);
    }
    for (int w = 1; w < threads; w++) {
      final int worker = w;
      Thread t = factory.newThread(() -> workerLoop(worker));
      t.setName("metope-tasks-" + w);
      t.setDaemon(true);
      workers[w - 1] = t;
      t.start();
    }
  }

  /** Number of threads, the caller included. */
  public int threads() {
    return threads;
  }

  /**
   * Runs {@code target}'s lists on the pool's threads and returns when every list is complete
   * (or the region aborted) and no worker is left inside it.
   */
  void run(TaskRegion target, TaskCollection owner) {
    region = target;
    collection = owner;
    failure = null;
    long g = generation + 1;
    for (int w = 1; w < threads; w++) {
      parts.set(w, 8 * g + OPEN);
    }
    generation = g;
    for (Thread t : workers) {
      LockSupport.unpark(t);
    }
    work(0);
    for (int w = 1; w < threads; w++) {
      close(w, g);
    }
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

  /**
   * Ends worker {@code w}'s part in region {@code g}, whose lists are all complete (or the region
   * aborted): closes it where the worker has not joined or is between sweeps, so that it takes no
   * further pass, and waits only while it sweeps, at most finishing a pass.
   */
  private void close(int w, long g) {
    for (int spins = 0; ; spins++) {
      long part = parts.get(w);
      if (part == 8 * g + OPEN || part == 8 * g + BETWEEN) {
        if (parts.compareAndSet(w, part, 8 * g + CLOSED)) {
          return;
        }
      } else if (part != 8 * g + SWEEPING) {
        return;
      } else if (spins < IDLE_SPINS) {
        Thread.onSpinWait();
      } else {
        LockSupport.parkNanos(IDLE_PARK_NANOS);
      }
    }
  }

  private void workerLoop(int worker) {
    long seen = 0;
    while (true) {
      long g = awaitRegion(seen);
      seen = g;
      if (shutdown) {
        return;
      }
      if (parts.compareAndSet(worker, 8 * g + OPEN, 8 * g + BETWEEN)) {
        joined[worker] = g;
        work(worker);
        parts.compareAndSet(worker, 8 * g + BETWEEN, 8 * g + DONE);
      }
    }
  }

  /**
   * Waits until the region number differs from {@code seen}: a few spins, then parked until the
   * next region's {@code unpark} (see {@link #PURE_SPINS} for why it does not yield).
   */
  private long awaitRegion(long seen) {
    for (int spins = 0; ; spins++) {
      long g = generation;
      if (g != seen || shutdown) {
        return g;
      }
      if (spins < PURE_SPINS) {
        Thread.onSpinWait();
      } else {
        LockSupport.park(this);
      }
    }
  }

  /** A pool thread's wait after its {@code idleSweeps}-th fruitless sweep: spin, then park. */
  private static void idleBackOff(int idleSweeps) {
    if (idleSweeps < PURE_SPINS) {
      Thread.onSpinWait();
    } else {
      LockSupport.parkNanos(IDLE_PARK_NANOS);
    }
  }

  /**
   * Worker {@code worker}'s part of the current region. The region and collection are read once:
   * the caller forgets them only after closing every worker, and a closed worker that is still
   * backing off returns without touching the region again.
   */
  private void work(int worker) {
    WorkerSlot[] current = CURRENT.get();
    current[0] = slots[worker];
    TaskRegion target = region;
    TaskCollection owner = collection;
    try {
      if (worker < target.size()) {
        owner.runShared(target, worker, this);
      }
    } catch (Throwable t) {
      fail(worker, target, t);
    } finally {
      current[0] = null;
    }
  }

  /**
   * Records {@code t} and aborts {@code target}, unless {@code worker} was closed (a stall it
   * found while backing off after the region completed, not a failure of the region). A worker
   * reports as sweeping, so that the caller waits for the report before it reads the failure.
   */
  private void fail(int worker, TaskRegion target, Throwable t) {
    long g = joined[worker];
    if (worker > 0 && parts.get(worker) != 8 * g + SWEEPING
        && !parts.compareAndSet(worker, 8 * g + BETWEEN, 8 * g + SWEEPING)) {
      return;
    }
    synchronized (this) {
      if (failure == null) {
        failure = t;
      }
    }
    target.abort();
    if (worker > 0) {
      parts.set(worker, 8 * g + BETWEEN);
    }
  }

  /**
   * Begins a sweep of {@code worker} over the lists: false when the caller has closed the
   * worker's part (the region is complete); else enters the gate (shared).
   */
  boolean beginPass(int worker) {
    if (worker > 0) {
      long g = joined[worker];
      if (!parts.compareAndSet(worker, 8 * g + BETWEEN, 8 * g + SWEEPING)) {
        return false;
      }
    }
    passStamps[worker] = gate.readLock();
    return true;
  }

  /**
   * Leaves the gate after a sweep of {@code worker}; after a sweep that {@code completed}, the
   * worker is between sweeps again (one that threw stays sweeping until {@link #fail} reports).
   */
  void endPass(int worker, boolean completed) {
    long stamp = passStamps[worker];
    passStamps[worker] = 0;
    gate.unlockRead(stamp);
    if (worker > 0 && completed) {
      parts.set(worker, 8 * joined[worker] + BETWEEN);
    }
  }

  /**
   * After a sweep of {@code worker} without progress ({@code idleSweeps} in a row): waits a
   * little, and says whether the worker is still in the region (the caller always is).
   */
  boolean idle(int worker, int idleSweeps) {
    idleWait.idle(worker, idleSweeps);
    return worker == 0 || parts.get(worker) == 8 * joined[worker] + BETWEEN;
  }

  /** How a pool thread waits after a sweep without progress. */
  @FunctionalInterface
  interface IdleWait {
    /** Waits after the {@code idleSweeps}-th fruitless sweep in a row of {@code worker}. */
    void idle(int worker, int idleSweeps);
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
    for (Thread t : workers) {
      LockSupport.unpark(t);
    }
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
