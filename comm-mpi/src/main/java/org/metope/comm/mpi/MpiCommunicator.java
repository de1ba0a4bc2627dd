package org.metope.comm.mpi;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import org.metope.comm.CommArguments;
import org.metope.comm.Communicator;
import org.metope.comm.ReduceOp;
import org.metope.comm.Request;

/**
 * The MPI device: a {@link Communicator} over an MPI communicator of Open MPI's library, called
 * through the Foreign Function and Memory API ({@link MpiLibrary}). Ranks are the processes
 * {@code mpirun} (or {@code srun}) started, one JVM each; {@link MpiRankMain} initialises MPI and
 * installs the world.
 *
 * <p>Point-to-point calls are {@code MPI_Isend}/{@code MPI_Irecv}/{@code MPI_Iprobe} of {@code
 * MPI_DOUBLE} through each request's off-heap staging ({@link MpiRequest}); collectives are MPI's
 * own non-blocking ones with results as exact as the other devices' ({@link MpiCollectives}). The
 * world is a duplicate of {@code MPI_COMM_WORLD}, so no message of an MPI library used beside
 * Metope can match ours; {@link #duplicate()} is {@code MPI_Comm_idup}.
 *
 * <p><b>Abort.</b> {@link #abort} marks the run aborted on this rank and throws; every later call
 * here throws too. The rank's entry then has the failure printed once and calls {@code MPI_Abort},
 * which ends every rank of the job ({@link MpiFailures}): where the other devices let each rank's
 * next call throw, MPI stops the processes.
 */
final class MpiCommunicator implements Communicator {
  private final MpiWorld world;
  private final MpiLibrary mpi;
  private final MemorySegment comm;
  private final MpiCollectives collectives;
  private final int rank;
  private final int size;

  MpiCommunicator(MpiWorld world, MemorySegment comm) {
    this.world = world;
    this.mpi = world.mpi();
    this.comm = comm;
    this.collectives = new MpiCollectives(world, comm);
    this.rank = world.rank();
    this.size = world.size();
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
    return world.description() + ", " + size + (size == 1 ? " rank" : " ranks");
  }

  @Override
  public Request newRequest() {
    return new MpiRequest(world);
  }

  @Override
  public Request isend(Request request, double[] array, int offset, int length, int peer,
      int tag) {
    MpiRequest r = own(request);
    CommArguments.checkPointToPoint(array, offset, length, peer, tag, size);
    world.checkAbort();
    r.checkRestartable();
    r.startSend(comm, array, offset, length, peer, tag);
    return r;
  }

  @Override
  public Request irecv(Request request, double[] array, int offset, int capacity, int peer,
      int tag) {
    MpiRequest r = own(request);
    CommArguments.checkPointToPoint(array, offset, capacity, peer, tag, size);
    world.checkAbort();
    r.checkRestartable();
    r.startReceive(comm, array, offset, capacity, peer, tag);
    return r;
  }

  @Override
  public int iprobe(int peer, int tag) {
    CommArguments.checkPeer(peer, size);
    CommArguments.checkTag(tag);
    world.checkAbort();
    MemorySegment cells = world.probeCells();
    MemorySegment flag = cells.asSlice(0, 4);
    MemorySegment count = cells.asSlice(4, 4);
    MemorySegment status = cells.asSlice(8, MpiLibrary.STATUS_BYTES);
    mpi.check(mpi.iprobe(peer, tag, comm, flag, status), "MPI_Iprobe");
    if (flag.get(JAVA_INT, 0) == 0) {
      return -1;
    }
    mpi.check(mpi.getCount(status, mpi.typeDouble, count), "MPI_Get_count");
    return count.get(JAVA_INT, 0);
  }

  @Override
  public double allreduce(double value, ReduceOp op) {
    double[] one = {value};
    allreduce(one, op);
    return one[0];
  }

  @Override
  public long allreduce(long value, ReduceOp op) {
    long[] one = {value};
    allreduce(one, op);
    return one[0];
  }

  @Override
  public void allreduce(double[] values, ReduceOp op) {
    CommArguments.checkNotNull(values, "values");
    CommArguments.checkNotNull(op, "op");
    world.checkAbort();
    collectives.allreduce(values, op);
  }

  @Override
  public void allreduce(long[] values, ReduceOp op) {
    CommArguments.checkNotNull(values, "values");
    CommArguments.checkNotNull(op, "op");
    world.checkAbort();
    collectives.allreduce(values, op);
  }

  @Override
  public int[] allgather(int[] local) {
    CommArguments.checkNotNull(local, "local");
    world.checkAbort();
    return collectives.allgather(local);
  }

  @Override
  public double[] allgather(double[] local) {
    CommArguments.checkNotNull(local, "local");
    world.checkAbort();
    return collectives.allgather(local);
  }

  @Override
  public double[] gather(double[] local, int root) {
    CommArguments.checkNotNull(local, "local");
    CommArguments.checkRoot(root, size);
    world.checkAbort();
    return collectives.gather(local, root);
  }

  @Override
  public void broadcast(double[] data, int root) {
    CommArguments.checkNotNull(data, "data");
    CommArguments.checkRoot(root, size);
    world.checkAbort();
    collectives.broadcast(data, root);
  }

  @Override
  public void broadcast(int[] data, int root) {
    CommArguments.checkNotNull(data, "data");
    CommArguments.checkRoot(root, size);
    world.checkAbort();
    collectives.broadcast(data, root);
  }

  @Override
  public void barrier() {
    world.checkAbort();
    collectives.barrier();
  }

  @Override
  public void setStallTimeout(Duration timeout) {
    CommArguments.checkNotNull(timeout, "timeout");
    world.setStallTimeout(timeout);
  }

  @Override
  public Duration stallTimeout() {
    return world.stallTimeout();
  }

  @Override
  public Communicator duplicate() {
    world.checkAbort();
    return new MpiCommunicator(world, world.duplicate(comm));
  }

  @Override
  public void abort(String reason) {
    throw world.abort(reason == null ? "(no reason given)" : reason);
  }

  private MpiRequest own(Request request) {
    if (request instanceof MpiRequest r && r.belongsTo(world)) {
      return r;
    }
    throw new IllegalArgumentException("request does not belong to this rank's MPI world: "
        + "request=" + request + ", communicator=" + describe());
  }

  @Override
  public String toString() {
    return "MpiCommunicator[rank=" + rank + ", " + describe() + "]";
  }
}
