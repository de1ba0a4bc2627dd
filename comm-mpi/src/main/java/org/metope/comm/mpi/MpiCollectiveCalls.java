package org.metope.comm.mpi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.metope.comm.mpi.MpiLibrary.function;

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
  private final MpiLibrary library;
  private final MethodHandle iallreduce;
  private final MethodHandle igather;
  private final MethodHandle iallgather;
  private final MethodHandle igatherv;
  private final MethodHandle iallgatherv;
  private final MethodHandle ibcast;
  private final MethodHandle ibarrier;

  MpiCollectiveCalls(MpiLibrary library, SymbolLookup lookup) throws MpiLibrary.Unavailable {
    this.library = library;
    iallreduce = function(lookup, "MPI_Iallreduce", ADDRESS, ADDRESS, JAVA_INT, ADDRESS,
        ADDRESS, ADDRESS, ADDRESS);
    igather = function(lookup, "MPI_Igather", ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT,
        ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
    iallgather = function(lookup, "MPI_Iallgather", ADDRESS, JAVA_INT, ADDRESS, ADDRESS,
        JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
    igatherv = function(lookup, "MPI_Igatherv", ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS,
        ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
    iallgatherv = function(lookup, "MPI_Iallgatherv", ADDRESS, JAVA_INT, ADDRESS, ADDRESS,
        ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS);
    ibcast = function(lookup, "MPI_Ibcast", ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS,
        ADDRESS);
    ibarrier = function(lookup, "MPI_Ibarrier", ADDRESS, ADDRESS);
  }

  int iallreduce(MemorySegment send, MemorySegment receive, int count, MemorySegment type,
      MemorySegment op, MemorySegment comm, MemorySegment request) {
    library.lock();
    try {
      return (int) iallreduce.invokeExact(send, receive, count, type, op, comm, request);
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
      return (int) igather.invokeExact(send, sendCount, sendType, receive, receiveCount,
          receiveType, root, comm, request);
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
      return (int) iallgather.invokeExact(send, sendCount, sendType, receive, receiveCount,
          receiveType, comm, request);
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
      return (int) igatherv.invokeExact(send, sendCount, sendType, receive, receiveCounts,
          displacements, receiveType, root, comm, request);
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
      return (int) iallgatherv.invokeExact(send, sendCount, sendType, receive, receiveCounts,
          displacements, receiveType, comm, request);
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
      return (int) ibcast.invokeExact(buffer, count, type, root, comm, request);
    } catch (Throwable t) {
      throw MpiLibrary.unexpected("MPI_Ibcast", t);
    } finally {
      library.unlock();
    }
  }

  int ibarrier(MemorySegment comm, MemorySegment request) {
    library.lock();
    try {
      return (int) ibarrier.invokeExact(comm, request);
    } catch (Throwable t) {
      throw MpiLibrary.unexpected("MPI_Ibarrier", t);
    } finally {
      library.unlock();
    }
  }
}
