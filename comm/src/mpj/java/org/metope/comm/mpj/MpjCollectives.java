package org.metope.comm.mpj;

import java.lang.reflect.Array;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import org.metope.comm.CollectiveLinks;
import org.metope.comm.DeviceCollectives;
import org.metope.comm.DeviceWorld;
import org.metope.comm.ReduceOp;
import org.metope.comm.TreeCollectives;

/**
 * The links of the MPJ backend's collectives: blocking messages on a private clone of the
 * communicator, with {@link TreeCollectives} choosing who sends what to whom (binomial trees, at
 * most about 2 log2(P) messages per rank and collective). MPJ's own collectives are not used, for
 * two reasons: every wait here can notice an abort (MPJ's blocking collectives would hang on a
 * dead rank), and reductions give the bits of a rank-order fold exactly like the in-process
 * backend.
 */
final class MpjCollectives implements CollectiveLinks, DeviceCollectives {
  private static final int TAG = 1;

  private final MpjWorld world;
  private final Intracomm comm;
  private final TreeCollectives trees;
  private final int rank;
  private final int size;
  /** The collective in progress, for the message of a stalled wait. */
  private String operation = "";

  MpjCollectives(MpjWorld world, Intracomm comm) {
    this.world = world;
    this.comm = comm;
    this.rank = world.rank();
    this.size = world.size();
    this.trees = new TreeCollectives(this);
  }

  @Override
  public void allreduce(double[] values, ReduceOp op) {
    operation = "allreduce";
    trees.allreduce(values, op);
    world.progressed();
  }

  @Override
  public void allreduce(long[] values, ReduceOp op) {
    operation = "allreduce";
    trees.allreduce(values, op);
    world.progressed();
  }

  @Override
  public void allreduce(long[] values, ReduceOp[] ops) {
    operation = "allreduce";
    trees.allreduce(values, ops);
    world.progressed();
  }

  @Override
  public int[] allgather(int[] local) {
    return (int[]) allgather((Object) local);
  }

  @Override
  public double[] allgather(double[] local) {
    return (double[]) allgather((Object) local);
  }

  private Object allgather(Object local) {
    operation = "allgather";
    Object all = trees.allgather(local);
    world.progressed();
    return all;
  }

  @Override
  public double[] gather(double[] local, int root) {
    operation = "gather";
    double[] all = (double[]) trees.gather(local, root);
    world.progressed();
    return all;
  }

  @Override
  public void broadcast(double[] data, int root) {
    broadcast(data, data.length, root);
  }

  @Override
  public void broadcast(int[] data, int root) {
    broadcast(data, data.length, root);
  }

  private void broadcast(Object data, int n, int root) {
    operation = "broadcast";
    trees.broadcast(data, n, root);
    world.progressed();
  }

  @Override
  public void barrier() {
    operation = "barrier";
    trees.barrier();
    world.progressed();
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
  public void send(Object buffer, int length, int peer) {
    try {
      mpi.Request request = comm.Isend(buffer, 0, length, type(buffer), peer, TAG);
      DeviceWorld.Waiter waiter = world.waiter(() -> waitingFor("sending to", peer));
      while (test(request) == null) {
        waiter.pause();
      }
    } catch (MPIException e) {
      throw failure("send", peer, e);
    }
  }

  @Override
  public void receive(Object buffer, int length, int peer) {
    Datatype type = type(buffer);
    Status status;
    try {
      mpi.Request request = comm.Irecv(buffer, 0, length, type, peer, TAG);
      DeviceWorld.Waiter waiter = world.waiter(() -> waitingFor("receiving from", peer));
      while ((status = test(request)) == null) {
        waiter.pause();
      }
    } catch (MPIException e) {
      throw failure("receive", peer, e);
    }
    int count = count(status, type, peer);
    if (count != length) {
      throw new IllegalStateException("ranks passed different lengths to a collective: rank="
          + rank + ", length=" + length + ", received=" + count);
    }
  }

  @Override
  public Object receiveNew(Object like, int peer) {
    Datatype type = type(like);
    DeviceWorld.Waiter waiter = world.waiter(() -> waitingFor("receiving from", peer));
    Status status;
    while ((status = iprobe(peer)) == null) {
      waiter.pause();
    }
    int length = count(status, type, peer);
    Object buffer = Array.newInstance(like.getClass().getComponentType(), length);
    receive(buffer, length, peer);
    return buffer;
  }

  private static Datatype type(Object buffer) {
    if (buffer instanceof double[]) {
      return MPI.DOUBLE;
    }
    if (buffer instanceof long[]) {
      return MPI.LONG;
    }
    if (buffer instanceof int[]) {
      return MPI.INT;
    }
    throw new IllegalArgumentException("collective buffers are int[], long[] or double[]: buffer="
        + buffer);
  }

  private int count(Status status, Datatype type, int peer) {
    try {
      return status.Get_count(type);
    } catch (MPIException e) {
      throw failure("receive", peer, e);
    }
  }

  private Status iprobe(int peer) {
    try {
      return comm.Iprobe(peer, TAG);
    } catch (MPIException e) {
      throw failure("probe", peer, e);
    }
  }

  /** What a stalled wait waits for, e.g. {@code allgather, receiving from rank 1}. */
  private String waitingFor(String direction, int peer) {
    return operation + ", " + direction + " rank " + peer;
  }

  private Status test(mpi.Request request) {
    try {
      return request.Test();
    } catch (MPIException e) {
      throw failure("collective message", -1, e);
    }
  }

  private IllegalStateException failure(String what, int peer, MPIException e) {
    String text = String.valueOf(e.getMessage());
    String hint = text.contains("is less than length")
        ? " (ranks passed different lengths to a collective)" : "";
    return new IllegalStateException("MPJ Express failed a " + what + " of a collective: rank="
        + rank + ", peer=" + peer + hint + ": " + text, e);
  }
}
