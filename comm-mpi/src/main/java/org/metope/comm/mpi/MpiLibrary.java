package org.metope.comm.mpi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Open MPI's C API through downcalls of the Foreign Function and Memory API: one method per MPI
 * function this device calls, each returning MPI's error code; the non-blocking collectives' are
 * in {@link MpiCollectiveCalls} ({@link #collectives}).
 *
 * <p><b>Handles.</b> Open MPI's handles ({@code MPI_Comm}, {@code MPI_Datatype}, {@code MPI_Op},
 * {@code MPI_Request}, {@code MPI_Errhandler}) are pointers, and its predefined handles are the
 * addresses of global symbols ({@code MPI_COMM_WORLD} is {@code &ompi_mpi_comm_world}), so they are
 * looked up by name. An {@code MPI_Status} is {@code {int MPI_SOURCE, MPI_TAG, MPI_ERROR,
 * _cancelled; size_t _ucount}}, 24 bytes. This is Open MPI's ABI (3.x to 5.x); MPICH's integer
 * handles are not supported, and {@link #load} says so in one line.
 *
 * <p><b>Threads.</b> With {@code MPI_THREAD_MULTIPLE} (what {@link #initThread(int)} asks for by
 * default, and what Debian's Open MPI provides) any thread may call at any time. Where the library
 * provides only {@code MPI_THREAD_SERIALIZED}, or that is what was asked for, every call here holds
 * one lock, so task threads still may communicate.
 *
 * <p>The calls made per message ({@code MPI_Isend}, {@code MPI_Irecv}, {@code MPI_Test}, {@code
 * MPI_Iprobe}, {@code MPI_Get_count}) never block and never call back into Java, so they are linked
 * as critical functions (no thread-state transition).
 */
final class MpiLibrary {
  static final int SUCCESS = 0;
  static final int ERR_TRUNCATE = 15;
  static final int ANY_SOURCE = -1;
  static final int THREAD_SERIALIZED = 2;
  static final int THREAD_MULTIPLE = 3;
  private static final int MAX_STRING = 256;

  /** Byte size of {@code MPI_Status} and the offsets of its public fields. */
  static final long STATUS_BYTES = 24;
  static final long STATUS_ERROR = 8;

  /** Where the library is looked for when neither the property nor the variable names one. */
  private static final String[] DEFAULT_NAMES = {"libmpi.so.40", "libmpi.so"};
  /** System property, or environment variable, naming the MPI library to load. */
  static final String LIBRARY_PROPERTY = "metope.mpi.library";
  static final String LIBRARY_VARIABLE = "METOPE_MPI_LIBRARY";

  /*
   * One downcall handle per function, taking the function's address as its first argument: static
   * final, so the JIT treats each as a constant and inlines the downcall into its caller (a handle
   * in an instance field is not constant, and its invocation stays a call). Handles of the same
   * shape are one handle (the linker caches them by descriptor).
   */
  private static final Linker.Option CRITICAL = Linker.Option.critical(false);
  private static final MethodHandle MPI_INIT_THREAD =
      downcall(ADDRESS, ADDRESS, JAVA_INT, ADDRESS);
  private static final MethodHandle MPI_FINALIZE = downcall();
  private static final MethodHandle MPI_ABORT = downcall(ADDRESS, JAVA_INT);
  private static final MethodHandle MPI_COMM_RANK = downcall(ADDRESS, ADDRESS);
  private static final MethodHandle MPI_COMM_SIZE = downcall(ADDRESS, ADDRESS);
  private static final MethodHandle MPI_COMM_IDUP = downcall(ADDRESS, ADDRESS, ADDRESS);
  private static final MethodHandle MPI_COMM_SET_ERRHANDLER = downcall(ADDRESS, ADDRESS);
  private static final MethodHandle MPI_ISEND =
      criticalDowncall(ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS);
  private static final MethodHandle MPI_IRECV =
      criticalDowncall(ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS);
  private static final MethodHandle MPI_TEST = criticalDowncall(ADDRESS, ADDRESS, ADDRESS);
  private static final MethodHandle MPI_IPROBE =
      criticalDowncall(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
  private static final MethodHandle MPI_GET_COUNT = criticalDowncall(ADDRESS, ADDRESS, ADDRESS);
  private static final MethodHandle MPI_ERROR_STRING = downcall(JAVA_INT, ADDRESS, ADDRESS);
  private static final MethodHandle MPI_GET_LIBRARY_VERSION = downcall(ADDRESS, ADDRESS);

  final MemorySegment commWorld;
  final MemorySegment typeDouble;
  final MemorySegment typeInt;
  final MemorySegment typeByte;
  final MemorySegment typeInt64;
  final MemorySegment typeUint64;
  final MemorySegment opMax;
  final MemorySegment opMin;
  final MemorySegment opSum;
  final MemorySegment errorsReturn;
  /** {@code MPI_IN_PLACE}, the address 1. */
  final MemorySegment inPlace = MemorySegment.ofAddress(1);

  private final String name;
  /** The addresses of the MPI functions called through the handles below. */
  private final MemorySegment initThread;
  private final MemorySegment finalizeMpi;
  private final MemorySegment abort;
  private final MemorySegment commRank;
  private final MemorySegment commSize;
  private final MemorySegment commIdup;
  private final MemorySegment commSetErrhandler;
  private final MemorySegment isend;
  private final MemorySegment irecv;
  private final MemorySegment test;
  private final MemorySegment iprobe;
  private final MemorySegment getCount;
  private final MemorySegment errorString;
  private final MemorySegment libraryVersion;
  /** The non-blocking collectives' downcalls. */
  final MpiCollectiveCalls collectives;
  /** Held around every call when the library is not thread-multiple; null otherwise. */
  private ReentrantLock serializer;

  /** The library could not be loaded or is not Open MPI; the message is one sentence. */
  static final class Unavailable extends Exception {
    private static final long serialVersionUID = 1L;

    Unavailable(String message) {
      super(message);
    }
  }

  private MpiLibrary(String name, SymbolLookup lookup) throws Unavailable {
    this.name = name;
    commWorld = global(lookup, "ompi_mpi_comm_world");
    typeDouble = global(lookup, "ompi_mpi_double");
    typeInt = global(lookup, "ompi_mpi_int");
    typeByte = global(lookup, "ompi_mpi_byte");
    typeInt64 = global(lookup, "ompi_mpi_int64_t");
    typeUint64 = global(lookup, "ompi_mpi_uint64_t");
    opMax = global(lookup, "ompi_mpi_op_max");
    opMin = global(lookup, "ompi_mpi_op_min");
    opSum = global(lookup, "ompi_mpi_op_sum");
    errorsReturn = global(lookup, "ompi_mpi_errors_return");
    initThread = global(lookup, "MPI_Init_thread");
    finalizeMpi = global(lookup, "MPI_Finalize");
    abort = global(lookup, "MPI_Abort");
    commRank = global(lookup, "MPI_Comm_rank");
    commSize = global(lookup, "MPI_Comm_size");
    commIdup = global(lookup, "MPI_Comm_idup");
    commSetErrhandler = global(lookup, "MPI_Comm_set_errhandler");
    isend = global(lookup, "MPI_Isend");
    irecv = global(lookup, "MPI_Irecv");
    test = global(lookup, "MPI_Test");
    iprobe = global(lookup, "MPI_Iprobe");
    getCount = global(lookup, "MPI_Get_count");
    errorString = global(lookup, "MPI_Error_string");
    libraryVersion = global(lookup, "MPI_Get_library_version");
    collectives = new MpiCollectiveCalls(this, lookup);
  }

  /**
   * Loads the MPI library named by {@value #LIBRARY_PROPERTY} or {@value #LIBRARY_VARIABLE}, else
   * {@code libmpi.so.40} (Open MPI 3 to 5) or {@code libmpi.so} from the system's library path.
   */
  static MpiLibrary load() throws Unavailable {
    String named = System.getProperty(LIBRARY_PROPERTY, System.getenv(LIBRARY_VARIABLE));
    String[] names = named == null || named.isBlank() ? DEFAULT_NAMES : new String[] {named};
    for (String candidate : names) {
      SymbolLookup lookup;
      try {
        lookup = SymbolLookup.libraryLookup(candidate, Arena.global());
      } catch (IllegalArgumentException e) {
        continue;
      }
      if (lookup.find("ompi_mpi_comm_world").isEmpty()) {
        throw new Unavailable("the MPI library " + candidate + " is not Open MPI (it has no "
            + "symbol ompi_mpi_comm_world); the mpi device needs Open MPI (Debian: apt-get "
            + "install libopenmpi-dev openmpi-bin)");
      }
      return new MpiLibrary(candidate, lookup);
    }
    throw new Unavailable("no MPI library found (tried " + String.join(", ", names)
        + "): install Open MPI (Debian: apt-get install libopenmpi-dev openmpi-bin) or name the "
        + "library in " + LIBRARY_VARIABLE);
  }

  /** The address of the function or global variable {@code symbol}. */
  static MemorySegment global(SymbolLookup lookup, String symbol) throws Unavailable {
    Optional<MemorySegment> found = lookup.find(symbol);
    if (found.isEmpty()) {
      throw new Unavailable("the MPI library lacks the Open MPI symbol " + symbol);
    }
    return found.get();
  }

  /**
   * A handle for C functions returning {@code int} and taking {@code arguments}; it is invoked
   * with the function's address first.
   */
  static MethodHandle downcall(MemoryLayout... arguments) {
    return Linker.nativeLinker().downcallHandle(FunctionDescriptor.of(JAVA_INT, arguments));
  }

  private static MethodHandle criticalDowncall(MemoryLayout... arguments) {
    return Linker.nativeLinker().downcallHandle(FunctionDescriptor.of(JAVA_INT, arguments),
        CRITICAL);
  }

  /** The file name the library was loaded from, as given to the dynamic loader. */
  String name() {
    return name;
  }

  /**
   * {@code MPI_Init_thread} asking for {@code required} ({@link #THREAD_MULTIPLE} or {@link
   * #THREAD_SERIALIZED}); returns the level provided. Below {@code MPI_THREAD_MULTIPLE}, later
   * calls hold one lock ({@code MPI_THREAD_SERIALIZED} is then enough).
   */
  int initThread(int required) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment provided = arena.allocate(JAVA_INT);
      int rc = (int) MPI_INIT_THREAD.invokeExact(initThread, MemorySegment.NULL,
          MemorySegment.NULL, required, provided);
      check(rc, "MPI_Init_thread");
      int level = provided.get(JAVA_INT, 0);
      if (level < THREAD_MULTIPLE) {
        serializer = new ReentrantLock();
      }
      return level;
    } catch (Throwable t) {
      throw unexpected("MPI_Init_thread", t);
    }
  }

  int finalizeMpi() {
    lock();
    try {
      return (int) MPI_FINALIZE.invokeExact(finalizeMpi);
    } catch (Throwable t) {
      throw unexpected("MPI_Finalize", t);
    } finally {
      unlock();
    }
  }

  /** {@code MPI_Abort}: Open MPI ends every process of the job; normally never returns. */
  int abort(MemorySegment comm, int code) {
    try {
      return (int) MPI_ABORT.invokeExact(abort, comm, code);
    } catch (Throwable t) {
      throw unexpected("MPI_Abort", t);
    }
  }

  int commRank(MemorySegment comm, MemorySegment result) {
    lock();
    try {
      return (int) MPI_COMM_RANK.invokeExact(commRank, comm, result);
    } catch (Throwable t) {
      throw unexpected("MPI_Comm_rank", t);
    } finally {
      unlock();
    }
  }

  int commSize(MemorySegment comm, MemorySegment result) {
    lock();
    try {
      return (int) MPI_COMM_SIZE.invokeExact(commSize, comm, result);
    } catch (Throwable t) {
      throw unexpected("MPI_Comm_size", t);
    } finally {
      unlock();
    }
  }

  int commIdup(MemorySegment comm, MemorySegment newComm, MemorySegment request) {
    lock();
    try {
      return (int) MPI_COMM_IDUP.invokeExact(commIdup, comm, newComm, request);
    } catch (Throwable t) {
      throw unexpected("MPI_Comm_idup", t);
    } finally {
      unlock();
    }
  }

  int commSetErrhandler(MemorySegment comm, MemorySegment handler) {
    lock();
    try {
      return (int) MPI_COMM_SET_ERRHANDLER.invokeExact(commSetErrhandler, comm, handler);
    } catch (Throwable t) {
      throw unexpected("MPI_Comm_set_errhandler", t);
    } finally {
      unlock();
    }
  }

  int isend(MemorySegment buffer, int count, MemorySegment type, int peer, int tag,
      MemorySegment comm, MemorySegment request) {
    lock();
    try {
      return (int) MPI_ISEND.invokeExact(isend, buffer, count, type, peer, tag, comm, request);
    } catch (Throwable t) {
      throw unexpected("MPI_Isend", t);
    } finally {
      unlock();
    }
  }

  int irecv(MemorySegment buffer, int count, MemorySegment type, int peer, int tag,
      MemorySegment comm, MemorySegment request) {
    lock();
    try {
      return (int) MPI_IRECV.invokeExact(irecv, buffer, count, type, peer, tag, comm, request);
    } catch (Throwable t) {
      throw unexpected("MPI_Irecv", t);
    } finally {
      unlock();
    }
  }

  int test(MemorySegment request, MemorySegment flag, MemorySegment status) {
    lock();
    try {
      return (int) MPI_TEST.invokeExact(test, request, flag, status);
    } catch (Throwable t) {
      throw unexpected("MPI_Test", t);
    } finally {
      unlock();
    }
  }

  int iprobe(int peer, int tag, MemorySegment comm, MemorySegment flag, MemorySegment status) {
    lock();
    try {
      return (int) MPI_IPROBE.invokeExact(iprobe, peer, tag, comm, flag, status);
    } catch (Throwable t) {
      throw unexpected("MPI_Iprobe", t);
    } finally {
      unlock();
    }
  }

  int getCount(MemorySegment status, MemorySegment type, MemorySegment count) {
    lock();
    try {
      return (int) MPI_GET_COUNT.invokeExact(getCount, status, type, count);
    } catch (Throwable t) {
      throw unexpected("MPI_Get_count", t);
    } finally {
      unlock();
    }
  }

  /** {@code MPI_Get_library_version}, up to its first comma, e.g. {@code Open MPI v4.1.4}. */
  String libraryVersion() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment text = arena.allocate(MAX_STRING * 16L);
      MemorySegment length = arena.allocate(JAVA_INT);
      int rc = (int) MPI_GET_LIBRARY_VERSION.invokeExact(libraryVersion, text, length);
      if (rc != SUCCESS) {
        return "unknown MPI version";
      }
      String version = text.getString(0, StandardCharsets.UTF_8).strip();
      int comma = version.indexOf(',');
      return comma < 0 ? version : version.substring(0, comma);
    } catch (Throwable t) {
      throw unexpected("MPI_Get_library_version", t);
    }
  }

  /** MPI's description of error code {@code code}. */
  String errorString(int code) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment text = arena.allocate(MAX_STRING);
      MemorySegment length = arena.allocate(JAVA_INT);
      int rc = (int) MPI_ERROR_STRING.invokeExact(errorString, code, text, length);
      return rc == SUCCESS ? text.getString(0, StandardCharsets.UTF_8) : "MPI error " + code;
    } catch (Throwable t) {
      throw unexpected("MPI_Error_string", t);
    }
  }

  /** Throws when {@code rc} is not {@code MPI_SUCCESS}, naming the call and MPI's reason. */
  void check(int rc, String call) {
    if (rc != SUCCESS) {
      throw new IllegalStateException(call + " failed: " + errorString(rc) + " (error " + rc
          + ")");
    }
  }

  /** Takes the lock of a library that is not thread-multiple (every downcall holds it). */
  void lock() {
    if (serializer != null) {
      serializer.lock();
    }
  }

  void unlock() {
    if (serializer != null) {
      serializer.unlock();
    }
  }

  /** A downcall's throwable: rethrown when unchecked, else wrapped naming {@code call}. */
  static IllegalStateException unexpected(String call, Throwable t) {
    if (t instanceof RuntimeException r) {
      throw r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    return new IllegalStateException("calling " + call + " failed: " + t, t);
  }
}
