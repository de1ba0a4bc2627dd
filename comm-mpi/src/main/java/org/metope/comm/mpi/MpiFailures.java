package org.metope.comm.mpi;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * How a failing rank ends an MPI job with one line: rank 0 prints every failure, once, and calls
 * {@code MPI_Abort}, which makes Open MPI end every process of the job with the failure's exit
 * code.
 *
 * <p>A rank other than 0 that fails sends its line to rank 0 on a communicator of its own (a
 * duplicate of the world, so no other message can match it), where a daemon thread keeps a
 * receive from any rank posted and polls it every {@value #WATCH_MILLIS} ms, also while rank 0 is
 * busy computing or waits in a collective. Rank 0 prints the first report it gets, or its own
 * failure if that comes first, and aborts; ranks failing together (a NaN time step seen by all)
 * give one line, not one per rank. Should rank 0 not end the job within {@value
 * #FALLBACK_SECONDS} s (its JVM hung), the failing rank prints its line and aborts itself.
 *
 * <p>After a successful run every rank passes a final barrier, then rank 0 stops its thread and
 * completes its posted receive with a message to itself, so nothing is pending at {@code
 * MPI_Finalize}.
 */
final class MpiFailures {
  private static final int REPORT_TAG = 1;
  private static final int FINISHED = -1;
  private static final int HEADER_BYTES = 3 * Integer.BYTES;
  private static final int MAX_REASON_CHARS = 1000;
  private static final int MAX_REPORT_BYTES = HEADER_BYTES + 4 * MAX_REASON_CHARS;
  private static final long WATCH_MILLIS = 20;
  private static final long FALLBACK_SECONDS = 10;

  private final MpiWorld world;
  private final MpiLibrary mpi;
  private final MemorySegment reports;
  private final PrintStream err;
  private final MemorySegment inbox;
  private final MemorySegment request;
  private final MemorySegment flag;
  private final AtomicBoolean printed = new AtomicBoolean();
  private volatile boolean closing;
  private Thread watcher;

  private MpiFailures(MpiWorld world, MemorySegment reports, PrintStream err) {
    this.world = world;
    this.mpi = world.mpi();
    this.reports = reports;
    this.err = err;
    this.inbox = Arena.ofAuto().allocate(MAX_REPORT_BYTES, 8);
    MemorySegment cells = Arena.ofAuto().allocate(16, 8);
    this.request = cells.asSlice(0, 8);
    this.flag = cells.asSlice(8, 4);
  }

  /**
   * Sets up the reports of {@code world} (collective: every rank calls it once after MPI's
   * initialisation); rank 0 starts watching. Lines go to {@code err}.
   */
  static MpiFailures open(MpiWorld world, PrintStream err) {
    MpiFailures failures = new MpiFailures(world, world.duplicate(world.mpi().commWorld), err);
    if (world.rank() == 0) {
      failures.postReceive();
      failures.watcher = new Thread(failures::watch, "metope-mpi-failures");
      failures.watcher.setDaemon(true);
      failures.watcher.start();
    }
    return failures;
  }

  private void postReceive() {
    mpi.check(mpi.irecv(inbox, MAX_REPORT_BYTES, mpi.typeByte, MpiLibrary.ANY_SOURCE,
        REPORT_TAG, reports, request), "MPI_Irecv (failure reports)");
  }

  /** Rank 0's thread: waits for a report and ends the job with it. */
  private void watch() {
    while (!closing) {
      if (arrived()) {
        int origin = inbox.get(JAVA_INT, 0);
        if (origin != FINISHED) {
          printAndAbort(origin, inbox.get(JAVA_INT, 4), reason());
        }
        return;
      }
      LockSupport.parkNanos(WATCH_MILLIS * 1_000_000L);
    }
  }

  private boolean arrived() {
    mpi.check(mpi.test(request, flag, MemorySegment.NULL), "MPI_Test (failure reports)");
    return flag.get(JAVA_INT, 0) != 0;
  }

  private String reason() {
    int length = Math.min(Math.max(inbox.get(JAVA_INT, 8), 0), MAX_REPORT_BYTES - HEADER_BYTES);
    byte[] bytes = inbox.asSlice(HEADER_BYTES, length).toArray(JAVA_BYTE);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /**
   * Ends the job because this rank failed with exit code {@code code} and the one-line {@code
   * reason}: rank 0 prints it and aborts; another rank sends it to rank 0 and waits to be ended.
   * Never returns.
   */
  void fail(int code, String reason) {
    String line = reason.length() > MAX_REASON_CHARS ? reason.substring(0, MAX_REASON_CHARS)
        : reason;
    if (world.rank() != 0) {
      sendReport(code, line);
      long deadline = System.nanoTime() + FALLBACK_SECONDS * 1_000_000_000L;
      while (System.nanoTime() < deadline) {
        LockSupport.parkNanos(WATCH_MILLIS * 1_000_000L);
      }
    }
    printAndAbort(world.rank(), code, line);
  }

  private void sendReport(int code, String reason) {
    byte[] text = reason.getBytes(StandardCharsets.UTF_8);
    MemorySegment message = Arena.ofAuto().allocate(HEADER_BYTES + text.length, 8);
    message.set(JAVA_INT, 0, world.rank());
    message.set(JAVA_INT, 4, code);
    message.set(JAVA_INT, 8, text.length);
    MemorySegment.copy(text, 0, message, JAVA_BYTE, HEADER_BYTES,
        text.length);
    send(message);
  }

  /** Sends {@code message} to rank 0 and waits until the send completed or the fallback ends. */
  private void send(MemorySegment message) {
    MemorySegment cells = Arena.ofAuto().allocate(16, 8);
    MemorySegment sendRequest = cells.asSlice(0, 8);
    MemorySegment sent = cells.asSlice(8, 4);
    if (mpi.isend(message, (int) message.byteSize(), mpi.typeByte, 0, REPORT_TAG, reports,
        sendRequest) != MpiLibrary.SUCCESS) {
      return;
    }
    long deadline = System.nanoTime() + FALLBACK_SECONDS * 1_000_000_000L;
    while (System.nanoTime() < deadline) {
      if (mpi.test(sendRequest, sent, MemorySegment.NULL) != MpiLibrary.SUCCESS
          || sent.get(JAVA_INT, 0) != 0) {
        return;
      }
      LockSupport.parkNanos(WATCH_MILLIS * 1_000_000L);
    }
  }

  /** Prints the failure once per process and calls {@code MPI_Abort}; never returns. */
  private void printAndAbort(int origin, int code, String reason) {
    if (printed.compareAndSet(false, true)) {
      err.println("metope: rank " + origin + " failed (exit " + code + "): " + reason);
      err.flush();
      mpi.abort(mpi.commWorld, code);
    }
    while (true) {
      LockSupport.parkNanos(1_000_000_000L);
    }
  }

  /**
   * After the final barrier of a successful run: rank 0 stops watching and completes its posted
   * receive with a message to itself.
   */
  void close() {
    if (watcher == null) {
      return;
    }
    closing = true;
    try {
      watcher.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    MemorySegment token = Arena.ofAuto().allocate(HEADER_BYTES, 8);
    token.set(JAVA_INT, 0, FINISHED);
    send(token);
    while (!arrived()) {
      Thread.onSpinWait();
    }
  }
}
