package org.metope.comm.mpi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.metope.comm.CommAbortedException;
import org.metope.comm.DeviceWorld;

/**
 * What every communicator of one MPI rank shares: the library, rank and size, the abort state,
 * the stall timeout, the requests MPI still holds, and the waiting policy.
 *
 * <p><b>Requests in flight.</b> A request's staging memory is freed by the garbage collector once
 * the request is unreachable ({@link MpiRequest}). MPI still writes into a receive's staging after
 * {@code MPI_Irecv} returned, so every request in flight is also held here, in a list threaded
 * through the requests themselves (no allocation per message), until it completes: an owner that
 * drops a request mid-flight (an exchange cut short by an error) cannot free memory MPI writes to.
 *
 * <p><b>Waiting.</b> Waits back off as {@link DeviceWorld#waiter} says. A collective that has
 * waited longer than the stall timeout aborts the run naming the collective, as on the other
 * devices (MPI does not tell which rank is missing).
 */
final class MpiWorld extends DeviceWorld {
  private final MpiLibrary mpi;
  private final String description;
  private final Object inFlightLock = new Object();
  private MpiRequest inFlightHead;
  /** Per thread: the flag, status and count cells of {@code MPI_Iprobe}. */
  private final ThreadLocal<MemorySegment> probeCells = ThreadLocal.withInitial(
      () -> Arena.ofAuto().allocate(MpiLibrary.STATUS_BYTES + 8, 8));

  private MpiWorld(MpiLibrary mpi, int rank, int size, String description) {
    super(rank, size);
    this.mpi = mpi;
    this.description = description;
  }

  /**
   * Initialises MPI ({@code MPI_Init_thread} asking for {@code threadLevel}) and makes errors on {@code MPI_COMM_WORLD} and its
   * duplicates come back as return codes ({@code MPI_ERRORS_RETURN}) instead of ending the
   * process, so each becomes an exception naming the call.
   *
   * @throws IllegalStateException when MPI provides less than {@code MPI_THREAD_SERIALIZED}
   */
  static MpiWorld init(MpiLibrary mpi, int threadLevel) {
    int level = mpi.initThread(threadLevel);
    if (level < MpiLibrary.THREAD_SERIALIZED) {
      throw new IllegalStateException("the MPI library provides thread level " + level
          + "; the mpi device needs MPI_THREAD_SERIALIZED (2) or MPI_THREAD_MULTIPLE (3)");
    }
    mpi.check(mpi.commSetErrhandler(mpi.commWorld, mpi.errorsReturn), "MPI_Comm_set_errhandler");
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment cell = arena.allocate(JAVA_INT);
      mpi.check(mpi.commRank(mpi.commWorld, cell), "MPI_Comm_rank");
      int rank = cell.get(JAVA_INT, 0);
      mpi.check(mpi.commSize(mpi.commWorld, cell), "MPI_Comm_size");
      int size = cell.get(JAVA_INT, 0);
      String threads = level == MpiLibrary.THREAD_MULTIPLE ? "MPI_THREAD_MULTIPLE"
          : "MPI_THREAD_SERIALIZED";
      return new MpiWorld(mpi, rank, size, "MPI (" + mpi.libraryVersion() + ", " + threads
          + ")");
    }
  }

  MpiLibrary mpi() {
    return mpi;
  }

  /** The library and its thread level, e.g. {@code MPI (Open MPI v4.1.4, MPI_THREAD_MULTIPLE)}. */
  String description() {
    return description;
  }

  /** The flag (4 bytes), count (4 bytes) and status cells of this thread's probes. */
  MemorySegment probeCells() {
    return probeCells.get();
  }

  /**
   * A duplicate of {@code comm} ({@code MPI_Comm_idup}, waited for like a collective): a
   * communicator of the same ranks with its own message space.
   */
  MemorySegment duplicate(MemorySegment comm) {
    MemorySegment cells = Arena.ofAuto().allocate(24, 8);
    MemorySegment newComm = cells.asSlice(0, 8);
    MemorySegment request = cells.asSlice(8, 8);
    MemorySegment flag = cells.asSlice(16, 4);
    mpi.check(mpi.commIdup(comm, newComm, request), "MPI_Comm_idup");
    awaitCollective(request, flag, "duplicate", waiter(() -> "duplicate with the other ranks"));
    return newComm.get(ADDRESS, 0);
  }

  /**
   * Marks the run aborted by this rank with {@code reason} and returns the exception to throw;
   * every later call on this rank throws it too. The rank's entry then reports the failure and
   * ends the job ({@link MpiFailures}).
   */
  @Override
  public CommAbortedException abort(String reason) {
    markAborted(rank(), reason);
    return abortException();
  }

  /** Holds {@code request} while MPI may write into its staging. */
  void track(MpiRequest request) {
    synchronized (inFlightLock) {
      request.nextInFlight = inFlightHead;
      request.previousInFlight = null;
      if (inFlightHead != null) {
        inFlightHead.previousInFlight = request;
      }
      inFlightHead = request;
    }
  }

  /** Lets go of {@code request} once MPI has completed it. */
  void untrack(MpiRequest request) {
    synchronized (inFlightLock) {
      if (request.previousInFlight != null) {
        request.previousInFlight.nextInFlight = request.nextInFlight;
      } else if (inFlightHead == request) {
        inFlightHead = request.nextInFlight;
      }
      if (request.nextInFlight != null) {
        request.nextInFlight.previousInFlight = request.previousInFlight;
      }
      request.nextInFlight = null;
      request.previousInFlight = null;
    }
  }

  /**
   * Polls the non-blocking collective {@code request} until it completes, aborting the run when
   * it waits longer than the stall timeout. A poll allocates nothing: error messages are built
   * only for an error, and the caller keeps its waiter.
   *
   * @param request the request's handle (8 bytes)
   * @param flag a 4-byte cell for {@code MPI_Test}'s flag
   * @param operation the collective, named in an error's message
   * @param waiter the caller's waiter, restarted here; it names the collective in a stall's
   *     message
   */
  void awaitCollective(MemorySegment request, MemorySegment flag, String operation,
      DeviceWorld.Waiter waiter) {
    waiter.restart();
    while (true) {
      int rc = mpi.test(request, flag, MemorySegment.NULL);
      if (rc != MpiLibrary.SUCCESS) {
        mpi.check(rc, "MPI_Test (" + operation + ")");
      }
      if (flag.get(JAVA_INT, 0) != 0) {
        return;
      }
      waiter.pause();
    }
  }
}
