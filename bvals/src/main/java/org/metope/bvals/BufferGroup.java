package org.metope.bvals;

/**
 * Which slices of the {@link BufferArena} sit next to each other: those of the channels from this
 * rank to one peer rank, for one partition, one kind of exchange and one direction. A group's
 * slices occupy one contiguous range of the arena ({@link BufferArena#groupStart}, {@link
 * BufferArena#groupUsed}), so the channels of a group could travel as one message (newer
 * Parthenon's "coalesced buffers"); today each channel still sends its own message.
 *
 * @param peerRank the other rank; this rank for {@link ChannelRole#LOCAL} channels
 * @param partition the {@code MeshData} partition whose cache owns the channels
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
}
