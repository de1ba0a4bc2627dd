package org.metope.bvals.channel;

import org.metope.mesh.forest.NeighborIndex;

/**
 * Names one communication channel: the sending block, the receiving block, the field, and the
 * geometric element of the <em>sender</em> that the two blocks share ({@link
 * NeighborIndex#index()},
 * {@code (ox1 + 1) + 3 (ox2 + 1) + 9 (ox3 + 1)}, 0 to 26). The element is needed because a block
 * can share several elements with one neighbour (periodic meshes with one or two blocks along an
 * axis), and each shared element is its own channel.
 *
 * <p>The same record names the channel on both ends: the sending cache and the receiving cache
 * (on the same rank or not) build it from the same four numbers, so a same-rank channel is found
 * in the channel map by either side.
 *
 * <p><b>Ordering</b> (used wherever channels are listed: sorted maps, dumps, sequence checks):
 * by {@code senderGid}, then {@code receiverGid}, then {@code fieldId}, then {@code element}, each
 * ascending. It depends only on the four numbers, so every rank sorts the same channels the same
 * way, and a block's outgoing channels are adjacent.
 *
 * @param senderGid global id of the sending block, at least 0
 * @param receiverGid global id of the receiving block, at least 0
 * @param fieldId dense id of the field, at least 0
 * @param element the sender's geometric element, 0 to 26
 */
public record ChannelKey(int senderGid, int receiverGid, int fieldId, int element)
    implements Comparable<ChannelKey> {

  /** Checks the ranges; a negative id or an element outside 0..26 is misuse. */
  public ChannelKey {
    if (senderGid < 0 || receiverGid < 0 || fieldId < 0) {
      throw new IllegalArgumentException("ids must be non-negative: senderGid=" + senderGid
          + ", receiverGid=" + receiverGid + ", fieldId=" + fieldId);
    }
    if (element < 0 || element >= NeighborIndex.COUNT) {
      throw new IllegalArgumentException("element outside [0, 26]: element=" + element);
    }
  }

  // equals and hashCode written out, with the values the record's generated ones have: those
  // are linked through method handles at their first call, which costs start-up time.
  @Override
  public boolean equals(Object o) {
    return o instanceof ChannelKey k && senderGid == k.senderGid && receiverGid == k.receiverGid
        && fieldId == k.fieldId && element == k.element;
  }

  @Override
  public int hashCode() {
    return ((senderGid * 31 + receiverGid) * 31 + fieldId) * 31 + element;
  }

  /** The key for {@code sender}'s element {@code element} (a {@link NeighborIndex}). */
  public static ChannelKey of(int senderGid, int receiverGid, int fieldId,
      NeighborIndex element) {
    return new ChannelKey(senderGid, receiverGid, fieldId, element.index());
  }

  /** The sender's element as a {@link NeighborIndex}. */
  public NeighborIndex senderElement() {
    return NeighborIndex.ofIndex(element);
  }

  @Override
  public int compareTo(ChannelKey other) {
    int c = Integer.compare(senderGid, other.senderGid);
    if (c != 0) {
      return c;
    }
    c = Integer.compare(receiverGid, other.receiverGid);
    if (c != 0) {
      return c;
    }
    c = Integer.compare(fieldId, other.fieldId);
    if (c != 0) {
      return c;
    }
    return Integer.compare(element, other.element);
  }
}
