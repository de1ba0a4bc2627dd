package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;
import org.metope.comm.CommAbortedException;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessCluster;

/** Dumps, the abort with a dump, the collective sequence check and waiting for sends. */
class ChannelRegistryTest {
  @Test
  void givenChannelsOfBothKinds_thenDumpHasAHeaderAndOneSortedLinePerChannel() {
    RankChannels rc = new RankChannels(InProcessCluster.singleRank());
    CommBuffer later = rc.channel(new ChannelKey(2, 0, 0, 13), 0, 0, TagMap.NO_TAG, 4, false);
    CommBuffer earlier = rc.channel(new ChannelKey(1, 5, 0, 13), 0, 0, TagMap.NO_TAG, 4, false);
    BufferGroup fluxGroup = new BufferGroup(0, 0, ChannelKind.FLUX_CORRECTION, ChannelRole.LOCAL);
    CommBuffer flux = new CommBuffer(new ChannelSpec(new ChannelKey(0, 1, 0, 4),
        ChannelKind.FLUX_CORRECTION, 0, 0, TagMap.NO_TAG, 2, false), rc.comm,
        rc.pools.pool(fluxGroup, 2)::get);
    rc.registry.fluxCorrections().put(flux);
    later.send();
    String[] lines = rc.registry.dump().split("\n");
    assertEquals(4, lines.length);
    assertTrue(lines[0].startsWith("channels of rank 0: boundaryValues=2 fluxCorrections=1 "
        + "coalescedMessages=0; arena length="), lines[0]);
    assertEquals("  " + earlier.describe(), lines[1]);
    assertEquals("  " + later.describe(), lines[2]);
    assertTrue(lines[2].contains("state=SENDING") && lines[2].contains("sendSeq=1"), lines[2]);
    assertEquals("  " + flux.describe(), lines[3]);
  }

  @Test
  void givenChannelMap_thenKindsAndKeysAreChecked() {
    RankChannels rc = new RankChannels(InProcessCluster.singleRank());
    CommBuffer b = rc.channel(new ChannelKey(1, 2, 0, 13), 0, 0, TagMap.NO_TAG, 4, false);
    ChannelMap map = rc.registry.boundaryValues();
    assertThrows(IllegalArgumentException.class, () -> map.put(b));
    assertThrows(IllegalArgumentException.class, () -> rc.registry.fluxCorrections().put(b));
    assertEquals(b, map.require(b.key()));
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> map.require(new ChannelKey(9, 9, 0, 0)));
    assertTrue(e.getMessage().contains("key=ChannelKey[senderGid=9"), e.getMessage());
    ObjectPool<BufferSlice> pool = rc.pools.pool(b.buffer().group(), 4);
    assertEquals(1, pool.inUse());
    map.clear();
    assertEquals(0, map.size());
    assertEquals(0, pool.inUse(), "clear frees the buffers");
  }

  /** Two ranks, one channel each way; rank 0 sends {@code extraSends} more than received. */
  private static void exchange(Communicator comm, RankChannels rc, int extraSends) {
    int me = comm.rank();
    int other = 1 - me;
    CommBuffer out = rc.channel(new ChannelKey(me, other, 0, 14), me, other, 0, 4, false);
    CommBuffer in = rc.channel(new ChannelKey(other, me, 0, 14), other, me, 0, 4, false);
    CommBuffer local = rc.channel(new ChannelKey(me, me, 1, 14), me, me, TagMap.NO_TAG, 4, false);
    for (int stage = 0; stage < 3; stage++) {
      RankChannels.awaitWritable(out);
      out.send();
      local.send();
      RankChannels.receive(in);
      RankChannels.receive(local);
      in.stale();
      local.stale();
    }
    for (int extra = 0; extra < extraSends && me == 0; extra++) {
      RankChannels.awaitWritable(out);
      out.send();
    }
    rc.registry.awaitSends();
    assertEquals(BufferState.STALE, out.state());
  }

  @Test
  void givenCompleteExchanges_thenSequencesVerifyOnEveryRank() {
    InProcessCluster.run(2, comm -> {
      RankChannels rc = new RankChannels(comm);
      exchange(comm, rc, 0);
      rc.registry.verifySequences(comm);
    });
  }

  @Test
  void givenASendNeverReceived_thenEveryRankFailsAndTheReceivingRankNamesTheChannel() {
    AtomicReferenceArray<SequenceMismatchException> seen = new AtomicReferenceArray<>(2);
    InProcessCluster.run(2, comm -> {
      RankChannels rc = new RankChannels(comm);
      exchange(comm, rc, 1);
      seen.set(comm.rank(), assertThrows(SequenceMismatchException.class,
          () -> rc.registry.verifySequences(comm)));
    });
    for (int r = 0; r < 2; r++) {
      assertEquals(1, seen.get(r).totalMismatches());
    }
    assertTrue(seen.get(0).getMessage().contains("mismatchesOnThisRank=0"),
        seen.get(0).getMessage());
    assertEquals("channels not received exactly once per send: totalMismatches=1, rank=1, "
        + "mismatchesOnThisRank=1\n  BOUNDARY_VALUES ChannelKey[senderGid=0, receiverGid=1, "
        + "fieldId=0, element=14] sendSeq=4 on rank 0 but recvSeq=3", seen.get(1).getMessage());
  }

  @Test
  void givenSameRankChannelSentButNotReceived_thenMismatch() {
    Communicator single = InProcessCluster.singleRank();
    RankChannels rc = new RankChannels(single);
    rc.channel(new ChannelKey(0, 1, 0, 14), 0, 0, TagMap.NO_TAG, 4, false).send();
    SequenceMismatchException e = assertThrows(SequenceMismatchException.class,
        () -> rc.registry.verifySequences(single));
    assertTrue(e.getMessage().contains("same-rank sendSeq=1 recvSeq=0"), e.getMessage());
  }

  @Test
  void givenSenderWithoutReceiverOnThePeer_thenMismatchOnThePeer() {
    AtomicReferenceArray<String> messages = new AtomicReferenceArray<>(2);
    InProcessCluster.run(2, comm -> {
      RankChannels rc = new RankChannels(comm);
      if (comm.rank() == 0) {
        rc.channel(new ChannelKey(0, 1, 0, 14), 0, 1, 0, 4, false);
      }
      messages.set(comm.rank(), assertThrows(SequenceMismatchException.class,
          () -> rc.registry.verifySequences(comm)).getMessage());
    });
    assertTrue(messages.get(1).contains("sender has no receiver on rank 1"), messages.get(1));
  }

  @Test
  void givenStall_whenAbortWithDump_thenDumpIsPrintedAndEveryRankIsAborted() {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    AtomicReferenceArray<CommAbortedException> seen = new AtomicReferenceArray<>(2);
    assertThrows(CommAbortedException.class, () -> InProcessCluster.run(2, comm -> {
      RankChannels rc = new RankChannels(comm);
      rc.channel(new ChannelKey(comm.rank(), 1 - comm.rank(), 0, 14), comm.rank(),
          1 - comm.rank(), 0, 4, false);
      comm.barrier();
      if (comm.rank() == 0) {
        PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8);
        seen.set(0, assertThrows(CommAbortedException.class,
            () -> rc.registry.abortWithDump(comm, "no progress for 60 s", out)));
        throw seen.get(0);
      }
      seen.set(1, assertThrows(CommAbortedException.class, () -> {
        while (true) {
          comm.iprobe(0, 99);
        }
      }));
      throw seen.get(1);
    }));
    String text = captured.toString(StandardCharsets.UTF_8);
    assertTrue(text.startsWith("rank 0: no progress for 60 s\nchannels of rank 0:"), text);
    assertTrue(text.contains("role=SENDER state=STALE peer=1 tag=0"), text);
    assertEquals("run aborted by rank 0: no progress for 60 s (channel dump of rank 0 on its "
        + "standard error)", seen.get(1).getMessage());
  }
}
