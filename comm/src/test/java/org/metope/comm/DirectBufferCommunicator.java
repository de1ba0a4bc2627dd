package org.metope.comm;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A communicator whose {@link MessageBuffer}s behave as the MPI device's on any backend: it
 * {@linkplain #prefersMessageBuffers() prefers} them, they are {@linkplain MessageBuffer#isDirect()
 * direct} (Java's reads and writes throw while a send or receive on them is in flight) and their
 * values are not reachable as an array. It wraps another communicator (in-process ranks in tests),
 * moves the messages through it, and counts the messages of each kind, so a test can show that a
 * caller sends from message buffers and never from heap arrays. Duplicates share the counts.
 */
public final class DirectBufferCommunicator extends ForwardingCommunicator {
  /** Messages started, by kind, over this communicator and its duplicates. */
  public static final class Counts {
    private final AtomicLong arrayMessages = new AtomicLong();
    private final AtomicLong bufferMessages = new AtomicLong();

    /** Sends and receives of heap arrays started so far. */
    public long arrayMessages() {
      return arrayMessages.get();
    }

    /** Sends and receives of message buffers started so far. */
    public long bufferMessages() {
      return bufferMessages.get();
    }
  }

  private final Counts counts;

  /** Wraps {@code inner} with fresh counts. */
  public DirectBufferCommunicator(Communicator inner) {
    this(inner, new Counts());
  }

  private DirectBufferCommunicator(Communicator inner, Counts counts) {
    super(inner);
    this.counts = counts;
  }

  /** The counts of this communicator and its duplicates. */
  public Counts counts() {
    return counts;
  }

  /** A direct buffer over an array that only this communicator's messages touch. */
  private static final class DirectBuffer extends MessageBuffer {
    private final double[] values;
    private int operationsInFlight;

    DirectBuffer(int capacity) {
      values = new double[capacity];
    }

    private synchronized void checkIdle() {
      if (operationsInFlight != 0) {
        throw new IllegalStateException("direct test buffer touched while " + operationsInFlight
            + " operation(s) on it are in flight");
      }
    }

    synchronized void held() {
      operationsInFlight++;
    }

    synchronized void released() {
      operationsInFlight--;
    }

    @Override
    public int capacity() {
      return values.length;
    }

    @Override
    public double get(int index) {
      checkIdle();
      return values[index];
    }

    @Override
    public void set(int index, double value) {
      checkIdle();
      values[index] = value;
    }

    @Override
    public void copyFrom(double[] source, int sourceOffset, int offset, int length) {
      checkIdle();
      checkRange(values.length, offset, length);
      System.arraycopy(source, sourceOffset, values, offset, length);
    }

    @Override
    public void copyTo(int offset, double[] target, int targetOffset, int length) {
      checkIdle();
      checkRange(values.length, offset, length);
      System.arraycopy(values, offset, target, targetOffset, length);
    }

    @Override
    public boolean isDirect() {
      return true;
    }
  }

  /** The inner communicator's request, releasing its buffer once found complete. */
  private static final class HoldingRequest implements Request {
    private final Request inner;
    private DirectBuffer held;

    HoldingRequest(Request inner) {
      this.inner = inner;
    }

    Request start(DirectBuffer buffer) {
      if (inner.isActive()) {
        throw new IllegalStateException("request still in flight");
      }
      held = buffer;
      if (buffer != null) {
        buffer.held();
      }
      return inner;
    }

    private void release() {
      if (held != null) {
        held.released();
        held = null;
      }
    }

    @Override
    public boolean test() {
      boolean done = inner.test();
      if (done) {
        release();
      }
      return done;
    }

    @Override
    public void waitFor() {
      inner.waitFor();
      release();
    }

    @Override
    public int length() {
      return inner.length();
    }

    @Override
    public boolean isActive() {
      return inner.isActive();
    }
  }

  private static HoldingRequest own(Request request) {
    if (request instanceof HoldingRequest r) {
      return r;
    }
    throw new IllegalArgumentException("request of another communicator: " + request);
  }

  private static DirectBuffer own(MessageBuffer buffer) {
    if (buffer instanceof DirectBuffer b) {
      return b;
    }
    throw new IllegalArgumentException("message buffer of another communicator: " + buffer);
  }

  @Override
  public boolean prefersMessageBuffers() {
    return true;
  }

  @Override
  public MessageBuffer newMessageBuffer(int capacity) {
    return new DirectBuffer(capacity);
  }

  @Override
  public Request newRequest() {
    return new HoldingRequest(inner().newRequest());
  }

  @Override
  public Request isend(Request request, double[] array, int offset, int length, int peer,
      int tag) {
    return start(false, request, null, array, offset, length, peer, tag);
  }

  @Override
  public Request irecv(Request request, double[] array, int offset, int capacity, int peer,
      int tag) {
    return start(true, request, null, array, offset, capacity, peer, tag);
  }

  @Override
  public Request isend(Request request, MessageBuffer buffer, int offset, int length, int peer,
      int tag) {
    DirectBuffer b = own(buffer);
    return start(false, request, b, b.values, offset, length, peer, tag);
  }

  @Override
  public Request irecv(Request request, MessageBuffer buffer, int offset, int capacity, int peer,
      int tag) {
    DirectBuffer b = own(buffer);
    return start(true, request, b, b.values, offset, capacity, peer, tag);
  }

  /**
   * Counts and starts a send or receive of {@code values[offset, offset + count)} on the inner
   * communicator: the array of a heap message, or the values of {@code buffer}, which the request
   * holds until found complete.
   */
  private Request start(boolean receive, Request request, DirectBuffer buffer, double[] values,
      int offset, int count, int peer, int tag) {
    if (buffer != null) {
      MessageBuffer.checkRange(values.length, offset, count);
    }
    (buffer == null ? counts.arrayMessages : counts.bufferMessages).incrementAndGet();
    Request started = own(request).start(buffer);
    if (receive) {
      inner().irecv(started, values, offset, count, peer, tag);
    } else {
      inner().isend(started, values, offset, count, peer, tag);
    }
    return request;
  }

  @Override
  public String describe() {
    return inner().describe() + ", direct message buffers";
  }

  @Override
  public Communicator duplicate() {
    return new DirectBufferCommunicator(inner().duplicate(), counts);
  }
}
