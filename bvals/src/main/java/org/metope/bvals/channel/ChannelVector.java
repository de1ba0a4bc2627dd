package org.metope.bvals.channel;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * The send or the receive buffers of one cache, held in the order their messages are posted
 * (Parthenon's {@code send_buf_vec} / {@code recv_buf_vec} with their index map). The cache lists
 * its boundaries in its own order ("cache index"); the {@link PostingOrder} decides the order in
 * which sends and receives are started ("posting index"), and the vector maps one to the other.
 * Building one allocates; the loops below allocate nothing.
 *
 * <p>A same-rank buffer may sit in the send vector of one cache and the receive vector of another
 * (or of the same cache): it is the one shared object.
 *
 * <p>Buffers that travel in {@link CoalescedMessage}s are served by their message: the vector
 * keeps the distinct messages of its buffers (in order of first appearance in posting order) and
 * polls each once per pass instead of once per member. A receiving message may also hold members
 * of other caches (other receiving partitions); it is then polled by each of them.
 */
public final class ChannelVector {
  private final CommBuffer[] posted;
  private final int[] cacheIndexOfPosting;
  private final int[] postingIndexOfCache;
  private final CoalescedMessage[] messages;

  /**
   * @param inCacheOrder the buffers by cache index
   * @param order how to order the posting
   * @param salt distinguishes caches under a random order (e.g. partition and kind)
   */
  public ChannelVector(List<CommBuffer> inCacheOrder, PostingOrder order, long salt) {
    if (inCacheOrder == null || order == null) {
      throw new IllegalArgumentException("buffers and order must not be null: order=" + order);
    }
    int n = inCacheOrder.size();
    cacheIndexOfPosting = order.permutation(n, salt);
    postingIndexOfCache = new int[n];
    posted = new CommBuffer[n];
    for (int p = 0; p < n; p++) {
      int c = cacheIndexOfPosting[p];
      CommBuffer b = inCacheOrder.get(c);
      if (b == null) {
        throw new IllegalArgumentException("null buffer at cache index " + c);
      }
      posted[p] = b;
      postingIndexOfCache[c] = p;
    }
    messages = distinctMessages(posted);
  }

  private static CoalescedMessage[] distinctMessages(CommBuffer[] buffers) {
    IdentityHashMap<CoalescedMessage, Boolean> seen = new IdentityHashMap<>();
    List<CoalescedMessage> list = new ArrayList<>();
    for (CommBuffer b : buffers) {
      CoalescedMessage m = b.message();
      if (m != null && seen.put(m, Boolean.TRUE) == null) {
        list.add(m);
      }
    }
    return list.toArray(new CoalescedMessage[0]);
  }

  /** Number of distinct coalesced messages the buffers travel in. */
  public int messageCount() {
    return messages.length;
  }

  /** Number of buffers. */
  public int size() {
    return posted.length;
  }

  /** The buffer posted {@code postingIndex}-th. */
  public CommBuffer inPostingOrder(int postingIndex) {
    return posted[postingIndex];
  }

  /** The buffer of cache index {@code cacheIndex}. */
  public CommBuffer inCacheOrder(int cacheIndex) {
    return posted[postingIndexOfCache[cacheIndex]];
  }

  /** Where the buffer of cache index {@code cacheIndex} is posted. */
  public int postingIndexOf(int cacheIndex) {
    return postingIndexOfCache[cacheIndex];
  }

  /** The cache index of the buffer posted {@code postingIndex}-th. */
  public int cacheIndexAt(int postingIndex) {
    return cacheIndexOfPosting[postingIndex];
  }

  /**
   * {@link CommBuffer#tryStartReceive()} on every buffer, in posting order; {@code true} when all
   * receives are posted (sparse ones may still wait for their probe).
   */
  public boolean startReceives() {
    boolean all = true;
    for (CommBuffer b : posted) {
      all &= b.tryStartReceive();
    }
    return all;
  }

  /**
   * {@link CommBuffer#tryReceive()} on every buffer, in posting order, without stopping at the
   * first that is not there (a coalesced message is polled once, then its members' states read);
   * {@code true} when all are received.
   */
  public boolean receiveAll() {
    for (CoalescedMessage m : messages) {
      m.tryComplete();
    }
    boolean all = true;
    for (CommBuffer b : posted) {
      if (b.message() == null) {
        all &= b.tryReceive();
      } else {
        BufferState s = b.state();
        all &= s == BufferState.RECEIVED || s == BufferState.RECEIVED_NULL;
      }
    }
    return all;
  }

  /**
   * For a stall report: how many of the buffers have not been received, and the first of them
   * (its key and the rank that sends it); null when every one has.
   */
  public String describeMissing() {
    int missing = 0;
    CommBuffer first = null;
    for (CommBuffer b : posted) {
      BufferState s = b.state();
      if (s != BufferState.RECEIVED && s != BufferState.RECEIVED_NULL) {
        first = first == null ? b : first;
        missing++;
      }
    }
    return first == null ? null : missing + " of " + posted.length + " buffers, the first "
        + first.key() + " from rank " + first.peerRank();
  }

  /** {@link CommBuffer#stale()} on every buffer. */
  public void staleAll() {
    for (CommBuffer b : posted) {
      b.stale();
    }
  }

  /**
   * Whether every buffer may be written ({@link CommBuffer#isAvailableForWrite()}; a coalesced
   * message's send is tested once for all its members).
   */
  public boolean allAvailableForWrite() {
    for (CoalescedMessage m : messages) {
      m.trySendComplete();
    }
    boolean all = true;
    for (CommBuffer b : posted) {
      all &= b.message() == null ? b.isAvailableForWrite() : b.state() == BufferState.STALE;
    }
    return all;
  }
}
