package org.metope.comm.mpj;

import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import org.metope.comm.DeviceWorld;
import org.metope.comm.Request;

/**
 * A reusable request of the MPJ backend wrapping the {@code mpi.Request} of its current
 * operation. Completion is found by {@code Test()}; waiting polls (see {@link MpjWorld#waiter}) so
 * that an abort interrupts it.
 */
final class MpjRequest implements Request {
  private final MpjWorld world;
  private mpi.Request pending;
  private boolean started;
  private boolean receive;
  private int length = -1;
  private int peer;
  private int tag;
  private int capacity;

  MpjRequest(MpjWorld world) {
    this.world = world;
  }

  boolean belongsTo(MpjWorld w) {
    return world == w;
  }

  /** Checks the request may be restarted; call before starting the MPJ operation. */
  void checkRestartable() {
    if (pending != null) {
      throw new IllegalStateException("request still in flight: rank=" + world.rank() + ", peer="
          + peer + ", tag=" + tag);
    }
  }

  void start(mpi.Request operation, boolean isReceive, int elements, int operationPeer,
      int operationTag) {
    pending = operation;
    started = true;
    receive = isReceive;
    capacity = elements;
    peer = operationPeer;
    tag = operationTag;
    length = -1;
  }

  @Override
  public boolean test() {
    world.checkAbort();
    if (!started) {
      throw new IllegalStateException("request was never started: rank=" + world.rank());
    }
    return done();
  }

  /** Polls MPJ once: whether the operation is complete. */
  private boolean done() {
    mpi.Request operation = pending;
    if (operation == null) {
      return true;
    }
    Status status;
    try {
      status = operation.Test();
    } catch (MPIException e) {
      pending = null;
      throw failure(e);
    }
    if (status == null) {
      return false;
    }
    try {
      length = receive ? status.Get_count(MPI.DOUBLE) : capacity;
    } catch (MPIException e) {
      pending = null;
      throw failure(e);
    }
    pending = null;
    world.progressed();
    return true;
  }

  @Override
  public void waitFor() {
    if (!test()) {
      DeviceWorld.Waiter waiter = world.waiter(null);
      while (!done()) {
        waiter.pause();
      }
    }
  }

  @Override
  public int length() {
    return pending == null ? length : -1;
  }

  @Override
  public boolean isActive() {
    return pending != null;
  }

  private IllegalStateException failure(MPIException e) {
    String text = String.valueOf(e.getMessage());
    if (receive && text.contains("is less than length")) {
      return new IllegalStateException("received message longer than the receive's capacity: "
          + "capacity=" + capacity + ", peer=" + peer + ", tag=" + tag + ", rank=" + world.rank()
          + " (MPJ: " + text + ")", e);
    }
    return new IllegalStateException("MPJ Express failed a " + (receive ? "receive" : "send")
        + ": peer=" + peer + ", tag=" + tag + ", rank=" + world.rank() + ": " + text, e);
  }

  @Override
  public String toString() {
    return "MpjRequest[rank=" + world.rank() + ", peer=" + peer + ", tag=" + tag + ", active="
        + isActive() + ", length=" + length + "]";
  }
}
