package org.metope.bvals.channel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Collects the cross-rank channels of a rank by {@link BufferGroup} while {@code ChannelBuilder}
 * creates them, then makes one {@link CoalescedMessage} per group: members sorted dense first,
 * then by {@link ChannelKey} (a null member moves the data of the members after it on the wire,
 * and dense members are rarely null), one slice of {@link CoalescedMessage#length} elements from
 * the group's pool, and
 * each member's buffer its part of that slice.
 *
 * <p>A member's {@link CommBuffer} is created before its message exists, so it gets a {@link
 * MessagePart} as allocation function, which learns its slice when the message is built.
 */
public final class CoalescedMessageBuilder {
  /** Orders groups the same way on every run (records of enums hash by identity). */
  /** Dense members first, so that null sparse members move no dense data; then by key. */
  static final Comparator<CommBuffer> MEMBER_ORDER =
      Comparator.comparing(CommBuffer::isSparse).thenComparing(CommBuffer::key);

  public static final Comparator<BufferGroup> GROUP_ORDER = Comparator
      .comparingInt(BufferGroup::peerRank).thenComparingInt(BufferGroup::partition)
      .thenComparing(BufferGroup::kind).thenComparing(BufferGroup::role);

  private final Map<BufferGroup, List<CommBuffer>> members = new HashMap<>();
  private final Map<CommBuffer, MessagePart> parts = new HashMap<>();

  /**
   * The allocation function of a member: a one-slice pool over the member's part of its message,
   * set when the message is built.
   */
  public static final class MessagePart implements Supplier<ObjectPool.Owner<BufferSlice>> {
    private ObjectPool<BufferSlice> pool;

    @Override
    public ObjectPool.Owner<BufferSlice> get() {
      if (pool == null) {
        throw new IllegalStateException("channel allocated before its coalesced message was built");
      }
      return pool.get();
    }

    void assign(BufferSlice part) {
      pool = new ObjectPool<>(() -> part);
      pool.ensureCapacity(1);
    }
  }

  /** The allocation function for a member of {@code group} created next; pass it to the buffer. */
  public MessagePart newPart() {
    return new MessagePart();
  }

  /** Records {@code buffer}, created with {@code part}, as a member of {@code group}. */
  public void add(BufferGroup group, CommBuffer buffer, MessagePart part) {
    members.computeIfAbsent(group, g -> new ArrayList<>()).add(buffer);
    parts.put(buffer, part);
  }

  /** The values every message {@link #build} will take from the arena, summed. */
  public long totalLength() {
    long total = 0;
    for (List<CommBuffer> list : members.values()) {
      total += CoalescedMessage.length(list);
    }
    return total;
  }

  /**
   * Builds every message, allocates every member's buffer in it, and returns the messages in
   * group order. The arena must be thawed.
   */
  public List<CoalescedMessage> build(BufferPools pools, FieldCommunicators communicators) {
    List<BufferGroup> groups = new ArrayList<>(members.keySet());
    groups.sort(GROUP_ORDER);
    List<CoalescedMessage> messages = new ArrayList<>(groups.size());
    for (BufferGroup group : groups) {
      List<CommBuffer> list = members.get(group);
      list.sort(MEMBER_ORDER);
      int length = CoalescedMessage.length(list);
      ObjectPool.Owner<BufferSlice> owner = pools.pool(group, length).get();
      BufferSlice whole = owner.get();
      CoalescedMessage message = new CoalescedMessage(group, list,
          communicators.messages(group.kind()), owner);
      int start = CoalescedMessage.memberStart(list, 0);
      for (int slot = 0; slot < list.size(); slot++) {
        CommBuffer buffer = list.get(slot);
        parts.get(buffer).assign(whole.part(start, buffer.length()));
        start += buffer.length();
        buffer.joinMessage(message, slot);
        buffer.allocate();
      }
      messages.add(message);
    }
    return messages;
  }
}
