package org.metope.comm.mpi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.metope.comm.mpi.MpiLibrary.downcall;
import static org.metope.comm.mpi.MpiLibrary.global;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * The non-blocking collectives of Open MPI's C API that {@link MpiCollectives} calls, through
 * downcalls of the Foreign Function and Memory API: one method per MPI function, each returning
 * MPI's error code and holding the library's lock where it serialises calls ({@link
 * MpiLibrary}). Kept apart from the library's set-up, point-to-point and error calls.
 */
final class MpiCollectiveCalls {
  /* Constant downcall handles, invoked with the function's address first (see MpiLibrary). */
  private static final MethodHandle MPI_IALLREDUCE =
      downcall(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS);
  private static final MethodHandle MPI_IGATHER = downcall(ADDRESS, JAVA_INT, ADDRESS, ADDRESS,
      JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
  private static final MethodHandle MPI_IALLGATHER = downcall(ADDRESS, JAVA_INT, ADDRESS,
      ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
  private static final MethodHandle MPI_IGATHERV = downcall(ADDRESS, JAVA_INT, ADDRESS, ADDRESS,
      ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
  private static final MethodHandle MPI_IALLGATHERV = downcall(ADDRESS, JAVA_INT, ADDRESS,
      ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS);
  private static final MethodHandle MPI_IBCAST =
      downcall(ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
  private static final MethodHandle MPI_IBARRIER = downcall(ADDRESS, ADDRESS);

  private final MpiLibrary library;
  /** The addresses of the MPI functions. */
  private final MemorySegment iallreduce;
  private final MemorySegment igather;
  private final MemorySegment iallgather;
  private final MemorySegment igatherv;
  private final MemorySegment iallgatherv;
  private final MemorySegment ibcast;
  private final MemorySegment ibarrier;

  MpiCollectiveCalls(MpiLibrary library, SymbolLookup lookup) throws MpiLibrary.Unavailable {
    this.library = library;
    iallreduce = global(lookup, "MPI_Iallreduce");
    igather = global(lookup, "MPI_Igather");
    iallgather = global(lookup, "MPI_Iallgather");
    igatherv = global(lookup, "MPI_Igatherv");
    iallgatherv = global(lookup, "MPI_Iallgatherv");
    ibcast = global(lookup, "MPI_Ibcast");
    ibarrier = global(lookup, "MPI_Ibarrier");
  }

  int iallreduce(MemorySegment send, MemorySegment receive, int count, MemorySegment type,
      MemorySegment op, MemorySegment comm, MemorySegment request) {
    library.lock();
    try {
      return (int) MPI_IALLREDUCE.invokeExact(iallreduce, send, receive, count, type, op, comm,
          request);
    } catch (Throwable t) {
      throw MpiLibrary.unexpected("MPI_Iallreduce", t);
    } finally {
      library.unlock();
    }
  }

  int igather(MemorySegment send, int sendCount, MemorySegment sendType, MemorySegment receive,
      int receiveCount, MemorySegment receiveType, int root, MemorySegment comm,
      MemorySegment request) {
    library.lock();
    try {
      return (int) MPI_IGATHER.invokeExact(igather, send, sendCount, sendType, receive,
          receiveCount, receiveType, root, comm, request);
    } catch (Throwable t) {
      throw MpiLibrary.unexpected("MPI_Igather", t);
    } finally {
      library.unlock();
    }
  }

  int iallgather(MemorySegment send, int sendCount, MemorySegment sendType,
      MemorySegment receive, int receiveCount, MemorySegment receiveType, MemorySegment comm,
      MemorySegment request) {
    library.lock();
    try {
      return (int) MPI_IALLGATHER.invokeExact(iallgather, send, sendCount, sendType, receive,
          receiveCount, receiveType, comm, request);
    } catch (Throwable t) {
      throw MpiLibrary.unexpected("MPI_Iallgather", t);
    } finally {
      library.unlock();
    }
  }

  int igatherv(MemorySegment send, int sendCount, MemorySegment sendType, MemorySegment receive,
      MemorySegment receiveCounts, MemorySegment displacements, MemorySegment receiveType,
      int root, MemorySegment comm, MemorySegment request) {
    library.lock();
    try {
      return (int) MPI_IGATHERV.invokeExact(igatherv, send, sendCount, sendType, receive,
          receiveCounts, displacements, receiveType, root, comm, request);
    } catch (Throwable t) {
      throw MpiLibrary.unexpected("MPI_Igatherv", t);
    } finally {
      library.unlock();
    }
  }

  int iallgatherv(MemorySegment send, int sendCount, MemorySegment sendType,
      MemorySegment receive, MemorySegment receiveCounts, MemorySegment displacements,
      MemorySegment receiveType, MemorySegment comm, MemorySegment request) {
    library.lock();
    try {
      return (int) MPI_IALLGATHERV.invokeExact(iallgatherv, send, sendCount, sendType, receive,
          receiveCounts, displacements, receiveType, comm, request);
    } catch (Throwable t) {
      throw MpiLibrary.unexpected("MPI_Iallgatherv", t);
    } finally {
      library.unlock();
    }
  }

  int ibcast(MemorySegment buffer, int count, MemorySegment type, int root, MemorySegment comm,
      MemorySegment request) {
    library.lock();
    try {
      return (int) MPI_IBCAST.invokeExact(ibcast, buffer, count, type, root, comm, request);
    } catch (Throwable t) {
      throw MpiLibrary.unexpected("MPI_Ibcast", t);
    } finally {
      library.unlock();
    }
  }

  int ibarrier(MemorySegment comm, MemorySegment request) {
    library.lock();
    try {
      return (int) MPI_IBARRIER.invokeExact(ibarrier, comm, request);
    } catch (Throwable t) {
      throw MpiLibrary.unexpected("MPI_Ibarrier", t);
    } finally {
      library.unlock();
    }
  }
}
