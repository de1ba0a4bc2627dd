package org.metope.bvals.channel;

import org.metope.comm.Communicator;

/**
 * Everything a {@link CommBuffer} needs to know about its channel besides the communicator and
 * the allocation function: its name, kind, the two ranks, the MPI tag, the buffer length and
 * whether the receiver allocates only when data arrive.
 *
 * @param key the channel's name
 * @param kind boundary values or flux corrections
 * @param senderRank rank of the sending block
 * @param receiverRank rank of the receiving block
 * @param tag the {@link TagMap} tag, in {@code [0, }{@link Communicator#MAX_TAG}{@code ]} for a
 *     channel between two ranks; ignored (normally {@link TagMap#NO_TAG}) on one rank
 * @param length number of elements of the buffer (a null message has none)
 * @param doSparseAllocation whether the receiver probes for the message first and allocates only
 *     for a non-empty one (sparse fields); otherwise it posts its receive at once into an
 *     allocated buffer
 */
public record ChannelSpec(ChannelKey key, ChannelKind kind, int senderRank, int receiverRank,
    int tag, int length, boolean doSparseAllocation) {

  /** Checks nulls and ranges. */
  public ChannelSpec {
    if (key == null || kind == null) {
      throw new IllegalArgumentException("key and kind must not be null: key=" + key + ", kind="
          + kind);
    }
    if (senderRank < 0 || receiverRank < 0) {
      throw new IllegalArgumentException("ranks must be non-negative: senderRank=" + senderRank
          + ", receiverRank=" + receiverRank + ", key=" + key);
    }
    if (length <= 0) {
      throw new IllegalArgumentException("buffer length must be positive: length=" + length
          + ", key=" + key);
    }
    if (senderRank != receiverRank && (tag < 0 || tag > Communicator.MAX_TAG)) {
      throw new IllegalArgumentException("tag of a channel between ranks outside [0, "
          + Communicator.MAX_TAG + "]: tag=" + tag + ", key=" + key);
    }
  }

  /** Whether sender and receiver are on the same rank. */
  public boolean isLocal() {
    return senderRank == receiverRank;
  }

  /**
   * The part the channel plays on {@code rank}: both ends ({@link ChannelRole#LOCAL}), the
   * sending end or the receiving end.
   *
   * @throws IllegalArgumentException when the channel does not involve {@code rank}
   */
  public ChannelRole roleOn(int rank) {
    if (isLocal() && senderRank == rank) {
      return ChannelRole.LOCAL;
    }
    if (!isLocal() && senderRank == rank) {
      return ChannelRole.SENDER;
    }
    if (!isLocal() && receiverRank == rank) {
      return ChannelRole.RECEIVER;
    }
    throw new IllegalArgumentException("channel does not involve this rank: rank=" + rank
        + ", senderRank=" + senderRank + ", receiverRank=" + receiverRank + ", key=" + key);
  }
}
