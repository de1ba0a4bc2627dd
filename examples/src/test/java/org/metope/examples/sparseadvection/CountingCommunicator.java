package org.metope.examples.sparseadvection;

import java.util.concurrent.atomic.AtomicLong;
import org.metope.comm.Communicator;
import org.metope.comm.ForwardingCommunicator;
import org.metope.comm.MessageBuffer;
import org.metope.comm.Request;

/**
 * A communicator that counts the point-to-point messages and values this rank sends, over itself
 * and every duplicate made from it (boundary values, flux corrections and remesh traffic all go
 * through duplicates); collectives are passed on uncounted. Used by the sparse traffic test and
 * the advection device-traffic test.
 */
public final class CountingCommunicator extends ForwardingCommunicator {
  private final AtomicLong messages;
  private final AtomicLong values;

  public CountingCommunicator(Communicator inner) {
    this(inner, new AtomicLong(), new AtomicLong());
  }

  private CountingCommunicator(Communicator inner, AtomicLong messages, AtomicLong values) {
    super(inner);
    this.messages = messages;
    this.values = values;
  }

  /** Messages sent so far by this rank. */
  public long messages() {
    return messages.get();
  }

  /** Bytes of values sent so far by this rank. */
  public long bytes() {
    return values.get() * Double.BYTES;
  }

  @Override
  public Request isend(Request request, double[] array, int offset, int length, int peer,
      int tag) {
    messages.incrementAndGet();
    values.addAndGet(length);
    return inner().isend(request, array, offset, length, peer, tag);
  }

  @Override
  public Request isend(Request request, MessageBuffer buffer, int offset, int length, int peer,
      int tag) {
    messages.incrementAndGet();
    values.addAndGet(length);
    return inner().isend(request, buffer, offset, length, peer, tag);
  }

  @Override
  public Communicator duplicate() {
    return new CountingCommunicator(inner().duplicate(), messages, values);
  }
}
