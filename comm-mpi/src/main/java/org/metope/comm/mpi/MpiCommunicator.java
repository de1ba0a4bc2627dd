package org.metope.comm.mpi;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.MemorySegment;
import org.metope.comm.CommArguments;
import org.metope.comm.Communicator;
import org.metope.comm.DeviceCommunicator;
import org.metope.comm.MessageBuffer;
import org.metope.comm.Request;

/**
 * The MPI device: a {@link Communicator} over an MPI communicator of Open MPI's library, called
 * through the Foreign Function and Memory API ({@link MpiLibrary}). Ranks are the processes
 * {@code mpirun} (or {@code srun}) started, one JVM each; {@link MpiRankMain} initialises MPI and
 * installs the world.
 *
 * <p>Point-to-point calls are {@code MPI_Isend}/{@code MPI_Irecv}/{@code MPI_Iprobe} of {@code
 * MPI_DOUBLE}: heap arrays through each request's off-heap staging ({@link MpiRequest}), message
 * buffers in place ({@link MpiMessageBuffer}); collectives are MPI's
 * own non-blocking ones with results as exact as the other devices' ({@link MpiCollectives}). The
 * world is a duplicate of {@code MPI_COMM_WORLD}, so no message of an MPI library used beside
 * Metope can match ours; {@link #duplicate()} is {@code MPI_Comm_idup}.
 *
 * <p><b>Abort.</b> {@link #abort} marks the run aborted on this rank and throws; every later call
 * here throws too. The rank's entry then has the failure printed once and calls {@code MPI_Abort},
 * which ends every rank of the job ({@link MpiFailures}): where the other devices let each rank's
 * next call throw, MPI stops the processes.
 */
final class MpiCommunicator extends DeviceCommunicator {
  private final MpiWorld world;
  private final MpiLibrary mpi;
  private final MemorySegment comm;
  private final int size;

  MpiCommunicator(MpiWorld world, MemorySegment comm) {
    super(world, new MpiCollectives(world, comm));
    this.world = world;
    this.mpi = world.mpi();
    this.comm = comm;
    this.size = world.size();
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
    return staged(false, request, array, offset, length, peer, tag);
  }

  @Override
  public Request irecv(Request request, double[] array, int offset, int capacity, int peer,
      int tag) {
    return staged(true, request, array, offset, capacity, peer, tag);
  }

  private MpiRequest staged(boolean receive, Request request, double[] array, int offset,
      int count, int peer, int tag) {
    MpiRequest r = own(request);
    CommArguments.checkPointToPoint(array, offset, count, peer, tag, size);
    world.checkAbort();
    r.checkRestartable();
    r.startStaged(receive, comm, array, offset, count, peer, tag);
    return r;
  }

  /** A message buffer costs MPI's copy only; an array's message two more, through staging. */
  @Override
  public boolean prefersMessageBuffers() {
    return true;
  }

  @Override
  public MessageBuffer newMessageBuffer(int capacity) {
    world.checkAbort();
    return new MpiMessageBuffer(world, capacity);
  }

  @Override
  public Request isend(Request request, MessageBuffer buffer, int offset, int length, int peer,
      int tag) {
    return inPlace(false, request, buffer, offset, length, peer, tag);
  }

  @Override
  public Request irecv(Request request, MessageBuffer buffer, int offset, int capacity, int peer,
      int tag) {
    return inPlace(true, request, buffer, offset, capacity, peer, tag);
  }

  private MpiRequest inPlace(boolean receive, Request request, MessageBuffer buffer, int offset,
      int count, int peer, int tag) {
    MpiRequest r = own(request);
    MpiMessageBuffer b = own(buffer);
    checkPeerAndTag(peer, tag);
    r.checkRestartable();
    r.startInPlace(receive, comm, b, offset, count, peer, tag);
    return r;
  }

  @Override
  public int iprobe(int peer, int tag) {
    checkPeerAndTag(peer, tag);
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
  public Communicator duplicate() {
    world.checkAbort();
    return new MpiCommunicator(world, world.duplicate(comm));
  }

  private void checkPeerAndTag(int peer, int tag) {
    CommArguments.checkPeer(peer, size);
    CommArguments.checkTag(tag);
    world.checkAbort();
  }

  private MpiMessageBuffer own(MessageBuffer buffer) {
    if (buffer instanceof MpiMessageBuffer b && b.belongsTo(world)) {
      return b;
    }
    throw new IllegalArgumentException("message buffer of another device or rank: buffer="
        + buffer + " (expected one from this communicator's newMessageBuffer)");
  }

  private MpiRequest own(Request request) {
    if (request instanceof MpiRequest r && r.belongsTo(world)) {
      return r;
    }
    throw new IllegalArgumentException("request does not belong to this rank's MPI world: "
        + "request=" + request + ", communicator=" + describe());
  }
}
