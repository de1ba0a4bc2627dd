package org.metope.comm;

/**
 * Blocking point-to-point messages between the ranks of one communicator on a channel of their
 * own, which is all {@link TreeCollectives} needs from a message-passing backend. Buffers are
 * {@code int[]}, {@code long[]} or {@code double[]}; a message from one rank to another arrives
 * in the order it was sent (MPI's non-overtaking rule), so the collectives need no tags.
 *
 * <p>Implementations wait in a way an abort interrupts and report a stalled wait (the MPJ
 * backend's links poll its abort channel and apply the stall timeout).
 */
public interface CollectiveLinks {
  /** This rank, in {@code [0, size())}. */
  int rank();

  /** Number of ranks. */
  int size();

  /** Sends {@code buffer[0, length)} to {@code peer}; returns once the buffer may be reused. */
  void send(Object buffer, int length, int peer);

  /**
   * Receives the next message from {@code peer} into {@code buffer[0, length)}.
   *
   * @throws IllegalStateException when the message does not hold exactly {@code length} elements
   *     (ranks passed different lengths to a collective)
   */
  void receive(Object buffer, int length, int peer);

  /**
   * Receives the next message from {@code peer} whatever its length, as a new array of the same
   * type as {@code like}.
   */
  Object receiveNew(Object like, int peer);
}
