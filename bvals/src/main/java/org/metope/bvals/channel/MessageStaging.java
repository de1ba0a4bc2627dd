package org.metope.bvals.channel;

import org.metope.comm.Communicator;
import org.metope.comm.MessageBuffer;
import org.metope.comm.Request;

/**
 * Where one cross-rank message of a channel or a {@link CoalescedMessage} travels from and lands:
 * its slice of the arena itself, or, on a communicator that {@linkplain
 * Communicator#prefersMessageBuffers() prefers message buffers} (the MPI device), a {@link
 * MessageBuffer} of its own that MPI reads and writes in place.
 *
 * <p>Positions are relative to the start of the message: the <em>wire</em> position {@code at}
 * is where a value travels in the message, the <em>home</em> position where it lives in the
 * arena slice, {@code array[offset + home]}. On the arena the wire is the slice itself, so
 * {@link #put} and {@link #take} move values inside the slice only where the two positions
 * differ; on a buffer they copy between slice and buffer. Either way the kernels read and write
 * the arena, and a message's data cross into native memory once, by one bulk copy per run of
 * data that lie back to back, with no staging copy in the communicator.
 *
 * <p>The buffer is allocated at the first message and kept (a zero-capacity one, for null
 * messages, likewise): steady state allocates nothing. A message in flight holds its buffer, so a
 * {@link #put} or {@link #take} before the request is found complete throws (the buffer is busy);
 * the protocols of {@link CommBuffer} and {@link CoalescedMessage} never do that.
 *
 * <p>Not thread safe: its owner's monitor or its one-thread-at-a-time rule covers it.
 */
final class MessageStaging {
  private final Communicator communicator;
  private final int capacity;
  private final boolean buffered;
  /** The message's buffer when {@link #buffered}, allocated at its first message with data. */
  private MessageBuffer buffer;
  /** A buffer of no values for null messages when {@link #buffered}. */
  private MessageBuffer empty;
  /** The array a receive on the arena was posted into; the arena may have a longer copy later. */
  private double[] postedArray;

  /** Staging for messages of up to {@code capacity} values on {@code communicator}. */
  MessageStaging(Communicator communicator, int capacity) {
    this.communicator = communicator;
    this.capacity = capacity;
    this.buffered = communicator.prefersMessageBuffers();
  }

  /** Whether messages travel in a buffer of the communicator rather than in the arena. */
  boolean buffered() {
    return buffered;
  }

  private MessageBuffer buffer(int length) {
    if (length == 0) {
      if (empty == null) {
        empty = communicator.newMessageBuffer(0);
      }
      return empty;
    }
    if (buffer == null) {
      buffer = communicator.newMessageBuffer(capacity);
    }
    return buffer;
  }

  /** Sender: copies {@code length} values from home position {@code home} to wire position {@code at}. */
  void put(double[] array, int offset, int home, int at, int length) {
    if (buffered) {
      if (length > 0) {
        buffer(capacity).copyFrom(array, offset + home, at, length);
      }
    } else if (home != at) {
      System.arraycopy(array, offset + home, array, offset + at, length);
    }
  }

  /** Receiver: copies {@code length} values from wire position {@code at} to home position {@code home}. */
  void take(double[] array, int offset, int at, int home, int length) {
    if (buffered) {
      if (length > 0) {
        buffer.copyTo(at, array, offset + home, length);
      }
    } else if (home != at) {
      System.arraycopy(array, offset + at, array, offset + home, length);
    }
  }

  /** Starts sending wire positions {@code [0, length)} to {@code peer}. */
  void send(Request request, double[] array, int offset, int length, int peer, int tag) {
    if (buffered) {
      communicator.isend(request, buffer(length), 0, length, peer, tag);
    } else {
      communicator.isend(request, array, offset, length, peer, tag);
    }
  }

  /**
   * Starts receiving a message of up to {@code length} values from {@code peer} (0: a null
   * message) into wire positions {@code [0, length)}.
   */
  void post(Request request, double[] array, int offset, int length, int peer, int tag) {
    if (buffered) {
      communicator.irecv(request, buffer(length), 0, length, peer, tag);
    } else {
      postedArray = array;
      communicator.irecv(request, array, offset, length, peer, tag);
    }
  }

  /**
   * Receiver: the message of {@code received} values posted by {@link #post} is complete; on the
   * arena, copies it into {@code array} when the arena was lengthened into a new array since.
   */
  void arrived(double[] array, int offset, int received) {
    double[] posted = postedArray;
    postedArray = null;
    if (posted != null && posted != array && received > 0) {
      System.arraycopy(posted, offset, array, offset, received);
    }
  }
}
