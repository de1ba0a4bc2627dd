package org.metope.bvals.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.bvals.RankChannels;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;

/** Grouping, member order and slice layout of the messages a rank builds. */
class CoalescedMessageBuilderTest {

  private static CommBuffer channel(Communicator world, ChannelKind kind, int senderGid,
      int receiverGid, int senderRank, int receiverRank, int length,
      CoalescedMessageBuilder.MessagePart part) {
    return channel(world, kind, senderGid, receiverGid, senderRank, receiverRank, length, false,
        part);
  }

  private static CommBuffer channel(Communicator world, ChannelKind kind, int senderGid,
      int receiverGid, int senderRank, int receiverRank, int length, boolean sparse,
      CoalescedMessageBuilder.MessagePart part) {
    ChannelSpec spec = new ChannelSpec(new ChannelKey(senderGid, receiverGid, 0, 4), kind,
        senderRank, receiverRank, 0, length, sparse);
    return new CommBuffer(spec, world, part);
  }

  @Test
  void givenChannelsOfSeveralGroups_thenOneMessagePerGroupWithDenseMembersFirstBackToBack() {
    InProcessRun.run(3, world -> {
      if (world.rank() != 0) {
        FieldCommunicators.create(world, new int[] {0}, new int[0]);
        return;
      }
      FieldCommunicators comms = FieldCommunicators.create(world, new int[] {0}, new int[0]);
      RankChannels rc = new RankChannels(world);
      CoalescedMessageBuilder builder = new CoalescedMessageBuilder();
      BufferGroup toTwo = new BufferGroup(2, 1, ChannelKind.BOUNDARY_VALUES, ChannelRole.SENDER);
      BufferGroup toOne = new BufferGroup(1, 0, ChannelKind.BOUNDARY_VALUES, ChannelRole.SENDER);
      BufferGroup fromOne =
          new BufferGroup(1, 3, ChannelKind.FLUX_CORRECTION, ChannelRole.RECEIVER);
      int[][] made = {{7, 20}, {5, 21}, {6, 22}};
      CommBuffer[] toTwoMembers = new CommBuffer[3];
      for (int i = 0; i < 3; i++) {
        var part = builder.newPart();
        // gid 6 is a sparse field's channel: after the dense ones although its key is smaller.
        toTwoMembers[i] = channel(world, ChannelKind.BOUNDARY_VALUES, made[i][0], made[i][1], 0,
            2, 10 + i, i == 2, part);
        builder.add(toTwo, toTwoMembers[i], part);
      }
      var p1 = builder.newPart();
      builder.add(toOne, channel(world, ChannelKind.BOUNDARY_VALUES, 1, 9, 0, 1, 3, p1), p1);
      var p2 = builder.newPart();
      builder.add(fromOne, channel(world, ChannelKind.FLUX_CORRECTION, 9, 1, 1, 0, 2, p2), p2);

      List<CoalescedMessage> messages = builder.build(rc.pools, comms);

      assertEquals(List.of(toOne, fromOne, toTwo),
          messages.stream().map(CoalescedMessage::group).toList(), "groups by peer, partition");
      CoalescedMessage m = messages.get(2);
      assertEquals(1, m.tag(), "tag = the sending partition");
      assertSame(toTwoMembers[1], m.member(0), "gid 5 first");
      assertSame(toTwoMembers[0], m.member(1), "then gid 7, the other dense one");
      assertSame(toTwoMembers[2], m.member(2), "the sparse gid 6 last");
      assertEquals(3 + 1 + 11 + 10 + 12, m.length());
      int start = rc.arena.groupStart(toTwo);
      assertEquals(m.length(), rc.arena.groupUsed(toTwo), "the message fills its group's region");
      assertEquals(start + 4, m.member(0).buffer().offset(), "after header and flag word");
      assertEquals(start + 4 + 11, m.member(1).buffer().offset());
      assertEquals(start + 4 + 11 + 10, m.member(2).buffer().offset());
      assertSame(comms.messages(ChannelKind.FLUX_CORRECTION), comms.messages(fromOne.kind()));
      for (CoalescedMessage each : messages) {
        for (int s = 0; s < each.size(); s++) {
          assertSame(each, each.member(s).message());
          assertTrue(each.member(s).isAllocated());
        }
      }
    });
  }

  @Test
  void givenAMemberAllocatedBeforeItsMessageIsBuilt_thenMisuse() {
    CoalescedMessageBuilder builder = new CoalescedMessageBuilder();
    CoalescedMessageBuilder.MessagePart part = builder.newPart();
    CommBuffer b = channel(InProcessCluster.singleRank(), ChannelKind.BOUNDARY_VALUES, 0, 1, 0, 0,
        4, part);
    IllegalStateException e = assertThrows(IllegalStateException.class, b::allocate);
    assertEquals("channel allocated before its coalesced message was built", e.getMessage());
  }
}
