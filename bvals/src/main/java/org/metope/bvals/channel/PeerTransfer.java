package org.metope.bvals.channel;

import org.metope.comm.Communicator;
import org.metope.comm.Request;

/**
 * The messages of one cross-rank channel ({@link CommBuffer} with role {@code SENDER} or {@code
 * RECEIVER}) to or from its peer: one request at a time, the device's staging of it ({@link
 * MessageStaging}), and the arena a message in flight pins, so that the arena does not move its
 * array under the communicator ({@link BufferArena#beginFlight}). The channel decides when; this
 * class only starts, tests and completes the messages, and makes its request at the first one: a
 * channel that travels as a member of a coalesced message never messages alone, and on the MPI
 * device a request holds native memory. Used by one thread at a time, as the request requires.
 */
final class PeerTransfer {
  private static final double[] EMPTY = new double[0];

  private final Communicator communicator;
  private final int peer;
  private final int tag;
  private final int length;
  /** Made at the first message, null before it. */
  private Request request;
  private MessageStaging staging;
  /** The arena whose array a send or posted receive uses until it completes, or null. */
  private BufferArena inFlightArena;
  private boolean receivePosted;

  PeerTransfer(Communicator communicator, int peer, int tag, int length) {
    this.communicator = communicator;
    this.peer = peer;
    this.tag = tag;
    this.length = length;
  }

  /** Starts the send of {@code slice}'s {@code length} values, or of nothing when null. */
  void send(BufferSlice slice) {
    if (slice == null) {
      staging().send(request(), EMPTY, 0, 0, peer, tag);
      return;
    }
    double[] a = slice.array();
    int o = slice.offset();
    MessageStaging wire = staging();
    wire.put(a, o, 0, 0, length);
    wire.send(request(), a, o, length, peer, tag);
    pin(slice.arena());
  }

  /** Whether the last send completed; unpins its arena when it did. Never blocks. */
  boolean sendDone() {
    if (!request().test()) {
      return false;
    }
    unpin();
    return true;
  }

  /** Blocks until the last send completed, and unpins its arena. */
  void awaitSend() {
    request().waitFor();
    unpin();
  }

  /** Whether a send or a posted receive still pins an arena. */
  boolean pinsArena() {
    return inFlightArena != null;
  }

  /** Whether a receive is posted and not yet complete. */
  boolean receivePosted() {
    return receivePosted;
  }

  /** The length of a message from the peer that has arrived (0 for null), or -1 if none has. */
  int probe() {
    return communicator.iprobe(peer, tag);
  }

  /** Posts the receive into {@code target}, or of a null message when {@code target} is null. */
  void postReceive(BufferSlice target) {
    if (target == null) {
      staging().post(request(), EMPTY, 0, 0, peer, tag);
    } else {
      staging().post(request(), target.array(), target.offset(), length, peer, tag);
      pin(target.arena());
    }
    receivePosted = true;
  }

  /**
   * The length of the posted receive's message once it arrived (0 for null), unpinning its arena,
   * or -1 while it has not. Never blocks.
   */
  int tryCompleteReceive() {
    if (!request().test()) {
      return -1;
    }
    receivePosted = false;
    unpin();
    return request().length();
  }

  /** Brings a message of {@code received} values into {@code slice} (null for none). */
  void arrived(BufferSlice slice, int received) {
    if (received == 0) {
      staging.arrived(EMPTY, 0, 0);
      return;
    }
    double[] a = slice.array();
    int o = slice.offset();
    staging.arrived(a, o, received);
    staging.take(a, o, 0, 0, received);
  }

  private void pin(BufferArena arena) {
    inFlightArena = arena;
    arena.beginFlight();
  }

  private void unpin() {
    BufferArena arena = inFlightArena;
    if (arena != null) {
      inFlightArena = null;
      arena.endFlight();
    }
  }

  private Request request() {
    Request r = request;
    if (r == null) {
      r = communicator.newRequest();
      request = r;
    }
    return r;
  }

  private MessageStaging staging() {
    if (staging == null) {
      staging = new MessageStaging(communicator, length);
    }
    return staging;
  }
}
