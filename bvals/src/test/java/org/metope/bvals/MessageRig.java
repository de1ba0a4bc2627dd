package org.metope.bvals;

import java.util.ArrayList;
import java.util.List;
import org.metope.bvals.channel.BufferGroup;
import org.metope.bvals.channel.ChannelKey;
import org.metope.bvals.channel.ChannelKind;
import org.metope.bvals.channel.ChannelRole;
import org.metope.bvals.channel.ChannelSpec;
import org.metope.bvals.channel.CoalescedMessage;
import org.metope.bvals.channel.CoalescedMessageBuilder;
import org.metope.bvals.channel.CommBuffer;
import org.metope.bvals.channel.FieldCommunicators;
import org.metope.comm.Communicator;

/**
 * Rank 0 sends channels {@code c -> 10 + c} (field 0, element 13, {@code lengths[c]} elements)
 * to rank 1 in one coalesced message of partition 0, built on both ranks as {@link
 * ChannelBuilder} builds them; for {@link CoalescedMessage} tests on two in-process ranks.
 */
public final class MessageRig {
  public static final int ELEMENT = 13;

  final Communicator world;
  public final FieldCommunicators comms;
  public final RankChannels rank;
  /** The channels by channel number {@code c} (not message order). */
  public final List<CommBuffer> channels = new ArrayList<>();
  public final CoalescedMessage message;

  /**
   * Builds this rank's end. Collective (creates communicators). Channels are added in reverse
   * order, so message order (by key) differs from the order of creation.
   *
   * @param elementOfLast the element of the last channel's key (normally {@link #ELEMENT}; another
   *     value makes a layout the other rank disagrees with)
   */
  public MessageRig(Communicator world, int[] lengths, int elementOfLast) {
    this.world = world;
    this.comms = FieldCommunicators.create(world, new int[] {0}, new int[0]);
    this.rank = new RankChannels(world);
    ChannelRole role = world.rank() == 0 ? ChannelRole.SENDER : ChannelRole.RECEIVER;
    BufferGroup group = new BufferGroup(1 - world.rank(), 0, ChannelKind.BOUNDARY_VALUES, role);
    CoalescedMessageBuilder builder = new CoalescedMessageBuilder();
    CommBuffer[] made = new CommBuffer[lengths.length];
    for (int c = lengths.length - 1; c >= 0; c--) {
      int element = c == lengths.length - 1 ? elementOfLast : ELEMENT;
      ChannelSpec spec = new ChannelSpec(new ChannelKey(c, 10 + c, 0, element),
          ChannelKind.BOUNDARY_VALUES, 0, 1, c, lengths[c], false);
      CoalescedMessageBuilder.MessagePart part = builder.newPart();
      made[c] = new CommBuffer(spec, comms.communicator(ChannelKind.BOUNDARY_VALUES, 0), part);
      builder.add(group, made[c], part);
      rank.registry.boundaryValues().put(made[c]);
    }
    channels.addAll(List.of(made));
    List<CoalescedMessage> built = builder.build(rank.pools, comms);
    if (built.size() != 1) {
      throw new IllegalStateException("expected one message: messages=" + built.size());
    }
    message = built.get(0);
    rank.registry.add(message);
  }

  /** The communicator the message travels on. */
  public Communicator messages() {
    return comms.messages(ChannelKind.BOUNDARY_VALUES);
  }

  /** Polls until every channel is received. */
  public void receiveAll() {
    for (CommBuffer b : channels) {
      RankChannels.receive(b);
    }
  }
}
