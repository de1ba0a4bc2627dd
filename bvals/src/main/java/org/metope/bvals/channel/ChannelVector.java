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
 *
 * <p>A stage walks the vector a few times; what the walks have already seen is kept so that the
 * next walk does less. A vector of same-rank channels only has no receive to post. A true {@link
 * #allAvailableForWrite()} lets {@link #sendAll} send without asking each buffer again, and a true
 * {@link #receiveAll()} lets {@link #staleAll()} stale without checking each state: until those
 * calls nothing else may change the states they saw. Misuse of the sequence (posting over data
 * not yet staled, sending without the check) still throws, from the vector.
 */
public final class ChannelVector {
  private final CommBuffer[] posted;
  private final int[] cacheIndexOfPosting;
  private final int[] postingIndexOfCache;
  private final CoalescedMessage[] messages;
  /** By cache index: 1 where the buffer is the end of a cross-rank channel. */
  private final int[] crossRankByCache;
  /** Every buffer is a same-rank channel: nothing to post, nothing in a message. */
  private final boolean sameRankOnly;
  /** Some buffer is the receiving end of a cross-rank channel, so nothing may be sent here. */
  private final boolean hasReceivers;
  /** The last {@link #allAvailableForWrite()} was true and nothing was sent since. */
  private boolean checkedWritable;
  /** The last {@link #receiveAll()} was true and the buffers were not staled since. */
  private boolean allReceived;

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
    crossRankByCache = new int[n];
    Distinct distinct = new Distinct();
    int roles = 0;
    for (int p = 0; p < n; p++) {
      roles |= place(p, inCacheOrder, distinct);
    }
    messages = distinct.list.toArray(new CoalescedMessage[0]);
    sameRankOnly = (roles & CROSS_RANK) == 0;
    hasReceivers = (roles & RECEIVING) != 0;
  }

  /** {@link #place}'s answer: the buffer is the end of a cross-rank channel. */
  private static final int CROSS_RANK = 1;
  /** {@link #place}'s answer: the buffer is the receiving end of a cross-rank channel. */
  private static final int RECEIVING = 2;

  /** The coalesced messages seen so far, in order of first appearance. */
  private static final class Distinct {
    final IdentityHashMap<CoalescedMessage, Boolean> seen = new IdentityHashMap<>();
    final List<CoalescedMessage> list = new ArrayList<>();
    /** The last message added: a cache's members of one message mostly come together. */
    CoalescedMessage last;

    void add(CoalescedMessage m) {
      if (m != null && m != last && seen.put(m, Boolean.TRUE) == null) {
        list.add(m);
      }
      last = m == null ? last : m;
    }
  }

  /**
   * Puts the buffer posted {@code p}-th in place and returns its {@link #CROSS_RANK} and {@link
   * #RECEIVING} bits. A method per buffer, not a loop body: a vector is built a few times per
   * remesh, too rarely for the JIT to compile the constructor's loop, while this method is
   * compiled within the first remesh.
   */
  private int place(int p, List<CommBuffer> inCacheOrder, Distinct distinct) {
    int c = cacheIndexOfPosting[p];
    CommBuffer b = inCacheOrder.get(c);
    if (b == null) {
      throw new IllegalArgumentException("null buffer at cache index " + c);
    }
    posted[p] = b;
    postingIndexOfCache[c] = p;
    distinct.add(b.message());
    ChannelRole role = b.role();
    crossRankByCache[c] = role == ChannelRole.LOCAL ? 0 : 1;
    return (role == ChannelRole.LOCAL ? 0 : CROSS_RANK)
        | (role == ChannelRole.RECEIVER ? RECEIVING : 0);
  }

  /**
   * Copies into {@code into} 1 for each cache index whose buffer is the end of a cross-rank
   * channel, 0 for a same-rank channel's (a table's {@code crossRank} column).
   */
  public void crossRank(int[] into) {
    System.arraycopy(crossRankByCache, 0, into, 0, crossRankByCache.length);
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
   * receives are posted (sparse ones may still wait for their probe). Same-rank channels only:
   * nothing to post, nothing walked.
   *
   * @throws IllegalStateException when the received buffers were not staled
   */
  public boolean startReceives() {
    if (sameRankOnly) {
      if (allReceived) {
        throw new IllegalStateException("startReceives() before the received buffers were "
            + "staled: size=" + posted.length);
      }
      return true;
    }
    boolean all = true;
    for (CommBuffer b : posted) {
      all &= b.tryStartReceive();
    }
    return all;
  }

  /**
   * {@link CommBuffer#tryReceive()} on every buffer, in posting order, without stopping at the
   * first that is not there (a coalesced message is polled once, then its members' states read);
   * {@code true} when all are received. While one of the messages is still on its way, the pass
   * ends after polling the messages: that message's members are this vector's and not here yet,
   * so a rank that waits for its peer does not walk every buffer on each poll, and takes the
   * other buffers on the pass that finds the messages in.
   */
  public boolean receiveAll() {
    boolean messagePending = false;
    for (CoalescedMessage m : messages) {
      m.tryComplete();
      messagePending |= m.isInFlight();
    }
    if (messagePending) {
      allReceived = false;
      return false;
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
    allReceived = all;
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

  /**
   * {@link CommBuffer#stale()} on every buffer; after a true {@link #receiveAll()} without
   * checking each buffer's role and state again.
   */
  public void staleAll() {
    if (!allReceived) {
      for (CommBuffer b : posted) {
        b.stale();
      }
      return;
    }
    allReceived = false;
    for (CommBuffer b : posted) {
      b.staleReceived();
    }
  }

  /**
   * Whether every buffer may be written ({@link CommBuffer#isAvailableForWrite()}; a coalesced
   * message's send is tested once for all its members).
   */
  public boolean allAvailableForWrite() {
    boolean all = true;
    if (sameRankOnly) {
      for (CommBuffer b : posted) {
        all &= b.state() == BufferState.STALE;
      }
    } else {
      for (CoalescedMessage m : messages) {
        m.trySendComplete();
      }
      for (CommBuffer b : posted) {
        all &= b.message() == null ? b.isAvailableForWrite() : b.state() == BufferState.STALE;
      }
    }
    checkedWritable = all;
    return all;
  }

  /**
   * Sends every buffer, in posting order, after a true {@link #allAvailableForWrite()}: data
   * ({@link CommBuffer#send()}) where {@code allocated[c] == 1} and, if {@code nullWhereZero},
   * {@code nonzero[c] == 1} for its cache index {@code c}; null ({@link CommBuffer#sendNull()})
   * otherwise.
   *
   * @throws IllegalStateException without that check, or on a vector of receiving channels
   */
  public void sendAll(int[] allocated, int[] nonzero, boolean nullWhereZero) {
    if (!checkedWritable || hasReceivers) {
      throw new IllegalStateException("sendAll() needs a true allAvailableForWrite() and sending "
          + "channels: checkedWritable=" + checkedWritable + ", hasReceivers=" + hasReceivers);
    }
    checkedWritable = false;
    for (int p = 0; p < posted.length; p++) {
      int c = cacheIndexOfPosting[p];
      posted[p].sendWritable(allocated[c] == 1 && (!nullWhereZero || nonzero[c] == 1));
    }
  }
}
