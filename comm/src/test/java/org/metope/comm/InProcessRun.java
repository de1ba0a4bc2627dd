package org.metope.comm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * N ranks as threads of one test, each with its world communicator of one {@link
 * InProcessCluster}: how tests of every module run multi-rank scenarios in milliseconds. The run's
 * time limit is measured by the progress the process makes, so that a busy machine stretches it.
 */
public final class InProcessRun {
  /** Time limit of {@link #run(int, Consumer)}, measured by progress (see there). */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
  /** A process that used less than this share of one core over a timeout made no progress. */
  private static final double IDLE_SHARE = 0.01;
  /** Below this much CPU time in a timeout window, the process counts as idle whatever the window. */
  private static final long IDLE_FLOOR_NANOS = TimeUnit.MILLISECONDS.toNanos(30);
  private static final long POLL_MILLIS = 20;
  private static final long JOIN_AFTER_ABORT_MILLIS = 5000;

  private InProcessRun() {}

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
    java.util.Objects.requireNonNull(body, "body");
    java.util.Objects.requireNonNull(timeout, "timeout");
    InProcessCluster cluster = InProcessCluster.ofRanks(ranks);
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
          + " (" + cluster.abortCause().getMessage() + "), ranks still running=" + stuck);
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
    CommAbortedException cause = cluster.abortCause();
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
}
