package org.metope.comm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;

/**
 * Ranks that live in one JVM: a single rank (the embedded default, {@link #singleRank()}), N
 * ranks as threads ({@link #run(int, Duration, Consumer)}), which is how tests run multi-rank
 * scenarios in milliseconds, or the ranks of an MPJ multicore run, threads that MPJ started
 * ({@link SharedMemoryRank}).
 *
 * <p>The cluster holds what its ranks share: one {@link Inbox} per receiving rank (FIFO mailboxes
 * per sender, communicator and tag), one {@link CollectiveRendezvous} per communicator, the ids of
 * duplicated communicators, and the abort state. Once aborted, every communicator call on every
 * rank throws {@link CommAbortedException}.
 */
public final class InProcessCluster {
  /** Ranks are packed into 16 bits of a mailbox key. */
  static final int MAX_RANKS = 1 << 16;

  /** Time limit of {@link #run(int, Consumer)}, measured by progress (see there). */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
  /** A process that used less than this share of one core over a timeout made no progress. */
  private static final double IDLE_SHARE = 0.01;
  /** Below this much CPU time in a timeout window, the process counts as idle whatever the window. */
  private static final long IDLE_FLOOR_NANOS = TimeUnit.MILLISECONDS.toNanos(30);
  private static final long POLL_MILLIS = 20;

  private static final long JOIN_AFTER_ABORT_MILLIS = 5000;
  /** Longs between two ranks' progress counters, so that they share no cache line. */
  private static final int COUNTER_STRIDE = 8;

  private final int size;
  private final String label;
  private final String note;
  /** Operations completed per rank, at {@code rank * COUNTER_STRIDE}. */
  private final AtomicLongArray completed;
  private final Inbox[] inboxes;
  private final ConcurrentHashMap<Integer, CollectiveRendezvous> rendezvous =
      new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Long, Integer> duplicateIds = new ConcurrentHashMap<>();
  private final AtomicInteger nextCommunicatorId = new AtomicInteger(1);
  private volatile CommAbortedException abortCause;
  private volatile long stallTimeoutNanos = Communicator.DEFAULT_STALL_TIMEOUT.toNanos();

  private InProcessCluster(int size, String label, String note) {
    if (size < 1 || size > MAX_RANKS) {
      throw new IllegalArgumentException("ranks out of range [1, " + MAX_RANKS + "]: ranks="
          + size);
    }
    this.size = size;
    this.label = label;
    this.note = note;
    this.completed = new AtomicLongArray(size * COUNTER_STRIDE);
    this.inboxes = new Inbox[size];
    for (int r = 0; r < size; r++) {
      inboxes[r] = new Inbox();
    }
  }

  /** A fresh single-rank world: the communicator of a run without MPJ. */
  public static Communicator singleRank() {
    return new InProcessCluster(1).world(0);
  }

  private InProcessCluster(int size) {
    this(size, "in-process", "");
  }

  /**
   * A cluster whose ranks are threads started elsewhere ({@link SharedMemoryRank}); its
   * communicators describe themselves as {@code label, N ranks, in-JVM messages}.
   */
  static InProcessCluster shared(int size, String label) {
    return new InProcessCluster(size, label, ", in-JVM messages");
  }

  /** {@link #run(int, Duration, Consumer)} with {@link #DEFAULT_TIMEOUT}. */
  public static void run(int ranks, Consumer<Communicator> body) {
    run(ranks, DEFAULT_TIMEOUT, body);
  }

  /**
   * Runs {@code body} on {@code ranks} threads, each with its rank's world communicator, and
   * returns when all have finished. When a rank throws, the cluster is aborted (the other ranks get
   * {@link CommAbortedException} from their next communicator call) and, after every thread has
   * ended, the first failure is rethrown: the exception of the rank that started the abort.
   *
   * @param timeout time limit of the run, measured by the progress the process makes, so that a
   *     busy machine stretches it: the run is aborted when the process used less than 1 % of a
   *     core during {@code timeout} of wall time (every rank blocked: a deadlock), or more CPU time
   *     than {@code timeout} on every processor (a rank that spins); this method then throws
   *     {@link IllegalStateException} naming the ranks still running
   */
  public static void run(int ranks, Duration timeout, Consumer<Communicator> body) {
    CommArguments.checkNotNull(body, "body");
    CommArguments.checkNotNull(timeout, "timeout");
    InProcessCluster cluster = new InProcessCluster(ranks);
    Throwable[] failures = new Throwable[ranks];
    Thread[] threads = new Thread[ranks];
    for (int r = 0; r < ranks; r++) {
      final int rank = r;
      threads[r] = new Thread(() -> {
        try {
          body.accept(cluster.world(rank));
        } catch (Throwable t) {
          failures[rank] = t;
          cluster.abort(rank, failureReason(t));
        }
      }, "metope-rank-" + r);
      threads[r].setDaemon(true);
    }
    for (Thread t : threads) {
      t.start();
    }
    List<Integer> stuck = joinAll(cluster, threads, timeout);
    if (!stuck.isEmpty()) {
      throw new IllegalStateException("in-process run did not finish: timeout=" + timeout
          + " (" + cluster.abortCause.getMessage() + "), ranks still running=" + stuck);
    }
    rethrowFirstFailure(cluster, failures);
  }

  /**
   * Joins every rank; returns the ranks still running when the run made no progress for {@code
   * timeout} or used up its CPU time (empty when none).
   */
  private static List<Integer> joinAll(InProcessCluster cluster, Thread[] threads,
      Duration timeout) {
    List<Integer> stuck = new ArrayList<>();
    try {
      String why = awaitOrStall(threads, timeout);
      for (int r = 0; r < threads.length; r++) {
        if (threads[r].isAlive()) {
          stuck.add(r);
        }
      }
      if (!stuck.isEmpty()) {
        cluster.abort(CommAbortedException.NO_RANK, why);
        for (Thread t : threads) {
          t.join(JOIN_AFTER_ABORT_MILLIS);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      cluster.abort(CommAbortedException.NO_RANK, "the thread running the cluster was interrupted");
      stuck.clear();
      for (int r = 0; r < threads.length; r++) {
        if (threads[r].isAlive()) {
          stuck.add(r);
        }
      }
    }
    for (Thread t : threads) {
      if (t.isAlive()) {
        t.interrupt();
      }
    }
    return stuck;
  }

  /**
   * Waits until every thread has ended (returns null) or the process stopped making progress
   * or used up its CPU time (returns why). Progress is the process's CPU time: a window of {@code
   * timeout} in which it grew by less than {@link #IDLE_SHARE} of the window means that every
   * thread waits; more than {@code timeout} on every processor since the start means a spin.
   */
  private static String awaitOrStall(Thread[] threads, Duration timeout)
      throws InterruptedException {
    long window = timeout.toNanos();
    long idleBelow = Math.max(IDLE_FLOOR_NANOS, (long) (IDLE_SHARE * window));
    long budget = window * Runtime.getRuntime().availableProcessors();
    long startCpu = processCpuNanos();
    long windowStart = System.nanoTime();
    long windowCpu = startCpu;
    for (Thread t : threads) {
      while (t.isAlive()) {
        t.join(POLL_MILLIS);
        long now = System.nanoTime();
        long cpu = processCpuNanos();
        if (cpu - startCpu > budget) {
          return "time limit reached: the run used more than " + timeout + " of CPU time on each"
              + " of " + Runtime.getRuntime().availableProcessors() + " processors";
        }
        if (now - windowStart >= window) {
          if (cpu - windowCpu < idleBelow) {
            return "time limit reached: no progress for " + timeout + " (the process used "
                + TimeUnit.NANOSECONDS.toMillis(cpu - windowCpu) + " ms of CPU time)";
          }
          windowStart = now;
          windowCpu = cpu;
        }
      }
    }
    return null;
  }

  /** CPU time of this process so far (every thread), or 0 where the system does not say. */
  private static long processCpuNanos() {
    return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
  }

  private static void rethrowFirstFailure(InProcessCluster cluster, Throwable[] failures) {
    CommAbortedException cause = cluster.abortCause;
    Throwable first = null;
    if (cause != null && cause.originRank() >= 0) {
      first = failures[cause.originRank()];
    }
    for (int r = 0; first == null && r < failures.length; r++) {
      first = failures[r];
    }
    if (first == null) {
      return;
    }
    for (Throwable f : failures) {
      if (f != null && f != first) {
        first.addSuppressed(f);
      }
    }
    if (first instanceof RuntimeException re) {
      throw re;
    }
    if (first instanceof Error err) {
      throw err;
    }
    throw new IllegalStateException("rank failed: " + first, first);
  }

  private static String failureReason(Throwable t) {
    if (t instanceof CommAbortedException abort) {
      return abort.reason();
    }
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }

  /** Number of ranks. */
  int size() {
    return size;
  }

  /** {@code label, N ranks[, note]}, the start of every communicator's description. */
  String describe() {
    return label + ", " + size + (size == 1 ? " rank" : " ranks") + note;
  }

  /** Counts an operation {@code rank} completed, for the launcher's heartbeat. */
  void progressed(int rank) {
    completed.getAndIncrement(rank * COUNTER_STRIDE);
  }

  /** Operations {@code rank} has completed so far (sends, receives, collectives). */
  long completedOperations(int rank) {
    return completed.get(rank * COUNTER_STRIDE);
  }

  /** The world communicator of {@code rank}. */
  Communicator world(int rank) {
    return new InProcessCommunicator(this, 0, rank);
  }

  Inbox inbox(int rank) {
    return inboxes[rank];
  }

  CollectiveRendezvous rendezvous(int communicatorId) {
    return rendezvous.computeIfAbsent(communicatorId, id -> new CollectiveRendezvous(this));
  }

  /**
   * The id of the {@code sequence}-th duplicate of communicator {@code parentId}: every rank asks
   * with the same arguments (duplicates are collective) and gets the same id.
   */
  int duplicateId(int parentId, int sequence) {
    long key = ((long) parentId << 32) | (sequence & 0xffffffffL);
    return duplicateIds.computeIfAbsent(key, k -> nextCommunicatorId.getAndIncrement());
  }

  /** Marks the cluster aborted (the first abort wins) and wakes every waiting rank. */
  void abort(int originRank, String reason) {
    synchronized (this) {
      if (abortCause == null) {
        abortCause = new CommAbortedException(originRank, reason);
      }
    }
    for (CollectiveRendezvous rv : rendezvous.values()) {
      rv.wakeAll();
    }
  }

  /** Sets how long a collective may wait (see {@link Communicator#setStallTimeout}). */
  void setStallTimeout(Duration timeout) {
    stallTimeoutNanos = timeout.toNanos();
  }

  /** How long a collective may wait, in nanoseconds. */
  long stallTimeoutNanos() {
    return stallTimeoutNanos;
  }

  /** Throws the abort exception when the cluster has been aborted. */
  void checkAbort() {
    CommAbortedException cause = abortCause;
    if (cause != null) {
      throw new CommAbortedException(cause.originRank(), cause.reason());
    }
  }

  /** Called by a waiting rank whose thread was interrupted: aborts the run from that rank. */
  void abortOnInterrupt(int rank) {
    Thread.currentThread().interrupt();
    abort(rank, "rank " + rank + " was interrupted while waiting on a communicator");
    checkAbort();
  }
}
