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
 * steady figure.
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
    long fewest = Long.MAX_VALUE;
    for (int w = 0; w < windows; w++) {
      long before = THREADS.getCurrentThreadAllocatedBytes();
      for (int i = 0; i < steps; i++) {
        step.run();
      }
      fewest = Math.min(fewest, THREADS.getCurrentThreadAllocatedBytes() - before);
    }
    return fewest;
  }
}
