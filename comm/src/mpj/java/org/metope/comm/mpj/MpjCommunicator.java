package org.metope.comm.mpj;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import org.metope.comm.CommAbortedException;
import org.metope.comm.CommArguments;
import org.metope.comm.Communicator;
import org.metope.comm.DeviceCommunicator;
import org.metope.comm.Request;

/**
 * The MPJ Express backend: ranks are the processes (niodev) or threads (multicore, with {@code
 * METOPE_MPJ_TRANSPORT=mpj}; see {@link RankWorld}) that {@code mpjrun} started; {@link
 * MpjRankMain} creates the world communicator after {@code MPI.Init}.
 *
 * <p>Point-to-point calls map to {@code Isend}/{@code Irecv}/{@code Iprobe} of {@code MPI.DOUBLE}
 * on a communicator of their own; collectives run on a second clone along binomial trees ({@link
 * MpjCollectives}) and aborts on a third ({@link MpjWorld}), so none can match a user message.
 * {@link #duplicate()} clones, which MPJ does collectively (there is no {@code Dup}).
 *
 * <p><b>Allocation.</b> Our {@link MpjRequest}s are reusable, but MPJ allocates on every message:
 * an {@code mpi.Request} and an {@code mpjdev} request per {@code Isend}/{@code Irecv}, an {@code
 * mpi.Status} per completed {@code Test} or successful {@code Iprobe}, and a packing buffer per
 * message from its own buffer pool ({@code mpjbuf}); messages above the protocol switch limit
 * (MPJ's default 128 KiB; the launcher sets 64 MiB, {@code METOPE_MPJ_PSL}) are sent by
 * rendezvous, for which niodev starts a thread per message. Collectives allocate their scratch
 * arrays. This is why the boundary code sends one coalesced message per partition and peer rather
 * than one per channel.
 *
 * <p><b>Matching cost on multicore.</b> The multicore device ({@code xdev.smpdev}) keeps posted
 * receives and unmatched sends in {@code HashMap}s whose key ({@code SMPDeviceImpl$Key}) hashes to
 * the constant -1, so every {@code Isend} and {@code Irecv} searches all pending operations of the
 * device: a message costs time proportional to the receives posted. Keep few receives pending.
 *
 * <p><b>Limits of MPJ Express 0.44 this class works around.</b> {@code Attr_get(TAG_UB)} is broken,
 * so tags are capped at {@link Communicator#MAX_TAG} by our own check; {@code ANY_TAG} and {@code
 * ANY_SOURCE} are -2, so negative tags are refused; a receive shorter than its message throws for
 * small messages but may hang for large ones under niodev, so receive capacities must be right.
 */
final class MpjCommunicator extends DeviceCommunicator {
  private final MpjWorld world;
  private final Intracomm messages;
  private final int size;

  private MpjCommunicator(MpjWorld world, Intracomm messages, Intracomm collectiveComm) {
    super(world, new MpjCollectives(world, collectiveComm));
    this.world = world;
    this.messages = messages;
    this.size = world.size();
  }

  /** The world communicator of this rank; call once, after {@code MPI.Init}. */
  static MpjCommunicator createWorld(String device) {
    MpjWorld world = new MpjWorld(device);
    try {
      return new MpjCommunicator(world, (Intracomm) MPI.COMM_WORLD.clone(),
          (Intracomm) MPI.COMM_WORLD.clone());
    } catch (MPIException e) {
      throw new IllegalStateException("MPJ Express failed to create the world communicator: " + e,
          e);
    }
  }

  /** Operations completed so far on any communicator of this rank (for the heartbeat). */
  long completedOperations() {
    return world.completedOperations();
  }

  /** Aborts without throwing; used by the entry when the application failed. */
  CommAbortedException abortQuietly(String reason) {
    return world.abort(reason);
  }

  /**
   * The last collective of a successful run: a barrier that an abort can interrupt, then closes
   * the abort channel. After it, {@code MPI.Finalize} cannot wait on a failed rank.
   */
  void finish() {
    barrier();
    world.close();
  }

  @Override
  public String describe() {
    return "MPJ Express " + world.device() + ", " + size + (size == 1 ? " rank" : " ranks");
  }

  @Override
  public Request newRequest() {
    return new MpjRequest(world);
  }

  @Override
  public Request isend(Request request, double[] array, int offset, int length, int peer,
      int tag) {
    MpjRequest r = own(request);
    CommArguments.checkPointToPoint(array, offset, length, peer, tag, size);
    world.checkAbort();
    r.checkRestartable();
    try {
      r.start(messages.Isend(array, offset, length, MPI.DOUBLE, peer, tag), false, length, peer,
          tag);
    } catch (MPIException e) {
      throw new IllegalStateException("MPJ Express failed an Isend: peer=" + peer + ", tag=" + tag
          + ", length=" + length + ": " + e.getMessage(), e);
    }
    return r;
  }

  @Override
  public Request irecv(Request request, double[] array, int offset, int capacity, int peer,
      int tag) {
    MpjRequest r = own(request);
    CommArguments.checkPointToPoint(array, offset, capacity, peer, tag, size);
    world.checkAbort();
    r.checkRestartable();
    try {
      r.start(messages.Irecv(array, offset, capacity, MPI.DOUBLE, peer, tag), true, capacity,
          peer, tag);
    } catch (MPIException e) {
      throw new IllegalStateException("MPJ Express failed an Irecv: peer=" + peer + ", tag=" + tag
          + ", capacity=" + capacity + ": " + e.getMessage(), e);
    }
    return r;
  }

  @Override
  public int iprobe(int peer, int tag) {
    CommArguments.checkPeer(peer, size);
    CommArguments.checkTag(tag);
    world.checkAbort();
    try {
      Status s = messages.Iprobe(peer, tag);
      return s == null ? -1 : s.Get_count(MPI.DOUBLE);
    } catch (MPIException e) {
      throw new IllegalStateException("MPJ Express failed an Iprobe: peer=" + peer + ", tag="
          + tag + ": " + e.getMessage(), e);
    }
  }

  @Override
  public Communicator duplicate() {
    world.checkAbort();
    try {
      return new MpjCommunicator(world, (Intracomm) messages.clone(),
          (Intracomm) messages.clone());
    } catch (MPIException e) {
      throw new IllegalStateException("MPJ Express failed to clone a communicator: " + e, e);
    }
  }

  private MpjRequest own(Request request) {
    if (request instanceof MpjRequest r && r.belongsTo(world)) {
      return r;
    }
    throw new IllegalArgumentException("request does not belong to this rank's MPJ world: "
        + "request=" + request + ", communicator=" + describe());
  }
}
