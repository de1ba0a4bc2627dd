package org.metope.bvals;

import java.util.ArrayList;
import java.util.List;
import org.metope.comm.Communicator;
import org.metope.comm.ReduceOp;
import org.metope.comm.Request;

/**
 * A point-to-point communicator whose requests complete only when the test says so, and whose
 * probe answers what the test set: it lets tests hold a send or a receive in flight, which the
 * in-process backend never does for sends. Collectives are not supported.
 */
public final class ScriptedCommunicator implements Communicator {
  /** A request completed by {@link #complete(int)}; records what was started on it. */
  public static final class ScriptedRequest implements Request {
    public boolean active;
    public boolean complete;
    public int length = -1;
    public boolean send;
    public double[] array;
    public int offset;
    public int count;
    public int peer;
    public int tag;

    public void start(boolean isSend, double[] a, int off, int n, int p, int t) {
      if (active) {
        throw new IllegalStateException("request still in flight");
      }
      active = true;
      complete = false;
      length = -1;
      send = isSend;
      array = a;
      offset = off;
      count = n;
      peer = p;
      tag = t;
    }

    /** Completes the operation with a message of {@code messageLength} elements. */
    public void complete(int messageLength) {
      active = false;
      complete = true;
      length = messageLength;
    }

    @Override
    public boolean test() {
      return complete;
    }

    @Override
    public void waitFor() {
      if (!complete) {
        complete(send ? count : 0);
      }
    }

    @Override
    public int length() {
      return complete ? length : -1;
    }

    @Override
    public boolean isActive() {
      return active;
    }
  }

  private final int rank;
  private final int size;
  public final List<ScriptedRequest> requests = new ArrayList<>();
  public int probeAnswer = -1;
  public int sends;
  public int receives;
  public int probes;

  public ScriptedCommunicator(int rank, int size) {
    this.rank = rank;
    this.size = size;
  }

  /** The last request created (a CommBuffer makes one at its first message). */
  ScriptedRequest lastRequest() {
    return requests.get(requests.size() - 1);
  }

  @Override
  public int rank() {
    return rank;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public String describe() {
    return "scripted, rank " + rank + " of " + size;
  }

  @Override
  public Request newRequest() {
    ScriptedRequest r = new ScriptedRequest();
    requests.add(r);
    return r;
  }

  @Override
  public Request isend(Request request, double[] array, int offset, int length, int peer,
      int tag) {
    sends++;
    ((ScriptedRequest) request).start(true, array, offset, length, peer, tag);
    return request;
  }

  @Override
  public Request irecv(Request request, double[] array, int offset, int capacity, int peer,
      int tag) {
    receives++;
    ((ScriptedRequest) request).start(false, array, offset, capacity, peer, tag);
    return request;
  }

  @Override
  public int iprobe(int peer, int tag) {
    probes++;
    return probeAnswer;
  }

  @Override
  public double allreduce(double value, ReduceOp op) {
    throw new UnsupportedOperationException();
  }

  @Override
  public long allreduce(long value, ReduceOp op) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void allreduce(double[] values, ReduceOp op) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void allreduce(long[] values, ReduceOp op) {
    throw new UnsupportedOperationException();
  }

  @Override
  public int[] allgather(int[] local) {
    throw new UnsupportedOperationException();
  }

  @Override
  public double[] allgather(double[] local) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void broadcast(double[] data, int root) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void broadcast(int[] data, int root) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void barrier() {
    throw new UnsupportedOperationException();
  }

  @Override
  public Communicator duplicate() {
    throw new UnsupportedOperationException();
  }

  @Override
  public void abort(String reason) {
    throw new UnsupportedOperationException();
  }
}
