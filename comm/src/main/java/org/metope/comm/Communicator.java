package org.metope.comm;

import java.time.Duration;

/**
 * The only door to other ranks: point-to-point messages on slices of {@code double[]} arrays or
 * of {@link MessageBuffer}s, collectives, per-field duplicates and abort.
 *
 * <p>Implementations: {@link InProcessCluster} (one rank, the embedded default; N ranks as
 * threads of one JVM for tests; the ranks of an MPJ multicore run, {@link SharedMemoryRank}) and
 * MPJ Express (niodev processes under {@code mpjrun}, and multicore ranks on request; built only
 * where MPJ is installed). Code obtains the communicator of its run from {@link
 * Communicators#world()}.
 *
 * <h2>Rules shared by every implementation</h2>
 *
 * <ul>
 *   <li>Tags are in {@code [0, }{@link #MAX_TAG}{@code ]}, the range MPI guarantees; MPJ uses
 *       negative values for wildcards, so a negative tag is misuse.
 *   <li>Messages between one pair of ranks on one communicator with one tag arrive in the order
 *       they were sent (MPI's non-overtaking rule). There are no wildcard receives: a receive names
 *       its peer and tag.
 *   <li>Sends copy or hand the data to the transport; the sender may change its array once the send
 *       request has completed ({@link Request#test()} returned true).
 *   <li>A zero-length message is a valid message; sparse fields send one as "null" buffer.
 *   <li>Collectives ({@code allreduce}, {@code allgather}, {@code broadcast}, {@code barrier},
 *       {@code gather}, {@link #duplicate()}) must be called by every rank of the communicator in the same order.
 *       Reductions give the bits of folding the ranks' contributions in rank order 0, 1, ..., N-1
 *       on every backend, so a result never depends on thread timing or on the backend (the
 *       message-passing backends reach them along trees, {@link TreeCollectives}).
 *   <li>After any rank calls {@link #abort(String)} (or its entry aborts for it because it threw),
 *       every call on every rank throws {@link CommAbortedException}, including the non-blocking
 *       ones, so a task polling {@link Request#test()} learns of the abort too.
 *   <li>Misuse (bad peer, tag, slice, a request still in flight) throws {@link
 *       IllegalArgumentException} or {@link IllegalStateException} with {@code name=value}
 *       messages.
 * </ul>
 *
 * <h2>Allocation</h2>
 *
 * <p>Point-to-point calls take a caller-owned {@link Request} that can be restarted once complete,
 * so a boundary exchange can post hundreds of sends and receives per step without creating
 * requests. The in-process backend then allocates nothing in steady state (message copies come
 * from per-channel free lists). MPJ Express allocates inside every {@code Isend}/{@code Irecv} (its
 * own request, status and, for large messages, buffer objects); see the MPJ backend's javadoc.
 */
public interface Communicator {
  /** The largest tag every MPI implementation must support. */
  int MAX_TAG = 32767;

  /** This rank, in {@code [0, size())}. */
  int rank();

  /** Number of ranks. */
  int size();

  /** One line naming the backend and the rank count, e.g. {@code in-process, 4 ranks}. */
  String describe();

  /** A new idle request of this backend, to pass to {@link #isend} and {@link #irecv}. */
  Request newRequest();

  /**
   * Starts sending {@code array[offset, offset + length)} to {@code peer} with {@code tag}.
   *
   * @param request an idle or completed request of this backend; it is restarted and returned
   * @return {@code request}
   */
  Request isend(Request request, double[] array, int offset, int length, int peer, int tag);

  /**
   * Starts receiving a message from {@code peer} with {@code tag} into {@code array[offset,
   * offset + capacity)}. The message may be shorter than {@code capacity} (its length is {@link
   * Request#length()} once complete); a longer one is an error reported by the request.
   *
   * @param request an idle or completed request of this backend; it is restarted and returned
   * @return {@code request}
   */
  Request irecv(Request request, double[] array, int offset, int capacity, int peer, int tag);

  /** {@link #isend(Request, double[], int, int, int, int)} with a new request. */
  default Request isend(double[] array, int offset, int length, int peer, int tag) {
    return isend(newRequest(), array, offset, length, peer, tag);
  }

  /** {@link #irecv(Request, double[], int, int, int, int)} with a new request. */
  default Request irecv(double[] array, int offset, int capacity, int peer, int tag) {
    return irecv(newRequest(), array, offset, capacity, peer, tag);
  }

  /**
   * A new buffer of {@code capacity} doubles for the {@link MessageBuffer} sends and receives of
   * this communicator and its duplicates: on the MPI device native memory that MPI reads and
   * writes without a copy in Java, elsewhere a heap array. Allocate once and reuse.
   */
  default MessageBuffer newMessageBuffer(int capacity) {
    return new HeapMessageBuffer(capacity);
  }

  /**
   * True when messages of {@link MessageBuffer}s cost less than messages of heap arrays, because
   * the buffers are the transport's own memory (the MPI device: native memory MPI reads in place,
   * where an array's message is copied into native staging and, received, out again). A caller
   * that prepares its messages in a Java array then copies each into a buffer of its own once and
   * sends that; elsewhere it sends the array and allocates no buffer.
   */
  default boolean prefersMessageBuffers() {
    return false;
  }

  /**
   * {@link #isend(Request, double[], int, int, int, int)} of {@code buffer[offset, offset +
   * length)}, which must come from {@link #newMessageBuffer}; the buffer is busy until the
   * request is found complete.
   */
  default Request isend(Request request, MessageBuffer buffer, int offset, int length, int peer,
      int tag) {
    return isend(request, HeapMessageBuffer.arrayOf(buffer), offset, length, peer, tag);
  }

  /**
   * {@link #irecv(Request, double[], int, int, int, int)} into {@code buffer[offset, offset +
   * capacity)}, which must come from {@link #newMessageBuffer}; the buffer is busy until the
   * request is found complete.
   */
  default Request irecv(Request request, MessageBuffer buffer, int offset, int capacity,
      int peer, int tag) {
    return irecv(request, HeapMessageBuffer.arrayOf(buffer), offset, capacity, peer, tag);
  }

  /**
   * The length of the oldest message from {@code peer} with {@code tag} that has arrived and is
   * not yet matched by a receive, or -1 when there is none. Never blocks.
   */
  int iprobe(int peer, int tag);

  /**
   * The reduction of every rank's {@code value}, folded in rank order; the same on every rank. The
   * default is {@link #allreduce(double[], ReduceOp)} of one value.
   */
  default double allreduce(double value, ReduceOp op) {
    double[] one = {value};
    allreduce(one, op);
    return one[0];
  }

  /**
   * The reduction of every rank's {@code value}; the same on every rank. The default is {@link
   * #allreduce(long[], ReduceOp)} of one value.
   */
  default long allreduce(long value, ReduceOp op) {
    long[] one = {value};
    allreduce(one, op);
    return one[0];
  }

  /**
   * Replaces each {@code values[i]} by the reduction of every rank's {@code values[i]}, folded in
   * rank order. Every rank passes the same length.
   */
  void allreduce(double[] values, ReduceOp op);

  /** Replaces each {@code values[i]} by the reduction of every rank's {@code values[i]}. */
  void allreduce(long[] values, ReduceOp op);

  /**
   * Replaces each {@code values[i]} by the reduction with {@code ops[i]} of every rank's {@code
   * values[i]}, as one collective: a cycle's reductions (the time step, the wall-time check, the
   * refinement votes) cost one message round instead of one each. Every rank passes the same
   * {@code ops}. A double's minimum or maximum travels as {@link ReduceOp#encode}. The default
   * makes one {@code allreduce} per distinct op; backends override it.
   */
  default void allreduce(long[] values, ReduceOp[] ops) {
    CommArguments.checkOps(values, ops);
    for (ReduceOp op : ReduceOp.values()) {
      int n = 0;
      for (ReduceOp o : ops) {
        n += o == op ? 1 : 0;
      }
      if (n == 0) {
        continue;
      }
      long[] part = new long[n];
      for (int i = 0, k = 0; i < values.length; i++) {
        if (ops[i] == op) {
          part[k++] = values[i];
        }
      }
      allreduce(part, op);
      for (int i = 0, k = 0; i < values.length; i++) {
        if (ops[i] == op) {
          values[i] = part[k++];
        }
      }
    }
  }

  /**
   * The concatenation, in rank order, of every rank's {@code local} array (lengths may differ
   * between ranks).
   */
  int[] allgather(int[] local);

  /** The concatenation, in rank order, of every rank's {@code local} array. */
  double[] allgather(double[] local);

  /**
   * The concatenation, in rank order, of every rank's {@code local} array (lengths may differ) at
   * {@code root}; an empty array on the other ranks. Where only one rank needs every rank's data
   * (a history file's per-block values), this costs what the data cost at that rank instead of
   * sending all of it to every rank. The default gathers to every rank; backends override it.
   */
  default double[] gather(double[] local, int root) {
    CommArguments.checkRoot(root, size());
    double[] all = allgather(local);
    return rank() == root ? all : new double[0];
  }

  /** Copies {@code root}'s {@code data} into every rank's {@code data} (all of the same length). */
  void broadcast(double[] data, int root);

  /** Copies {@code root}'s {@code data} into every rank's {@code data} (all of the same length). */
  void broadcast(int[] data, int root);

  /** Returns once every rank has entered the barrier. */
  void barrier();

  /** How long a collective waits for the other ranks unless {@link #setStallTimeout} says. */
  Duration DEFAULT_STALL_TIMEOUT = Duration.ofSeconds(300);

  /**
   * How long a collective (allreduce, allgather, broadcast, barrier) may wait for the other ranks
   * without completing before this rank aborts the run, naming the collective and the rank it
   * waited for: the same limit as a stalled point-to-point exchange ({@code
   * recv_bdry_buf_timeout_sec}), so that a dead link or rank never holds a run forever. Applies to
   * this communicator and every duplicate of it; {@link #DEFAULT_STALL_TIMEOUT} until set.
   * Backends that never wait for other ranks (test doubles) ignore it.
   */
  default void setStallTimeout(Duration timeout) {}

  /**
   * The limit {@link #setStallTimeout} set ({@link #DEFAULT_STALL_TIMEOUT} until then), which
   * exchanges outside a driver's steps (the ghost fill at set-up and after a remesh) use too.
   */
  default Duration stallTimeout() {
    return DEFAULT_STALL_TIMEOUT;
  }

  /**
   * A communicator over the same ranks with its own tag space (MPI's {@code Comm_dup}): messages
   * and collectives on it never match those of this one. One per field lets every field number
   * its tags from 0. Collective: every rank calls it in the same order.
   */
  Communicator duplicate();

  /**
   * Ends the run because of a fatal error on this rank: notifies every other rank, whose next
   * communicator call throws {@link CommAbortedException}, then throws one here. Never returns
   * normally.
   *
   * @param reason one line saying what went wrong, shown on every rank
   * @throws CommAbortedException always
   */
  void abort(String reason);
}
