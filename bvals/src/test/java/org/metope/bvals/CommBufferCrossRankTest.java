package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;
import org.metope.bvals.channel.BufferGroup;
import org.metope.bvals.channel.BufferSlice;
import org.metope.bvals.channel.BufferState;
import org.metope.bvals.channel.ChannelKey;
import org.metope.bvals.channel.ChannelKind;
import org.metope.bvals.channel.ChannelRole;
import org.metope.bvals.channel.CommBuffer;
import org.metope.bvals.channel.ObjectPool;
import org.metope.bvals.channel.TagMap;
import org.metope.comm.InProcessRun;

/**
 * Real messages between two in-process ranks: data and null messages arrive intact and in order,
 * sparse receivers allocate and free, and a same-rank channel driven by the same code walks the
 * same states as a cross-rank one.
 */
class CommBufferCrossRankTest {
  private static final int LENGTH = 12;
  private static final int STAGES = 40;

  /** What a stage sends: data with a base value unique to sender and stage, or null every third. */
  private static boolean nullStage(int stage) {
    return stage % 3 == 2;
  }

  private static double base(int senderRank, int stage) {
    return 1000.0 * senderRank + 100.0 * stage;
  }

  @Test
  void givenTwoRanksExchangingBothWaysWithOneTag_thenEveryStageArrivesIntactAndInOrder() {
    AtomicReferenceArray<List<String>> remoteStates = new AtomicReferenceArray<>(2);
    AtomicReferenceArray<List<String>> localStates = new AtomicReferenceArray<>(2);
    InProcessRun.run(2, comm -> {
      int me = comm.rank();
      int other = 1 - me;
      RankChannels rc = new RankChannels(comm);
      // One tag serves both directions, as TagMap assigns it.
      CommBuffer out = rc.channel(new ChannelKey(me, other, 0, 14), me, other, 0, LENGTH, false);
      CommBuffer in = rc.channel(new ChannelKey(other, me, 0, 14), other, me, 0, LENGTH, false);
      CommBuffer local = rc.channel(new ChannelKey(me, me, 0, 22), me, me, TagMap.NO_TAG, LENGTH,
          false);
      List<String> seenRemote = new ArrayList<>();
      List<String> seenLocal = new ArrayList<>();
      for (int stage = 0; stage < STAGES; stage++) {
        assertTrue(in.tryStartReceive());
        assertTrue(local.tryStartReceive());
        sendStage(out, me, stage);
        sendStage(local, me + 10, stage);
        RankChannels.receive(in);
        RankChannels.receive(local);
        seenRemote.add(checkStage(in, other, stage));
        seenLocal.add(checkStage(local, me + 10, stage));
        in.stale();
        local.stale();
      }
      RankChannels.awaitWritable(out);
      assertEquals(STAGES, out.sendSequence());
      assertEquals(STAGES, in.receiveSequence());
      assertEquals(BufferState.STALE, out.state());
      assertEquals(0, rc.arena.slicesInFlight());
      remoteStates.set(me, seenRemote);
      localStates.set(me, seenLocal);
    });
    for (int r = 0; r < 2; r++) {
      assertEquals(localStates.get(r), remoteStates.get(r),
          "a same-rank channel looks exactly like a cross-rank one");
      assertEquals(STAGES, remoteStates.get(r).size());
    }
  }

  private static void sendStage(CommBuffer b, int senderTag, int stage) {
    RankChannels.awaitWritable(b);
    if (nullStage(stage)) {
      b.sendNull();
    } else {
      RankChannels.fill(b, base(senderTag, stage));
      b.send();
    }
  }

  /** Checks the received stage and returns the state seen. */
  private static String checkStage(CommBuffer b, int senderTag, int stage) {
    BufferState expected = nullStage(stage) ? BufferState.RECEIVED_NULL : BufferState.RECEIVED;
    assertEquals(expected, b.state(), "stage " + stage + " of " + b.key());
    if (!nullStage(stage)) {
      assertEquals(0, RankChannels.mismatches(b, base(senderTag, stage)),
          "stage " + stage + " of " + b.key());
    }
    assertEquals(stage + 1, b.receiveSequence());
    return b.state().name();
  }

  @Test
  void givenSparseReceiver_thenNullFreesItsBufferAndDataAllocateOneFromThePool() {
    InProcessRun.run(2, comm -> {
      RankChannels rc = new RankChannels(comm);
      ChannelKey key = new ChannelKey(0, 1, 3, 4);
      if (comm.rank() == 0) {
        CommBuffer out = rc.channel(key, 0, 1, 5, LENGTH, true);
        for (int stage = 0; stage < 4; stage++) {
          RankChannels.awaitWritable(out);
          if (stage % 2 == 0) {
            out.sendNull();
          } else {
            RankChannels.fill(out, base(0, stage));
            out.send();
          }
          comm.barrier();
        }
        return;
      }
      CommBuffer in = rc.channel(key, 0, 1, 5, LENGTH, true);
      ObjectPool<BufferSlice> pool = rc.pools.pool(
          new BufferGroup(0, 0, ChannelKind.BOUNDARY_VALUES, ChannelRole.RECEIVER), LENGTH);
      for (int stage = 0; stage < 4; stage++) {
        comm.barrier();
        RankChannels.receive(in);
        if (stage % 2 == 0) {
          assertEquals(BufferState.RECEIVED_NULL, in.state());
          assertFalse(in.isAllocated(), "stage " + stage);
          assertEquals(0, pool.inUse());
        } else {
          assertEquals(BufferState.RECEIVED, in.state());
          assertEquals(0, RankChannels.mismatches(in, base(0, stage)));
          assertEquals(1, pool.inUse());
        }
        in.stale();
      }
      assertEquals(1, pool.created(), "one slice, reserved at build");
      assertEquals(2, pool.reuses(), "both data stages leased the reserved slice");
    });
  }

  @Test
  void givenAReceivePostedBeforeTheArenaIsLengthened_thenTheDataReachTheNewArray() {
    InProcessRun.run(2, comm -> {
      RankChannels rc = new RankChannels(comm);
      ChannelKey key = new ChannelKey(0, 1, 3, 4);
      CommBuffer b = rc.channel(key, 0, 1, 5, LENGTH, false);
      rc.arena.openOnDemandRegion();
      if (comm.rank() == 1) {
        assertTrue(b.tryStartReceive());
        double[] posted = rc.arena.array();
        rc.arena.allocateOnDemand(posted.length + 1);
        assertNotSame(posted, rc.arena.array(), "the receive's array was replaced");
      }
      comm.barrier();
      if (comm.rank() == 0) {
        RankChannels.fill(b, base(0, 7));
        b.send();
      }
      comm.barrier();
      if (comm.rank() == 1) {
        RankChannels.receive(b);
        assertEquals(0, RankChannels.mismatches(b, base(0, 7)));
      }
    });
  }
}
