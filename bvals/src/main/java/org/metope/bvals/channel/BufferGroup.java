package org.metope.bvals.channel;

/**
 * Which slices of the {@link BufferArena} sit next to each other: those of the channels between
 * this rank and one peer rank, for one partition, one kind of exchange and one direction. A
 * group's slices occupy one contiguous range of the arena ({@link BufferArena#groupStart}, {@link
 * BufferArena#groupUsed}). With coalescing on (the default), a cross-rank group is one {@link
 * CoalescedMessage} (newer Parthenon's "coalesced buffers"): its region holds the message, and
 * the group's {@code partition} is the <em>sending</em> partition on both ranks, so a receiving
 * group may hold channels of several receiving partitions. Without coalescing, and for same-rank
 * channels, {@code partition} is this rank's partition whose cache owns the channels.
 *
 * @param peerRank the other rank; this rank for {@link ChannelRole#LOCAL} channels
 * @param partition the partition the group belongs to (see above)
 * @param kind boundary values or flux corrections
 * @param role sending to, receiving from, or local to this rank
 */
public record BufferGroup(int peerRank, int partition, ChannelKind kind, ChannelRole role) {
  /** Checks ranges and nulls. */
  public BufferGroup {
    if (peerRank < 0 || partition < 0) {
      throw new IllegalArgumentException("peerRank and partition must be non-negative: peerRank="
          + peerRank + ", partition=" + partition);
    }
    if (kind == null || role == null) {
      throw new IllegalArgumentException("kind and role must not be null: kind=" + kind
          + ", role=" + role);
    }
  }

  // equals and hashCode written out, with the values the record's generated ones have: those
  // are linked through method handles at their first call, which costs start-up time.
  @Override
  public boolean equals(Object o) {
    return o instanceof BufferGroup g && peerRank == g.peerRank && partition == g.partition
        && kind == g.kind && role == g.role;
  }

  @Override
  public int hashCode() {
    return ((peerRank * 31 + partition) * 31 + kind.hashCode()) * 31 + role.hashCode();
  }
}
