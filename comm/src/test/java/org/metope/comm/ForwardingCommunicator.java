package org.metope.comm;

import java.time.Duration;

/**
 * A communicator that passes every call to another, for test doubles that change or count a few
 * calls (message counters, direct message buffers): a subclass overrides what it changes and says
 * how its duplicates wrap the inner communicator's ({@link #duplicate()}).
 */
public abstract class ForwardingCommunicator implements Communicator {
  private final Communicator inner;

  /** Forwards to {@code inner}. */
  protected ForwardingCommunicator(Communicator inner) {
    if (inner == null) {
      throw new IllegalArgumentException("inner communicator is null");
    }
    this.inner = inner;
  }

  /** The communicator the calls go to. */
  protected final Communicator inner() {
    return inner;
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
    return inner.isend(request, array, offset, length, peer, tag);
  }

  @Override
  public Request irecv(Request request, double[] array, int offset, int capacity, int peer,
      int tag) {
    return inner.irecv(request, array, offset, capacity, peer, tag);
  }

  @Override
  public boolean prefersMessageBuffers() {
    return inner.prefersMessageBuffers();
  }

  @Override
  public MessageBuffer newMessageBuffer(int capacity) {
    return inner.newMessageBuffer(capacity);
  }

  @Override
  public Request isend(Request request, MessageBuffer buffer, int offset, int length, int peer,
      int tag) {
    return inner.isend(request, buffer, offset, length, peer, tag);
  }

  @Override
  public Request irecv(Request request, MessageBuffer buffer, int offset, int capacity, int peer,
      int tag) {
    return inner.irecv(request, buffer, offset, capacity, peer, tag);
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
  public void allreduce(double[] values, ReduceOp op) {
    inner.allreduce(values, op);
  }

  @Override
  public void allreduce(long[] values, ReduceOp op) {
    inner.allreduce(values, op);
  }

  @Override
  public void allreduce(long[] values, ReduceOp[] ops) {
    inner.allreduce(values, ops);
  }

  @Override
  public int[] allgather(int[] local) {
    return inner.allgather(local);
  }

  @Override
  public double[] allgather(double[] local) {
    return inner.allgather(local);
  }

  @Override
  public double[] gather(double[] local, int root) {
    return inner.gather(local, root);
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
  public Duration stallTimeout() {
    return inner.stallTimeout();
  }

  @Override
  public void abort(String reason) {
    inner.abort(reason);
  }
}
