package org.metope.kernels.tornado;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import org.metope.kernels.KernelKind;

/**
 * Launch hooks ({@link EmulatedDeviceBackend#duringLaunch}) for the two ranks of an in-process
 * run that make the other rank write this rank's buffer arena while a launch holds its copies,
 * every time rather than by chance: rank 1's first load waits until rank 0's first load holds its
 * copies, and rank 0's first load then waits until some value of its buffer arena changed (rank
 * 1's messages landing). Both waits end on those events, however slow the machine; only a waiter
 * that finds the run stuck (the test's {@link Waiter}, e.g. one that measures progress) ends them
 * otherwise, and the launch then stops the run with one line saying which event did not come.
 */
public final class FirstLoadsOverlap {
  /** How a hook waits for an event. */
  @FunctionalInterface
  public interface Waiter {
    /** Waits until {@code done} holds; returns null then, or why it gave up. */
    String until(BooleanSupplier done) throws InterruptedException;
  }

  private final CountDownLatch rankZeroHoldsCopies = new CountDownLatch(1);
  private final Waiter waiter;

  /** Hooks whose waits end on their events, or when {@code waiter} gives up. */
  public FirstLoadsOverlap(Waiter waiter) {
    this.waiter = waiter;
  }

  /**
   * The hook for {@code rank} (0 or 1) to pass to {@link EmulatedDeviceBackend#duringLaunch}.
   */
  public BiConsumer<KernelKind, double[]> hook(int rank) {
    AtomicBoolean first = new AtomicBoolean(true);
    return (kind, buffers) -> {
      if (kind != KernelKind.LOAD || !first.getAndSet(false)) {
        return;
      }
      String stalled;
      if (rank == 0) {
        double[] before = buffers.clone();
        rankZeroHoldsCopies.countDown();
        stalled = await(() -> !Arrays.equals(before, buffers));
      } else {
        stalled = await(() -> rankZeroHoldsCopies.getCount() == 0);
      }
      if (stalled != null) {
        throw new IllegalStateException("first loads did not overlap: rank " + rank + " waited"
            + (rank == 0 ? " for the other rank's messages to land during its load"
                : " for rank 0's first load to hold its copies") + ", and " + stalled);
      }
    };
  }

  private String await(BooleanSupplier done) {
    try {
      return waiter.until(done);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "was interrupted";
    }
  }
}
