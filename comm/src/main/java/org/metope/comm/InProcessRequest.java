package org.metope.comm;

import java.util.concurrent.locks.LockSupport;

/**
 * A request of the in-process backend. Sends are copied into the receiver's mailbox when started,
 * so they are complete at once; receives complete when the sender (or the receive itself, when the
 * message was already there) copies the message into the receive's slice, under the receiver's
 * {@link Inbox} monitor.
 *
 * <p>Completion is published by the volatile {@code state}; a waiting thread spins briefly, then
 * parks and is unparked by the completing thread. Parking is bounded so that an abort is noticed
 * even without a wake-up.
 */
final class InProcessRequest implements Request {
  private static final int IDLE = 0;
  private static final int ACTIVE = 1;
  private static final int COMPLETE = 2;
  private static final int SPINS_BEFORE_PARKING = 200;
  private static final long PARK_NANOS = 1_000_000L;

  private final InProcessCluster cluster;
  private final int ownerRank;
  private volatile int state = IDLE;
  private volatile Thread waiter;
  private int length = -1;
  private String error;
  private double[] target;
  private int targetOffset;
  private int capacity;
  private int peer;
  private int tag;

  InProcessRequest(InProcessCluster cluster, int ownerRank) {
    this.cluster = cluster;
    this.ownerRank = ownerRank;
  }

  boolean belongsTo(InProcessCluster c) {
    return cluster == c;
  }

  /** Records a send of {@code sentLength} elements that the caller has already delivered. */
  void startSend(int sentLength, int sendPeer, int sendTag) {
    checkRestartable();
    peer = sendPeer;
    tag = sendTag;
    error = null;
    length = sentLength;
    state = COMPLETE;
  }

  /** Arms a receive into {@code array[offset, offset + receiveCapacity)}. */
  void startReceive(double[] array, int offset, int receiveCapacity, int receivePeer,
      int receiveTag) {
    checkRestartable();
    target = array;
    targetOffset = offset;
    capacity = receiveCapacity;
    peer = receivePeer;
    tag = receiveTag;
    error = null;
    length = -1;
    state = ACTIVE;
  }

  /** Copies a matched message into the receive's slice; called under the receiver's inbox. */
  void completeReceive(double[] source, int offset, int messageLength) {
    if (messageLength > capacity) {
      error = "received message longer than the receive's capacity: length=" + messageLength
          + ", capacity=" + capacity + ", peer=" + peer + ", tag=" + tag + ", rank=" + ownerRank;
    } else {
      System.arraycopy(source, offset, target, targetOffset, messageLength);
    }
    length = messageLength;
    target = null;
    cluster.progressed(ownerRank);
    state = COMPLETE;
    Thread w = waiter;
    if (w != null) {
      LockSupport.unpark(w);
    }
  }

  @Override
  public boolean test() {
    cluster.checkAbort();
    int s = state;
    if (s == IDLE) {
      throw new IllegalStateException("request was never started: rank=" + ownerRank);
    }
    if (s == COMPLETE) {
      throwIfFailed();
      return true;
    }
    return false;
  }

  @Override
  public void waitFor() {
    int spins = 0;
    while (!test()) {
      if (spins < SPINS_BEFORE_PARKING) {
        spins++;
        Thread.onSpinWait();
        continue;
      }
      waiter = Thread.currentThread();
      if (state != COMPLETE) {
        LockSupport.parkNanos(this, PARK_NANOS);
      }
      waiter = null;
      if (Thread.interrupted()) {
        cluster.abortOnInterrupt(ownerRank);
      }
    }
  }

  @Override
  public int length() {
    return state == COMPLETE ? length : -1;
  }

  @Override
  public boolean isActive() {
    return state == ACTIVE;
  }

  private void checkRestartable() {
    if (state == ACTIVE) {
      throw new IllegalStateException("request still in flight: rank=" + ownerRank + ", peer="
          + peer + ", tag=" + tag);
    }
  }

  private void throwIfFailed() {
    String e = error;
    if (e != null) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String toString() {
    return "InProcessRequest[rank=" + ownerRank + ", peer=" + peer + ", tag=" + tag + ", state="
        + state + ", length=" + length + "]";
  }
}
