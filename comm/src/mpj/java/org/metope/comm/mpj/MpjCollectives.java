package org.metope.comm.mpj;

import java.lang.reflect.Array;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import org.metope.comm.ReduceOp;
import org.metope.comm.Request;

/**
 * Collectives of the MPJ backend, built on non-blocking point-to-point messages on a private clone
 * of the communicator rather than on MPJ's own collectives, for two reasons: every wait can then
 * notice an abort (MPJ's blocking collectives would hang on a dead rank), and reductions fold the
 * contributions in rank order exactly like the in-process backend, so both give the same bits.
 *
 * <p>The algorithms are linear: rank 0 receives every contribution ({@value #UP_TAG}), folds or
 * concatenates them in rank order, and sends the result to every rank ({@value #DOWN_TAG}). That
 * costs 2(N-1) messages at rank 0, fine for the tens of ranks MPJ runs on; a tree with the same
 * fixed association can replace it without changing results. Every call allocates its buffers.
 */
final class MpjCollectives {
  private static final int UP_TAG = 1;
  private static final int DOWN_TAG = 2;
  private static final int BROADCAST_TAG = 3;

  private final MpjWorld world;
  private final Intracomm comm;
  private final int rank;
  private final int size;
  /** The collective in progress, for the message of a stalled wait. */
  private String operation = "";

  MpjCollectives(MpjWorld world, Intracomm comm) {
    this.world = world;
    this.comm = comm;
    this.rank = world.rank();
    this.size = world.size();
  }

  void allreduce(double[] values, ReduceOp op) {
    operation = "allreduce";
    int n = values.length;
    if (rank == 0) {
      double[] others = new double[(size - 1) * n];
      receiveFixedFromAll(others, n, MPI.DOUBLE);
      for (int i = 0; i < n; i++) {
        double acc = values[i];
        for (int r = 1; r < size; r++) {
          acc = op.apply(acc, others[(r - 1) * n + i]);
        }
        values[i] = acc;
      }
      sendToAll(values, n, MPI.DOUBLE, DOWN_TAG);
    } else {
      send(values, n, MPI.DOUBLE, 0, UP_TAG);
      receiveFixed(values, n, MPI.DOUBLE, 0, DOWN_TAG);
    }
    world.progressed();
  }

  void allreduce(long[] values, ReduceOp op) {
    operation = "allreduce";
    int n = values.length;
    if (rank == 0) {
      long[] others = new long[(size - 1) * n];
      receiveFixedFromAll(others, n, MPI.LONG);
      for (int i = 0; i < n; i++) {
        long acc = values[i];
        for (int r = 1; r < size; r++) {
          acc = op.apply(acc, others[(r - 1) * n + i]);
        }
        values[i] = acc;
      }
      sendToAll(values, n, MPI.LONG, DOWN_TAG);
    } else {
      send(values, n, MPI.LONG, 0, UP_TAG);
      receiveFixed(values, n, MPI.LONG, 0, DOWN_TAG);
    }
    world.progressed();
  }

  int[] allgather(int[] local) {
    return (int[]) allgather(local, local.length, MPI.INT);
  }

  double[] allgather(double[] local) {
    return (double[]) allgather(local, local.length, MPI.DOUBLE);
  }

  /**
   * Allgather of an int[] or double[] ({@code type} says which) of length {@code n}: rank 0
   * collects every rank's part in rank order and sends the whole to all; the result has the type
   * of {@code local}.
   */
  private Object allgather(Object local, int n, Datatype type) {
    operation = "allgather";
    Class<?> element = local.getClass().getComponentType();
    Object all;
    if (rank == 0) {
      Object[] parts = new Object[size];
      parts[0] = local;
      int total = n;
      for (int r = 1; r < size; r++) {
        int length = probe(r, UP_TAG, type);
        parts[r] = Array.newInstance(element, length);
        receiveFixed(parts[r], length, type, r, UP_TAG);
        total += length;
      }
      all = Array.newInstance(element, total);
      int at = 0;
      for (Object part : parts) {
        int length = Array.getLength(part);
        System.arraycopy(part, 0, all, at, length);
        at += length;
      }
      sendToAll(all, total, type, DOWN_TAG);
    } else {
      send(local, n, type, 0, UP_TAG);
      int total = probe(0, DOWN_TAG, type);
      all = Array.newInstance(element, total);
      receiveFixed(all, total, type, 0, DOWN_TAG);
    }
    world.progressed();
    return all;
  }

  /** Broadcast of an int[] or double[] ({@code type} says which) of length {@code n}. */
  void broadcast(Object data, int n, Datatype type, int root) {
    operation = "broadcast";
    if (rank == root) {
      sendToAll(data, n, type, BROADCAST_TAG);
    } else {
      receiveFixed(data, n, type, root, BROADCAST_TAG);
    }
    world.progressed();
  }

  void barrier() {
    operation = "barrier";
    int[] nothing = new int[0];
    if (rank == 0) {
      receiveFixedFromAll(nothing, 0, MPI.INT);
      sendToAll(nothing, 0, MPI.INT, DOWN_TAG);
    } else {
      send(nothing, 0, MPI.INT, 0, UP_TAG);
      receiveFixed(nothing, 0, MPI.INT, 0, DOWN_TAG);
    }
    world.progressed();
  }

  private void send(Object buffer, int n, Datatype type, int peer, int tag) {
    try {
      mpi.Request request = comm.Isend(buffer, 0, n, type, peer, tag);
      MpjWorld.Waiter waiter = world.waiter(() -> waitingFor("sending to", peer));
      while (test(request) == null) {
        waiter.pause();
      }
    } catch (MPIException e) {
      throw failure("send", peer, e);
    }
  }

  private void sendToAll(Object buffer, int n, Datatype type, int tag) {
    mpi.Request[] requests = new mpi.Request[size];
    try {
      for (int r = 0; r < size; r++) {
        if (r != rank) {
          requests[r] = comm.Isend(buffer, 0, n, type, r, tag);
        }
      }
    } catch (MPIException e) {
      throw failure("send", -1, e);
    }
    awaitAll(requests, -1, type);
  }

  /** Receives exactly {@code n} elements from {@code peer}; a different length is misuse. */
  private void receiveFixed(Object buffer, int n, Datatype type, int peer, int tag) {
    mpi.Request[] requests = new mpi.Request[size];
    try {
      requests[peer] = comm.Irecv(buffer, 0, n, type, peer, tag);
    } catch (MPIException e) {
      throw failure("receive", peer, e);
    }
    awaitAll(requests, n, type);
  }

  /** At rank 0: receives {@code n} elements from every other rank r into {@code (r-1)*n}. */
  private void receiveFixedFromAll(Object scratch, int n, Datatype type) {
    mpi.Request[] requests = new mpi.Request[size];
    try {
      for (int r = 1; r < size; r++) {
        requests[r] = comm.Irecv(scratch, (r - 1) * n, n, type, r, UP_TAG);
      }
    } catch (MPIException e) {
      throw failure("receive", -1, e);
    }
    awaitAll(requests, n, type);
  }

  /** Waits for every non-null request; for receives ({@code expected >= 0}) checks the count. */
  private void awaitAll(mpi.Request[] requests, int expected, Datatype type) {
    for (int r = 0; r < requests.length; r++) {
      mpi.Request request = requests[r];
      if (request == null) {
        continue;
      }
      int peer = r;
      MpjWorld.Waiter waiter = world.waiter(
          () -> waitingFor(expected >= 0 ? "receiving from" : "sending to", peer));
      Status status;
      while ((status = test(request)) == null) {
        waiter.pause();
      }
      if (expected >= 0) {
        int count;
        try {
          count = status.Get_count(type);
        } catch (MPIException e) {
          throw failure("receive", r, e);
        }
        if (count != expected) {
          throw new IllegalStateException("ranks passed different lengths to a collective: "
              + "rank=" + rank + ", length=" + expected + ", received=" + count);
        }
      }
    }
  }

  private int probe(int peer, int tag, Datatype type) {
    MpjWorld.Waiter waiter = world.waiter(() -> waitingFor("receiving from", peer));
    Status status;
    while ((status = iprobe(peer, tag)) == null) {
      waiter.pause();
    }
    try {
      return status.Get_count(type);
    } catch (MPIException e) {
      throw failure("probe", peer, e);
    }
  }

  private Status iprobe(int peer, int tag) {
    try {
      return comm.Iprobe(peer, tag);
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
