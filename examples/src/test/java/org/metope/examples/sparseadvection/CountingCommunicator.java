package org.metope.examples.sparseadvection;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.metope.comm.Communicator;
import org.metope.comm.ReduceOp;
import org.metope.comm.Request;

/**
 * A communicator that counts the point-to-point messages and values this rank sends, over itself
 * and every duplicate made from it (boundary values, flux corrections and remesh traffic all go
 * through duplicates); collectives are passed on uncounted. Used by the sparse traffic test and
 * the advection device-traffic test.
 */
public final class CountingCommunicator implements Communicator {
  private final Communicator inner;
  private final AtomicLong messages;
  private final AtomicLong values;

  public CountingCommunicator(Communicator inner) {
    this(inner, new AtomicLong(), new AtomicLong());
  }

  private CountingCommunicator(Communicator inner, AtomicLong messages, AtomicLong values) {
    this.inner = inner;
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
  public int rank() {
    return inner.rank();
  }

  @Override
  public int size() {
    return inner.size();
  }

  @Override
  public String describe() {
    return inner.describe();
  }

  @Override
  public Request newRequest() {
    return inner.newRequest();
  }

  @Override
  public Request isend(Request request, double[] array, int offset, int length, int peer,
      int tag) {
    messages.incrementAndGet();
    values.addAndGet(length);
    return inner.isend(request, array, offset, length, peer, tag);
  }

  @Override
  public Request irecv(Request request, double[] array, int offset, int capacity, int peer,
      int tag) {
    return inner.irecv(request, array, offset, capacity, peer, tag);
  }

  @Override
  public int iprobe(int peer, int tag) {
    return inner.iprobe(peer, tag);
  }

  @Override
  public double allreduce(double value, ReduceOp op) {
    return inner.allreduce(value, op);
  }

  @Override
  public long allreduce(long value, ReduceOp op) {
    return inner.allreduce(value, op);
  }

  @Override
  public void allreduce(double[] v, ReduceOp op) {
    inner.allreduce(v, op);
  }

  @Override
  public void allreduce(long[] v, ReduceOp op) {
    inner.allreduce(v, op);
  }

  @Override
  public void allreduce(long[] v, ReduceOp[] ops) {
    inner.allreduce(v, ops);
  }

  @Override
  public int[] allgather(int[] local) {
    return inner.allgather(local);
  }

  @Override
  public double[] gather(double[] local, int root) {
    return inner.gather(local, root);
  }

  @Override
  public double[] allgather(double[] local) {
    return inner.allgather(local);
  }

  @Override
  public void broadcast(double[] data, int root) {
    inner.broadcast(data, root);
  }

  @Override
  public void broadcast(int[] data, int root) {
    inner.broadcast(data, root);
  }

  @Override
  public void barrier() {
    inner.barrier();
  }

  @Override
  public void setStallTimeout(Duration timeout) {
    inner.setStallTimeout(timeout);
  }

  @Override
  public Communicator duplicate() {
    return new CountingCommunicator(inner.duplicate(), messages, values);
  }

  @Override
  public void abort(String reason) {
    inner.abort(reason);
  }
}
