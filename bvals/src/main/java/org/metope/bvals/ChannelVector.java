package org.metope.bvals;

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
 */
public final class ChannelVector {
  private final CommBuffer[] posted;
  private final int[] cacheIndexOfPosting;
  private final int[] postingIndexOfCache;

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
   * first that is not there; {@code true} when all are received.
   */
  public boolean receiveAll() {
    boolean all = true;
    for (CommBuffer b : posted) {
      all &= b.tryReceive();
    }
    return all;
  }

  /** {@link CommBuffer#stale()} on every buffer. */
  public void staleAll() {
    for (CommBuffer b : posted) {
      b.stale();
    }
  }

  /** Whether every buffer may be written ({@link CommBuffer#isAvailableForWrite()}). */
  public boolean allAvailableForWrite() {
    boolean all = true;
    for (CommBuffer b : posted) {
      all &= b.isAvailableForWrite();
    }
    return all;
  }
}
