package org.metope.comm;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A time limit for a child process measured by its progress, so that a busy machine stretches
 * it instead of failing the test: the process tree (the process and its descendants) has hung
 * when its CPU time stayed put for {@code limit} of wall time (every process waits), and has run
 * away when, while waited for, it used more CPU time than {@code limit} on every processor. A
 * slow child on a loaded machine keeps using CPU, a little at a time, and is waited for. {@link
 * #untilHere} measures this JVM instead: a test waiting for its own threads.
 */
public final class ProgressDeadline {
  /** A tree that used less than this share of one core over the limit made no progress. */
  private static final double IDLE_SHARE = 0.01;
  private static final long IDLE_FLOOR_NANOS = Duration.ofMillis(100).toNanos();
  private static final long POLL_MILLIS = 50;

  private ProgressDeadline() {}

  /**
   * Waits until {@code root} has ended; returns null then, or why it was given up (hung or run
   * away, see the class comment). Does not kill anything.
   */
  public static String await(ProcessHandle root, Duration limit) throws InterruptedException {
    return until(List.of(root), limit, () -> !root.isAlive());
  }

  /**
   * Waits until {@code done} holds, measuring the progress of this process (its threads, and any
   * children); returns null then, or why it was given up.
   */
  public static String untilHere(Duration limit, BooleanSupplier done)
      throws InterruptedException {
    return until(List.of(ProcessHandle.current()), limit, done);
  }

  /**
   * Waits until {@code done} holds, measuring the progress of {@code roots} and their
   * descendants; returns null then, or why it was given up. Does not kill anything.
   */
  public static String until(List<ProcessHandle> roots, Duration limit, BooleanSupplier done)
      throws InterruptedException {
    long window = limit.toNanos();
    long idleBelow = Math.max(IDLE_FLOOR_NANOS, (long) (IDLE_SHARE * window));
    long budget = window * Runtime.getRuntime().availableProcessors();
    Map<Long, Long> seen = new HashMap<>();
    long windowStart = System.nanoTime();
    long windowCpu = cpu(roots, seen);
    // Measured from here: a JVM that waits for its own threads has used CPU time before.
    long startCpu = windowCpu;
    while (!done.getAsBoolean()) {
      Thread.sleep(POLL_MILLIS);
      long cpu = cpu(roots, seen);
      if (cpu - startCpu > budget) {
        return "its processes used more than " + limit.toSeconds() + " s of CPU time on each of "
            + Runtime.getRuntime().availableProcessors() + " processors";
      }
      long now = System.nanoTime();
      if (now - windowStart >= window) {
        if (cpu - windowCpu < idleBelow && !done.getAsBoolean()) {
          return "no progress for " + limit.toSeconds() + " s: its processes used "
              + (cpu - windowCpu) / 1_000_000 + " ms of CPU time";
        }
        windowStart = now;
        windowCpu = cpu;
      }
    }
    return null;
  }

  /** The CPU time {@code roots} and their descendants have used, as far as seen. */
  private static long cpu(List<ProcessHandle> roots, Map<Long, Long> seen) {
    for (ProcessHandle root : roots) {
      record(root, seen);
      root.descendants().forEach(p -> record(p, seen));
    }
    return seen.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Keeps the largest CPU time seen of {@code p}, so that a process that ended still counts. */
  private static void record(ProcessHandle p, Map<Long, Long> seen) {
    p.info().totalCpuDuration().ifPresent(d -> seen.merge(p.pid(), d.toNanos(), Math::max));
  }
}
