package org.metope.kernels.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.metope.kernels.KernelKind;

/**
 * The two ranks' first loads overlap by events alone: rank 1's hook returns only once rank 0's
 * first load holds its copies, and rank 0's only once its buffer arena changed, however late
 * either comes; a waiter that gives up stops the launch with one line naming the event.
 */
class FirstLoadsOverlapTest {
  /** Waits until {@code done}, giving up only when {@code other} ended without it. */
  private static FirstLoadsOverlap.Waiter untilOrEnded(AtomicReference<Thread> other) {
    return done -> {
      while (!done.getAsBoolean()) {
        Thread peer = other.get();
        if (peer != null && !peer.isAlive()) {
          return done.getAsBoolean() ? null : "the other rank ended";
        }
        Thread.onSpinWait();
      }
      return null;
    };
  }

  @Test
  void givenRankOneFirst_thenRankZeroReturnsOnlyAfterRankOnesMessageLanded() throws Exception {
    AtomicReference<Thread> rankOneThread = new AtomicReference<>();
    FirstLoadsOverlap overlap = new FirstLoadsOverlap(untilOrEnded(rankOneThread));
    double[] rankZeroBuffers = new double[4];
    BiConsumer<KernelKind, double[]> rankOne = overlap.hook(1);
    Thread one = new Thread(() -> {
      rankOne.accept(KernelKind.LOAD, new double[4]); // waits for rank 0 to hold its copies
      rankZeroBuffers[2] = 7.0; // its message lands in rank 0's buffer arena
    });
    rankOneThread.set(one);
    one.start();
    BiConsumer<KernelKind, double[]> rankZero = overlap.hook(0);
    rankZero.accept(KernelKind.UNLOAD, rankZeroBuffers); // not a load: returns at once
    rankZero.accept(KernelKind.LOAD, rankZeroBuffers);
    // What rank 0 sees when its hook returns (a flag set after the write could still be unset).
    double seenOnReturn = rankZeroBuffers[2];
    one.join();
    assertEquals(7.0, seenOnReturn, 0.0, "rank 0 held its copies until the message");
    assertArrayEquals(new double[] {0, 0, 7, 0}, rankZeroBuffers);
    rankZero.accept(KernelKind.LOAD, rankZeroBuffers); // a second load waits for nothing
  }

  @Test
  void givenAWaiterThatGivesUp_thenTheLaunchStopsNamingTheEvent() {
    FirstLoadsOverlap overlap = new FirstLoadsOverlap(done -> "no progress for 30 s");
    IllegalStateException zero = assertThrows(IllegalStateException.class,
        () -> overlap.hook(0).accept(KernelKind.LOAD, new double[1]));
    assertEquals("first loads did not overlap: rank 0 waited for the other rank's messages to"
        + " land during its load, and no progress for 30 s", zero.getMessage());
    IllegalStateException one = assertThrows(IllegalStateException.class,
        () -> new FirstLoadsOverlap(done -> "no progress for 30 s").hook(1)
            .accept(KernelKind.LOAD, new double[1]));
    assertTrue(one.getMessage().contains("rank 1 waited for rank 0's first load"),
        one.getMessage());
  }
}
