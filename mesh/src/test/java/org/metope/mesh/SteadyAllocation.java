package org.metope.mesh;

import java.lang.management.ManagementFactory;

/**
 * What a warm step allocates on the calling thread, told apart from one-off allocations that
 * the JIT causes.
 *
 * <p>A step that allocates on every call allocates in every window. A one-off lands in one
 * window only. Examples are a class that C2's uncommon trap resolves, with its loader's strings,
 * in the middle of a run (about 8 KB, seen in {@code AdaptiveRefinementTest}), and a recompiled
 * method running a few calls in the interpreter. So the least any window allocated is the
 * steady figure. An allocation rarer than once a window can hide in the windows between its
 * occurrences; the windows are long enough that a per-step allocation cannot.
 */
public final class SteadyAllocation {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private SteadyAllocation() {
  }

  /**
   * Runs {@code step} {@code warmup} times, then {@code windows} windows of {@code steps} calls
   * each, and returns the fewest bytes this thread allocated in one window.
   */
  public static long fewestBytes(int warmup, int windows, int steps, Runnable step) {
    for (int i = 0; i < warmup; i++) {
      step.run();
    }
    long[] stamps = new long[windows * steps + 1];
    stamps[0] = THREADS.getCurrentThreadAllocatedBytes();
    for (int i = 1; i < stamps.length; i++) {
      step.run();
      stamps[i] = THREADS.getCurrentThreadAllocatedBytes();
    }
    return fewestBytes(stamps, stamps.length, 0, steps);
  }

  /**
   * The same quietest window from counters the caller took itself, one per step (e.g. in a
   * driver's hook with {@link #allocatedBytes}): the fewest bytes between {@code stamps[s]} and
   * {@code stamps[s + window]} for {@code s = from, from + window, ...} within the first {@code
   * count} stamps.
   */
  public static long fewestBytes(long[] stamps, int count, int from, int window) {
    long fewest = Long.MAX_VALUE;
    for (int s = from; s + window < count; s += window) {
      fewest = Math.min(fewest, stamps[s + window] - stamps[s]);
    }
    return fewest;
  }

  /** The bytes the calling thread has allocated so far. */
  public static long allocatedBytes() {
    return THREADS.getCurrentThreadAllocatedBytes();
  }
}
