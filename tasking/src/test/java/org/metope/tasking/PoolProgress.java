package org.metope.tasking;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * A wait of a test's task for what other threads of its {@link TaskThreadPool} will do, given up
 * when those threads make no progress rather than after a fixed time: a loaded machine stretches
 * the wait, and a hang still fails the test. The producers have hung when together they used
 * less than {@link #IDLE_CPU_NANOS} of CPU time over {@link #WINDOW} of wall time: a parked
 * thread uses none, while a runnable one on a busy machine still gets its share. The in-process
 * twin of comm's {@code ProgressDeadline}, which tasking cannot use (it sits below comm).
 *
 * <p>A producer that polls forever counts as progress; the region's stall timeout ends it, and
 * the wait then fails on the next window.
 */
final class PoolProgress {
  /** Wall time over which the producers must use some CPU time. */
  static final Duration WINDOW = Duration.ofSeconds(2);
  /** Less CPU time than this over a window is no progress. */
  static final long IDLE_CPU_NANOS = 1_000_000;
  private static final long POLL_MILLIS = 2;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private PoolProgress() {}

  /**
   * The threads of a pool that may run tasks, but the current one: {@code caller} (the thread
   * that called {@code execute}, worker 0) and the workers, named {@code metope-tasks-N}.
   */
  static List<Thread> otherPoolThreads(Thread caller) {
    List<Thread> others = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if ((t == caller || t.getName().startsWith("metope-tasks-"))
          && t != Thread.currentThread()) {
        others.add(t);
      }
    }
    return others;
  }

  /**
   * Returns once {@code done} holds; throws an {@link AssertionError} that names {@code what}
   * when {@code producers} used less than {@link #IDLE_CPU_NANOS} of CPU time over a window.
   */
  static void until(String what, List<Thread> producers, BooleanSupplier done) {
    if (!THREADS.isThreadCpuTimeEnabled()) {
      throw new IllegalStateException("thread CPU time is not measured in this JVM");
    }
    long windowNanos = WINDOW.toNanos();
    long windowStart = System.nanoTime();
    long[] seen = new long[producers.size()];
    long windowCpu = cpu(producers, seen);
    while (!done.getAsBoolean()) {
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting for " + what, e);
      }
      long now = System.nanoTime();
      if (now - windowStart >= windowNanos) {
        long cpu = cpu(producers, seen);
        if (cpu - windowCpu < IDLE_CPU_NANOS && !done.getAsBoolean()) {
          throw new AssertionError("waited for " + what + ", but the other pool threads ("
              + producers.size() + ") used " + (cpu - windowCpu) / 1000 + " us of CPU time in "
              + WINDOW.toMillis() + " ms");
        }
        windowStart = now;
        windowCpu = cpu;
      }
    }
  }

  /**
   * The CPU time {@code threads} have used, keeping in {@code seen} the most seen of each, so that
   * a thread that has ended still counts what it used.
   */
  private static long cpu(List<Thread> threads, long[] seen) {
    long sum = 0;
    for (int i = 0; i < seen.length; i++) {
      seen[i] = Math.max(seen[i], THREADS.getThreadCpuTime(threads.get(i).getId()));
      sum += seen[i];
    }
    return sum;
  }
}
