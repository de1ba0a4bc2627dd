package org.metope.bvals.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.bvals.MessageRig;
import org.metope.bvals.RankChannels;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;

/**
 * The coalesced message protocol on two in-process ranks: rank 0 sends three channels of lengths
 * 4, 5 and 6 to rank 1 in one message ({@link MessageRig}); only the channels that send data put
 * it on the wire.
 */
class CoalescedMessageTest {
  private static final int[] LENGTHS = {4, 5, 6};
  /** Header (3) and one flag word (52 flags): the message when every channel sends null. */
  private static final int FLAGS_ONLY = 3 + 1;
  /** The header, the flags and the three buffers. */
  private static final int MESSAGE_LENGTH = FLAGS_ONLY + 4 + 5 + 6;

  @Test
  void givenMixedSendAndSendNull_thenOneMessageCarriesTheDataAndEveryNullFlag() {
    InProcessRun.run(2, world -> {
      MessageRig rig = new MessageRig(world, LENGTHS, MessageRig.ELEMENT);
      List<CommBuffer> ch = rig.channels;
      if (world.rank() == 0) {
        sendDataNullData(ch);
      }
      world.barrier();
      if (world.rank() == 1) {
        assertEquals(FLAGS_ONLY + 4 + 6, rig.messages().iprobe(0, 0),
            "one message, tag = partition, without the null channel's part");
        for (int c = 0; c < 3; c++) {
          assertEquals(-1, rig.comms.communicator(ChannelKind.BOUNDARY_VALUES, 0).iprobe(0, c),
              "no per-channel message for channel " + c);
        }
        rig.receiveAll();
        assertEquals(BufferState.RECEIVED, ch.get(0).state());
        assertEquals(BufferState.RECEIVED_NULL, ch.get(1).state());
        assertEquals(BufferState.RECEIVED, ch.get(2).state());
        assertEquals(0, RankChannels.mismatches(ch.get(0), 100));
        assertEquals(0, RankChannels.mismatches(ch.get(2), 300));
        assertEquals(1, ch.get(1).receiveSequence(), "a null channel counts its receive too");
        assertEquals(1, rig.message.sequence());
      }
    });
  }

  @Test
  void givenSomeMembersNotSentYet_thenNothingGoesOutAndTheSentOnesAreNotWritable() {
    InProcessRun.run(2, world -> {
      MessageRig rig = new MessageRig(world, LENGTHS, MessageRig.ELEMENT);
      List<CommBuffer> ch = rig.channels;
      if (world.rank() == 0) {
        ch.get(2).send();
        ch.get(0).sendNull();
        assertFalse(ch.get(0).isAvailableForWrite(), "its message has not gone out");
        assertThrows(IllegalStateException.class, () -> ch.get(2).send());
      }
      world.barrier();
      if (world.rank() == 1) {
        assertEquals(-1, rig.messages().iprobe(0, 0));
      }
      world.barrier();
      if (world.rank() == 0) {
        ch.get(1).send();
        // In-process sends complete at once: every member is writable again.
        for (CommBuffer b : ch) {
          assertTrue(b.isAvailableForWrite());
          assertEquals(BufferState.STALE, b.state());
        }
      }
      world.barrier();
      if (world.rank() == 1) {
        assertEquals(FLAGS_ONLY + 5 + 6, rig.messages().iprobe(0, 0));
        rig.receiveAll();
        assertEquals(BufferState.RECEIVED_NULL, ch.get(0).state());
      }
    });
  }

  @Test
  void givenAMemberNotStaled_thenTheNextMessageWaitsInsteadOfOverwritingIt() {
    InProcessRun.run(2, world -> {
      MessageRig rig = new MessageRig(world, LENGTHS, MessageRig.ELEMENT);
      List<CommBuffer> ch = rig.channels;
      for (int round = 1; round <= 2; round++) {
        if (world.rank() == 0) {
          for (CommBuffer b : ch) {
            RankChannels.awaitWritable(b);
            RankChannels.fill(b, 1000 * round);
            b.send();
          }
        }
        world.barrier();
      }
      if (world.rank() == 1) {
        rig.receiveAll();
        ch.get(0).stale();
        ch.get(1).stale();
        assertFalse(ch.get(0).tryStartReceive(), "channel 2 still holds round 1");
        assertFalse(ch.get(0).tryReceive());
        assertEquals(0, RankChannels.mismatches(ch.get(2), 1000), "round 1 data kept");
        ch.get(2).stale();
        rig.receiveAll();
        for (CommBuffer b : ch) {
          assertEquals(0, RankChannels.mismatches(b, 2000));
          assertEquals(2, b.receiveSequence());
        }
      }
    });
  }

  @Test
  void givenNullPatternsChangingEveryRound_thenOnlyFlaggedDataTravelAndLandAtTheirHomes() {
    boolean[][] sends = {{false, false, true}, {true, false, true}, {true, true, true},
        {false, true, false}};
    InProcessRun.run(2, world -> {
      MessageRig rig = new MessageRig(world, LENGTHS, MessageRig.ELEMENT);
      List<CommBuffer> ch = rig.channels;
      for (int round = 0; round < sends.length; round++) {
        if (world.rank() == 0) {
          for (int c = 0; c < 3; c++) {
            RankChannels.awaitWritable(ch.get(c));
            RankChannels.fill(ch.get(c), 1000 * (round + 1) + 100 * c);
          }
          for (int c = 0; c < 3; c++) {
            if (sends[round][c]) {
              ch.get(c).send();
            } else {
              ch.get(c).sendNull();
            }
          }
        }
        world.barrier();
        if (world.rank() == 1) {
          int expected = FLAGS_ONLY;
          for (int c = 0; c < 3; c++) {
            expected += sends[round][c] ? LENGTHS[c] : 0;
          }
          assertEquals(expected, rig.messages().iprobe(0, 0), "round " + round);
          rig.receiveAll();
          for (int c = 0; c < 3; c++) {
            assertEquals(sends[round][c] ? BufferState.RECEIVED : BufferState.RECEIVED_NULL,
                ch.get(c).state(), "round " + round + " channel " + c);
            if (sends[round][c]) {
              assertEquals(0, RankChannels.mismatches(ch.get(c), 1000 * (round + 1) + 100 * c),
                  "round " + round + " channel " + c);
            }
            ch.get(c).stale();
          }
        }
        world.barrier();
      }
    });
  }

  @Test
  void givenMoreMembersThanOneFlagWordHolds_thenTheFlagsTakeTwoWords() {
    int[] lengths = new int[60];
    java.util.Arrays.fill(lengths, 2);
    InProcessRun.run(2, world -> {
      MessageRig rig = new MessageRig(world, lengths, MessageRig.ELEMENT);
      List<CommBuffer> ch = rig.channels;
      if (world.rank() == 0) {
        for (int c = 0; c < 60; c++) {
          RankChannels.fill(ch.get(c), 10 * c);
          if (c == 3 || c == 55) {
            ch.get(c).send();
          } else {
            ch.get(c).sendNull();
          }
        }
      }
      world.barrier();
      if (world.rank() == 1) {
        assertEquals(3 + 2 + 2 + 2, rig.messages().iprobe(0, 0));
        rig.receiveAll();
        for (int c = 0; c < 60; c++) {
          boolean sent = c == 3 || c == 55;
          assertEquals(sent ? BufferState.RECEIVED : BufferState.RECEIVED_NULL,
              ch.get(c).state(), "channel " + c);
          if (sent) {
            assertEquals(0, RankChannels.mismatches(ch.get(c), 10 * c), "channel " + c);
          }
        }
      }
    });
  }

  @Test
  void givenAReceivePostedBeforeTheArenaIsLengthened_thenTheDataReachTheNewArray() {
    InProcessRun.run(2, world -> {
      MessageRig rig = new MessageRig(world, LENGTHS, MessageRig.ELEMENT);
      List<CommBuffer> ch = rig.channels;
      BufferArena arena = rig.rank.arena;
      arena.openOnDemandRegion();
      if (world.rank() == 1) {
        assertTrue(ch.get(0).tryStartReceive(), "the message's receive is posted");
        double[] posted = arena.array();
        arena.allocateOnDemand(posted.length + 1);
        assertTrue(posted != arena.array(), "the receive's array was replaced");
      }
      world.barrier();
      if (world.rank() == 0) {
        sendDataNullData(ch);
      }
      world.barrier();
      if (world.rank() == 1) {
        rig.receiveAll();
        assertEquals(0, RankChannels.mismatches(ch.get(0), 100));
        assertEquals(0, RankChannels.mismatches(ch.get(2), 300));
      }
    });
  }

  @Test
  void givenAMessageLongerThanItsFlagsSay_thenItIsReportedWithBothLengths() {
    InProcessRun.run(2, world -> {
      MessageRig rig = new MessageRig(world, LENGTHS, MessageRig.ELEMENT);
      double fingerprint = world.allgather(new double[] {rig.message.fingerprint()})[1];
      if (world.rank() == 0) {
        // Only channel 0 (4 elements) flagged, but the data of all three sent.
        double[] raw = new double[MESSAGE_LENGTH];
        raw[0] = fingerprint;
        raw[1] = 1;
        raw[2] = 3;
        raw[3] = 1;
        rig.messages().isend(raw, 0, raw.length, 1, 0).waitFor();
      }
      world.barrier();
      if (world.rank() == 1) {
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> rig.channels.get(0).tryReceive());
        assertTrue(e.getMessage().startsWith("coalesced message of another length than its flags"
            + " say: messageLength=" + MESSAGE_LENGTH + ", expectedLength=" + (FLAGS_ONLY + 4)),
            e.getMessage());
      }
    });
  }

  @Test
  void givenReceiverWithAnotherLayout_thenTheFirstMessageStopsWithBothFingerprints() {
    InProcessRun.run(2, world -> {
      // Same lengths, but rank 1 believes the last channel is another element.
      MessageRig rig = new MessageRig(world, LENGTHS, world.rank() == 0 ? 13 : 14);
      double[] fingerprints = world.allgather(new double[] {rig.message.fingerprint()});
      assertTrue(fingerprints[0] != fingerprints[1]);
      if (world.rank() == 0) {
        for (CommBuffer b : rig.channels) {
          b.send();
        }
      }
      world.barrier();
      if (world.rank() == 1) {
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> rig.channels.get(0).tryReceive());
        assertTrue(e.getMessage().startsWith("sender and receiver disagree on the coalesced "
            + "message layout: fingerprint=" + (long) fingerprints[0] + ", expectedFingerprint="
            + (long) fingerprints[1]), e.getMessage());
      }
    });
  }

  @Test
  void givenARepeatedMessage_thenItIsReportedOutOfSequence() {
    InProcessRun.run(2, world -> {
      MessageRig rig = new MessageRig(world, LENGTHS, MessageRig.ELEMENT);
      double fingerprint = world.allgather(new double[] {rig.message.fingerprint()})[1];
      if (world.rank() == 0) {
        // Hand-made messages with the right layout, every flag 0: sequence 1, then 1 again.
        double[] raw = new double[FLAGS_ONLY];
        raw[0] = fingerprint;
        raw[1] = 1;
        raw[2] = 3;
        rig.messages().isend(raw, 0, raw.length, 1, 0).waitFor();
        rig.messages().isend(raw, 0, raw.length, 1, 0).waitFor();
      }
      world.barrier();
      if (world.rank() == 1) {
        rig.receiveAll();
        assertEquals(BufferState.RECEIVED_NULL, rig.channels.get(0).state(), "flags were 0");
        for (CommBuffer b : rig.channels) {
          b.stale();
        }
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> rig.channels.get(1).tryReceive());
        assertTrue(e.getMessage().startsWith(
            "coalesced message out of sequence: sequence=1, expectedSequence=2"), e.getMessage());
      }
    });
  }

  @Test
  void givenAPostedReceive_thenTheMessageCannotBeReleasedNorItsMembersFreed() {
    InProcessRun.run(2, world -> {
      MessageRig rig = new MessageRig(world, LENGTHS, MessageRig.ELEMENT);
      if (world.rank() == 1) {
        assertTrue(rig.channels.get(0).tryStartReceive());
        assertTrue(rig.channels.get(1).isInFlight());
        assertThrows(IllegalStateException.class, () -> rig.message.release());
        assertThrows(IllegalStateException.class, () -> rig.channels.get(2).free());
      }
      world.barrier();
      if (world.rank() == 0) {
        for (CommBuffer b : rig.channels) {
          b.sendNull();
        }
      }
      if (world.rank() == 1) {
        rig.receiveAll();
        for (CommBuffer b : rig.channels) {
          b.stale();
        }
        rig.message.release();
      }
    });
  }

  @Test
  void givenASameRankGroupOrNoMembers_thenNoMessageIsMade() {
    RankChannels rc = new RankChannels(InProcessCluster.singleRank());
    FieldCommunicators comms = FieldCommunicators.create(rc.comm, new int[] {0}, new int[0]);
    BufferGroup local = new BufferGroup(0, 0, ChannelKind.BOUNDARY_VALUES, ChannelRole.LOCAL);
    ObjectPool.Owner<BufferSlice> owner = rc.pools.pool(local, 8).get();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new CoalescedMessage(local, List.of(), comms.messages(ChannelKind.BOUNDARY_VALUES),
            owner));
    assertEquals("a message needs cross-rank members: group=" + local + ", members=0",
        e.getMessage());
    CommBuffer sameRank = rc.channel(new ChannelKey(0, 1, 0, 13), 0, 0, TagMap.NO_TAG, 4, false);
    assertThrows(IllegalStateException.class, () -> sameRank.joinMessage(null, 0));
  }

  @Test
  void givenASendingPartitionAboveTheLargestTag_thenNoMessageIsMade() {
    RankChannels rc = new RankChannels(InProcessCluster.singleRank());
    FieldCommunicators comms = FieldCommunicators.create(rc.comm, new int[] {0}, new int[0]);
    BufferGroup group = new BufferGroup(1, 32768, ChannelKind.BOUNDARY_VALUES, ChannelRole.SENDER);
    CommBuffer member = new CommBuffer(new ChannelSpec(new ChannelKey(0, 1, 0, 13),
        ChannelKind.BOUNDARY_VALUES, 0, 1, 0, 4, false), rc.comm, () -> null);
    ObjectPool.Owner<BufferSlice> owner = rc.pools.pool(group, 8).get();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new CoalescedMessage(group, List.of(member),
            comms.messages(ChannelKind.BOUNDARY_VALUES), owner));
    assertEquals("sending partition above the largest tag: partition=32768, maxTag=32767",
        e.getMessage());
  }

  /** Channel 0 sends 100 + i, channel 1 null, channel 2 300 + i. */
  private static void sendDataNullData(List<CommBuffer> ch) {
    RankChannels.fill(ch.get(0), 100);
    RankChannels.fill(ch.get(2), 300);
    ch.get(0).send();
    ch.get(1).sendNull();
    ch.get(2).send();
  }
}
