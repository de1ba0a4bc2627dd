package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.metope.bvals.channel.ChannelKey;
import org.metope.bvals.channel.ChannelVector;
import org.metope.bvals.channel.CommBuffer;
import org.metope.bvals.channel.PostingOrder;
import org.metope.bvals.channel.TagMap;
import org.metope.comm.InProcessRun;

/**
 * A steady exchange allocates nothing: two in-process ranks, each with a dense channel to and from
 * the other, a sparse channel each way that alternates data and null (so the sparse receivers
 * allocate and free every stage through their pool), and a same-rank channel, driven through
 * {@link ChannelVector}s as the boundary tasks drive them.
 */
class CommBufferAllocationTest {
  private static final int LENGTH = 32;
  private static final int WARMUP = 3000;
  private static final int MEASURED = 2000;
  /**
   * Allowance for one-off allocations inside the measured window that are not per stage: the JIT
   * replacing compiled code, a mailbox free list settling, the ThreadMXBean call itself. A single
   * allocation per stage would be at least 16 bytes x 2000 stages = 32000 bytes, well above it.
   */
  private static final long SLACK_BYTES = 4096;

  @Test
  void givenSteadySendReceiveCycles_thenNoBytesAreAllocatedPerStage() {
    AtomicLongArray allocated = new AtomicLongArray(2);
    InProcessRun.run(2, comm -> {
      int me = comm.rank();
      int other = 1 - me;
      RankChannels rc = new RankChannels(comm);
      CommBuffer denseOut = rc.channel(new ChannelKey(me, other, 0, 14), me, other, 0, LENGTH,
          false);
      CommBuffer denseIn = rc.channel(new ChannelKey(other, me, 0, 14), other, me, 0, LENGTH,
          false);
      CommBuffer sparseOut = rc.channel(new ChannelKey(me, other, 1, 14), me, other, 0, LENGTH,
          true);
      CommBuffer sparseIn = rc.channel(new ChannelKey(other, me, 1, 14), other, me, 0, LENGTH,
          true);
      CommBuffer local = rc.channel(new ChannelKey(me, me, 0, 4), me, me, TagMap.NO_TAG, LENGTH,
          false);
      ChannelVector sends = new ChannelVector(List.of(denseOut, sparseOut, local),
          PostingOrder.random(7), me);
      ChannelVector receives = new ChannelVector(List.of(denseIn, sparseIn, local),
          PostingOrder.cacheOrder(), me);
      com.sun.management.ThreadMXBean bean =
          (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
      long before = 0;
      for (int stage = 0; stage < WARMUP + MEASURED; stage++) {
        if (stage == WARMUP) {
          before = bean.getCurrentThreadAllocatedBytes();
        }
        runStage(sends, receives, sparseOut, stage);
      }
      allocated.set(me, bean.getCurrentThreadAllocatedBytes() - before);
    });
    for (int r = 0; r < 2; r++) {
      assertTrue(allocated.get(r) < SLACK_BYTES, "rank " + r + " allocated " + allocated.get(r)
          + " bytes in " + MEASURED + " stages");
    }
  }

  private static void runStage(ChannelVector sends, ChannelVector receives, CommBuffer sparseOut,
      int stage) {
    receives.startReceives();
    while (!sends.allAvailableForWrite()) {
      Thread.onSpinWait();
    }
    for (int p = 0; p < sends.size(); p++) {
      CommBuffer b = sends.inPostingOrder(p);
      if (b == sparseOut && stage % 2 == 1) {
        b.sendNull();
      } else {
        RankChannels.fill(b, stage);
        b.send();
      }
    }
    while (!receives.receiveAll()) {
      Thread.onSpinWait();
    }
    receives.staleAll();
  }
}
