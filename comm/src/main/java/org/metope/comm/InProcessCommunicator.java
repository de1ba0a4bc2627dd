package org.metope.comm;

import java.time.Duration;
import org.metope.comm.CollectiveRendezvous.Kind;

/**
 * One rank's view of an {@link InProcessCluster} communicator: point-to-point through the
 * receivers' {@link Inbox}es, collectives through the communicator's {@link CollectiveRendezvous}.
 * Sends are buffered (copied at once) and so complete immediately, which MPI allows.
 */
final class InProcessCommunicator implements Communicator {
  private final InProcessCluster cluster;
  private final int id;
  private final int rank;
  private final int size;
  private final CollectiveRendezvous collectives;
  private int duplicatesMade;

  InProcessCommunicator(InProcessCluster cluster, int id, int rank) {
    this.cluster = cluster;
    this.id = id;
    this.rank = rank;
    this.size = cluster.size();
    this.collectives = cluster.rendezvous(id);
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
    return cluster.describe() + ", communicator " + id;
  }

  @Override
  public Request newRequest() {
    return new InProcessRequest(cluster, rank);
  }

  @Override
  public Request isend(Request request, double[] array, int offset, int length, int peer,
      int tag) {
    InProcessRequest r = own(request);
    CommArguments.checkPointToPoint(array, offset, length, peer, tag, size);
    cluster.checkAbort();
    cluster.inbox(peer).deliver(Inbox.key(id, rank, tag), array, offset, length);
    r.startSend(length, peer, tag);
    cluster.progressed(rank);
    return r;
  }

  @Override
  public Request irecv(Request request, double[] array, int offset, int capacity, int peer,
      int tag) {
    InProcessRequest r = own(request);
    CommArguments.checkPointToPoint(array, offset, capacity, peer, tag, size);
    cluster.checkAbort();
    r.startReceive(array, offset, capacity, peer, tag);
    cluster.inbox(rank).post(Inbox.key(id, peer, tag), r);
    return r;
  }

  @Override
  public int iprobe(int peer, int tag) {
    CommArguments.checkPeer(peer, size);
    CommArguments.checkTag(tag);
    cluster.checkAbort();
    return cluster.inbox(rank).probe(Inbox.key(id, peer, tag));
  }

  @Override
  public double allreduce(double value, ReduceOp op) {
    CommArguments.checkNotNull(op, "op");
    CollectiveRendezvous rv = collectives;
    rv.enter(rank);
    rv.doubleSlot(rank, 1)[0] = value;
    rv.arrive(rank, CollectiveRendezvous.signature(Kind.ALLREDUCE_DOUBLE, op, -1, 1));
    double result = foldDoubles(0, op);
    rv.depart();
    return result;
  }

  @Override
  public long allreduce(long value, ReduceOp op) {
    CommArguments.checkNotNull(op, "op");
    CollectiveRendezvous rv = collectives;
    rv.enter(rank);
    rv.longSlot(rank, 1)[0] = value;
    rv.arrive(rank, CollectiveRendezvous.signature(Kind.ALLREDUCE_LONG, op, -1, 1));
    long result = foldLongs(0, op);
    rv.depart();
    return result;
  }

  @Override
  public void allreduce(double[] values, ReduceOp op) {
    CommArguments.checkNotNull(values, "values");
    CommArguments.checkNotNull(op, "op");
    CollectiveRendezvous rv = collectives;
    int n = values.length;
    rv.enter(rank);
    System.arraycopy(values, 0, rv.doubleSlot(rank, n), 0, n);
    rv.arrive(rank, CollectiveRendezvous.signature(Kind.ALLREDUCE_DOUBLE, op, -1, n));
    for (int i = 0; i < n; i++) {
      values[i] = foldDoubles(i, op);
    }
    rv.depart();
  }

  @Override
  public void allreduce(long[] values, ReduceOp op) {
    CommArguments.checkNotNull(values, "values");
    CommArguments.checkNotNull(op, "op");
    allreduceLongs(values, op, null, Kind.ALLREDUCE_LONG);
  }

  @Override
  public void allreduce(long[] values, ReduceOp[] ops) {
    CommArguments.checkOps(values, ops);
    allreduceLongs(values, null, ops, Kind.ALLREDUCE_LONG_OPS);
  }

  /** Both long array allreduces: element {@code i} folds with {@code op}, or {@code ops[i]}. */
  private void allreduceLongs(long[] values, ReduceOp op, ReduceOp[] ops, Kind kind) {
    CollectiveRendezvous rv = collectives;
    int n = values.length;
    rv.enter(rank);
    System.arraycopy(values, 0, rv.longSlot(rank, n), 0, n);
    rv.arrive(rank, CollectiveRendezvous.signature(kind, op, -1, n));
    for (int i = 0; i < n; i++) {
      values[i] = foldLongs(i, op != null ? op : ops[i]);
    }
    rv.depart();
  }

  /** Element {@code i} of every rank's double slot, folded with {@code op} in rank order. */
  private double foldDoubles(int i, ReduceOp op) {
    CollectiveRendezvous rv = collectives;
    double result = rv.doubles(0)[i];
    for (int r = 1; r < size; r++) {
      result = op.apply(result, rv.doubles(r)[i]);
    }
    return result;
  }

  /** Element {@code i} of every rank's long slot, folded with {@code op} in rank order. */
  private long foldLongs(int i, ReduceOp op) {
    CollectiveRendezvous rv = collectives;
    long result = rv.longs(0)[i];
    for (int r = 1; r < size; r++) {
      result = op.apply(result, rv.longs(r)[i]);
    }
    return result;
  }

  @Override
  public int[] allgather(int[] local) {
    CommArguments.checkNotNull(local, "local");
    return (int[]) allgather(local, local.length, Kind.ALLGATHER_INT);
  }

  @Override
  public double[] allgather(double[] local) {
    CommArguments.checkNotNull(local, "local");
    return (double[]) allgather(local, local.length, Kind.ALLGATHER_DOUBLE);
  }

  /**
   * Both allgathers: {@code local} holds {@code n} ints or doubles, as {@code kind} says, and the
   * result is an array of the same type with every rank's values in rank order.
   */
  private Object allgather(Object local, int n, Kind kind) {
    boolean ints = kind == Kind.ALLGATHER_INT;
    CollectiveRendezvous rv = collectives;
    rv.enter(rank);
    System.arraycopy(local, 0, ints ? rv.intSlot(rank, n) : rv.doubleSlot(rank, n), 0, n);
    rv.arrive(rank, CollectiveRendezvous.signature(kind, null, -1, 0));
    int total = 0;
    for (int r = 0; r < size; r++) {
      total += rv.length(r);
    }
    Object all = ints ? new int[total] : new double[total];
    int at = 0;
    for (int r = 0; r < size; r++) {
      System.arraycopy(ints ? rv.ints(r) : rv.doubles(r), 0, all, at, rv.length(r));
      at += rv.length(r);
    }
    rv.depart();
    return all;
  }

  @Override
  public double[] gather(double[] local, int root) {
    CommArguments.checkNotNull(local, "local");
    CommArguments.checkRoot(root, size);
    CollectiveRendezvous rv = collectives;
    int n = local.length;
    rv.enter(rank);
    System.arraycopy(local, 0, rv.doubleSlot(rank, n), 0, n);
    rv.arrive(rank, CollectiveRendezvous.signature(Kind.GATHER_DOUBLE, null, root, 0));
    double[] all = new double[0];
    if (rank == root) {
      int total = 0;
      for (int r = 0; r < size; r++) {
        total += rv.length(r);
      }
      all = new double[total];
      for (int r = 0, at = 0; r < size; at += rv.length(r), r++) {
        System.arraycopy(rv.doubles(r), 0, all, at, rv.length(r));
      }
    }
    rv.depart();
    return all;
  }

  @Override
  public void broadcast(double[] data, int root) {
    CommArguments.checkNotNull(data, "data");
    broadcast(data, data.length, root, Kind.BROADCAST_DOUBLE);
  }

  @Override
  public void broadcast(int[] data, int root) {
    CommArguments.checkNotNull(data, "data");
    broadcast(data, data.length, root, Kind.BROADCAST_INT);
  }

  /** Both broadcasts: {@code data} holds {@code n} doubles or ints, as {@code kind} says. */
  private void broadcast(Object data, int n, int root, Kind kind) {
    CommArguments.checkRoot(root, size);
    boolean ints = kind == Kind.BROADCAST_INT;
    CollectiveRendezvous rv = collectives;
    rv.enter(rank);
    Object slot = ints ? rv.intSlot(rank, n) : rv.doubleSlot(rank, n);
    if (rank == root) {
      System.arraycopy(data, 0, slot, 0, n);
    }
    rv.arrive(rank, CollectiveRendezvous.signature(kind, null, root, n));
    if (rank != root) {
      System.arraycopy(ints ? rv.ints(root) : rv.doubles(root), 0, data, 0, n);
    }
    rv.depart();
  }

  @Override
  public void barrier() {
    CollectiveRendezvous rv = collectives;
    rv.enter(rank);
    rv.arrive(rank, CollectiveRendezvous.signature(Kind.BARRIER, null, -1, 0));
    rv.depart();
  }

  @Override
  public Communicator duplicate() {
    cluster.checkAbort();
    int duplicateId = cluster.duplicateId(id, duplicatesMade++);
    return new InProcessCommunicator(cluster, duplicateId, rank);
  }

  @Override
  public void setStallTimeout(Duration timeout) {
    cluster.setStallTimeout(timeout);
  }

  @Override
  public Duration stallTimeout() {
    return Duration.ofNanos(cluster.stallTimeoutNanos());
  }

  @Override
  public void abort(String reason) {
    cluster.abort(rank, reason == null ? "(no reason given)" : reason);
    cluster.checkAbort();
    throw new IllegalStateException("unreachable: abort did not mark the cluster aborted");
  }

  private InProcessRequest own(Request request) {
    if (request instanceof InProcessRequest r && r.belongsTo(cluster)) {
      return r;
    }
    throw new IllegalArgumentException("request does not belong to this communicator's cluster: "
        + "request=" + request + ", communicator=" + describe());
  }

  @Override
  public String toString() {
    return "InProcessCommunicator[rank=" + rank + ", " + describe() + "]";
  }
}
