package org.metope.comm.mpi;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.metope.comm.DeviceWorld;
import org.metope.comm.Request;

/**
 * A reusable request of the MPI device: an {@code MPI_Request} with an off-heap staging buffer of
 * its own for messages of heap arrays; a message of an {@link MpiMessageBuffer} goes from and to
 * the buffer itself, without staging.
 *
 * <p><b>Why staging.</b> The communicator's messages are slices of {@code double[]} arrays on the
 * Java heap, which the garbage collector may move at any time, while MPI keeps the buffer's address
 * from {@code MPI_Isend}/{@code MPI_Irecv} until the request completes. So a send copies its slice
 * into the request's staging and hands MPI that; a receive lets MPI write into the staging and
 * copies the message into the array when {@link #test()} finds it complete. The staging lives as
 * long as the request (freed by the garbage collector after it), grows only when a longer message
 * comes, and is never reallocated per message: steady state allocates nothing. Between the two
 * copies MPI moves the message as it does for a C code (for large messages on one node, one
 * {@code process_vm_readv} from staging to staging).
 *
 * <p>The handle, the status and the flag of {@code MPI_Test} live in one small segment of the
 * request. Used by one thread at a time, like every {@link Request}.
 */
final class MpiRequest implements Request {
  /** Staging of a new request, in doubles (messages of boundaries are rarely shorter). */
  private static final long FIRST_STAGING = 64;
  private static final long HANDLE = 0;
  private static final long STATUS = 8;
  private static final long FLAG = STATUS + MpiLibrary.STATUS_BYTES;
  private static final long COUNT = FLAG + 4;
  private static final long CELLS = COUNT + 4;

  private final MpiWorld world;
  private final MpiLibrary mpi;
  private final MemorySegment cells;
  private final MemorySegment handle;
  private final MemorySegment status;
  private final MemorySegment flag;
  private final MemorySegment count;
  private MemorySegment staging;
  private boolean started;
  private boolean active;
  private boolean receive;
  private double[] target;
  /** The message buffer of the operation in flight, or null when it is staged. */
  private MpiMessageBuffer buffer;
  private int targetOffset;
  private int capacity;
  private int length = -1;
  private int peer;
  private int tag;
  /** The world's list of requests in flight ({@link MpiWorld#track}). */
  MpiRequest previousInFlight;
  MpiRequest nextInFlight;

  MpiRequest(MpiWorld world) {
    this.world = world;
    this.mpi = world.mpi();
    this.cells = Arena.ofAuto().allocate(CELLS, 8);
    this.handle = cells.asSlice(HANDLE, 8);
    this.status = cells.asSlice(STATUS, MpiLibrary.STATUS_BYTES);
    this.flag = cells.asSlice(FLAG, 4);
    this.count = cells.asSlice(COUNT, 4);
    this.staging = Arena.ofAuto().allocate(FIRST_STAGING * Double.BYTES, Double.BYTES);
  }

  boolean belongsTo(MpiWorld w) {
    return world == w;
  }

  /** Throws when the request is still in flight; call before starting an operation. */
  void checkRestartable() {
    if (active) {
      throw new IllegalStateException("request still in flight: rank=" + world.rank()
          + ", peer=" + peer + ", tag=" + tag);
    }
  }

  /**
   * {@code MPI_Isend} of {@code array[offset, offset + elements)}, copied into the staging, or
   * {@code MPI_Irecv} into the staging, whose message reaches {@code array} in {@link #test}.
   */
  void startStaged(boolean isReceive, MemorySegment comm, double[] array, int offset,
      int elements, int operationPeer, int operationTag) {
    ensureStaging(elements);
    if (!isReceive) {
      MemorySegment.copy(array, offset, staging, JAVA_DOUBLE, 0, elements);
    }
    begin(isReceive, isReceive ? array : null, offset, elements, operationPeer, operationTag);
    post(comm, staging, elements);
  }

  /**
   * {@code MPI_Isend} of {@code buffer[offset, offset + elements)}, or {@code MPI_Irecv} into it,
   * in place.
   */
  void startInPlace(boolean isReceive, MemorySegment comm, MpiMessageBuffer messageBuffer,
      int offset, int elements, int operationPeer, int operationTag) {
    MemorySegment range = messageBuffer.range(offset, elements);
    begin(isReceive, null, 0, elements, operationPeer, operationTag);
    hold(messageBuffer);
    post(comm, range, elements);
  }

  private void hold(MpiMessageBuffer b) {
    buffer = b;
    b.held();
  }

  /** Starts the operation {@link #begin} recorded on {@code memory}; ends it when MPI refuses. */
  private void post(MemorySegment comm, MemorySegment memory, int elements) {
    int rc = receive
        ? mpi.irecv(memory, elements, mpi.typeDouble, peer, tag, comm, handle)
        : mpi.isend(memory, elements, mpi.typeDouble, peer, tag, comm, handle);
    if (rc != MpiLibrary.SUCCESS) {
      end();
      mpi.check(rc, receive ? "MPI_Irecv from peer " + peer + " with tag " + tag
          : "MPI_Isend to peer " + peer + " with tag " + tag);
    }
  }

  private void ensureStaging(int elements) {
    if (elements > staging.byteSize() / Double.BYTES) {
      long grown = Math.max(elements, 2 * (staging.byteSize() / Double.BYTES));
      staging = Arena.ofAuto().allocate(grown * Double.BYTES, Double.BYTES);
    }
  }

  private void begin(boolean isReceive, double[] array, int offset, int elements, int operationPeer,
      int operationTag) {
    receive = isReceive;
    target = array;
    targetOffset = offset;
    capacity = elements;
    peer = operationPeer;
    tag = operationTag;
    length = -1;
    started = true;
    active = true;
    world.track(this);
  }

  private void end() {
    active = false;
    target = null;
    if (buffer != null) {
      buffer.released();
      buffer = null;
    }
    world.untrack(this);
  }

  @Override
  public boolean test() {
    world.checkAbort();
    if (!started) {
      throw new IllegalStateException("request was never started: rank=" + world.rank());
    }
    if (!active) {
      return true;
    }
    int rc = mpi.test(handle, flag, status);
    if (rc == MpiLibrary.SUCCESS && flag.get(JAVA_INT, 0) == 0) {
      return false;
    }
    int error = rc != MpiLibrary.SUCCESS ? rc : status.get(JAVA_INT, MpiLibrary.STATUS_ERROR);
    if (error != MpiLibrary.SUCCESS) {
      end();
      throw failure(error);
    }
    if (receive) {
      mpi.check(mpi.getCount(status, mpi.typeDouble, count), "MPI_Get_count");
      length = count.get(JAVA_INT, 0);
      if (buffer == null) {
        MemorySegment.copy(staging, JAVA_DOUBLE, 0, target, targetOffset, length);
      }
    } else {
      length = capacity;
    }
    end();
    return true;
  }

  @Override
  public void waitFor() {
    if (!test()) {
      DeviceWorld.Waiter waiter = world.waiter(null);
      while (!test()) {
        waiter.pause();
      }
    }
  }

  @Override
  public int length() {
    return active ? -1 : length;
  }

  @Override
  public boolean isActive() {
    return active;
  }

  private IllegalStateException failure(int error) {
    String reason = mpi.errorString(error);
    if (receive && error == MpiLibrary.ERR_TRUNCATE) {
      return new IllegalStateException("received message longer than the receive's capacity: "
          + "capacity=" + capacity + ", peer=" + peer + ", tag=" + tag + ", rank=" + world.rank()
          + " (MPI: " + reason + ")");
    }
    return new IllegalStateException("MPI failed a " + (receive ? "receive" : "send") + ": peer="
        + peer + ", tag=" + tag + ", rank=" + world.rank() + ": " + reason + " (error " + error
        + ")");
  }

  @Override
  public String toString() {
    return "MpiRequest[rank=" + world.rank() + ", peer=" + peer + ", tag=" + tag + ", active="
        + active + ", length=" + length + "]";
  }
}
