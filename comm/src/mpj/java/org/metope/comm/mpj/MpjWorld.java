package org.metope.comm.mpj;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import org.metope.comm.CommAbortedException;
import org.metope.comm.Communicator;
import org.metope.comm.Request;

/**
 * What all MPJ communicators of one rank share: the abort channel, the progress counter read by
 * the launcher's watchdog, and the waiting policy.
 *
 * <p><b>Abort channel.</b> MPJ's {@code Abort} does nothing and a dead rank leaves the others
 * blocked forever, so aborts travel as messages on a private clone of {@code COMM_WORLD}. Every
 * rank keeps one receive from any source posted on it; an aborting rank sends its reason to every
 * other rank. Nothing in this backend blocks inside MPJ: every wait polls its request and, between
 * polls, the abort receive, so a rank blocked in a receive or a collective learns of the abort
 * within milliseconds. The message is {@code [origin rank, reason length, reason chars...]}:
 * MPJ's niodev reports the source of an any-source receive as -2, so the origin travels inside.
 *
 * <p><b>Waiting.</b> A wait spins briefly (latency of shared-memory messages), then yields, then
 * parks for {@value #PARK_NANOS} ns between polls, so ranks sharing few cores do not starve
 * each other.
 */
final class MpjWorld {
  private static final int ABORT_TAG = 1;
  private static final int MAX_REASON_CHARS = 1000;
  private static final int FINISH_TOKEN = -1;
  private static final int SPINS = 2000;
  private static final int YIELDS = 200;
  private static final long PARK_NANOS = 50_000L;
  private static final int CALLS_BETWEEN_ABORT_POLLS = 64;
  private static final long ABORT_SEND_MILLIS = 2000;

  private final int rank;
  private final int size;
  private final String device;
  private final Intracomm abortComm;
  private final int[] abortMessage = new int[2 + MAX_REASON_CHARS];
  private mpi.Request abortReceive;
  private volatile CommAbortedException aborted;
  private volatile long stallTimeoutNanos = Communicator.DEFAULT_STALL_TIMEOUT.toNanos();
  private int callsSincePoll;
  private volatile long completedOperations;

  MpjWorld(String device) {
    try {
      this.rank = MPI.COMM_WORLD.Rank();
      this.size = MPI.COMM_WORLD.Size();
      this.device = device;
      this.abortComm = (Intracomm) MPI.COMM_WORLD.clone();
      this.abortReceive = abortComm.Irecv(abortMessage, 0, abortMessage.length, MPI.INT,
          MPI.ANY_SOURCE, ABORT_TAG);
    } catch (MPIException e) {
      throw new IllegalStateException("MPJ Express failed to set up the abort channel: " + e, e);
    }
  }

  int rank() {
    return rank;
  }

  int size() {
    return size;
  }

  String device() {
    return device;
  }

  long completedOperations() {
    return completedOperations;
  }

  /** Counts a completed operation for the progress heartbeat (approximate under races). */
  void progressed() {
    completedOperations++;
  }

  /** Throws when the run is aborted; polls the abort channel every few calls. */
  void checkAbort() {
    CommAbortedException a = aborted;
    if (a != null) {
      throw copy(a);
    }
    if (++callsSincePoll >= CALLS_BETWEEN_ABORT_POLLS) {
      callsSincePoll = 0;
      pollAbortChannel();
    }
  }

  /** Polls the abort receive now; throws when an abort has arrived. */
  synchronized void pollAbortChannel() {
    if (aborted == null && abortReceive != null) {
      Status s;
      try {
        s = abortReceive.Test();
      } catch (MPIException e) {
        throw new IllegalStateException("MPJ Express failed to poll the abort channel: " + e, e);
      }
      if (s != null) {
        abortReceive = null;
        int origin = abortMessage[0];
        if (origin != FINISH_TOKEN) {
          aborted = new CommAbortedException(origin, decodeReason());
        }
      }
    }
    CommAbortedException a = aborted;
    if (a != null) {
      throw copy(a);
    }
  }

  /** Sets how long a collective may wait (see {@link Communicator#setStallTimeout}). */
  void setStallTimeout(Duration timeout) {
    stallTimeoutNanos = timeout.toNanos();
  }

  /** What {@link #setStallTimeout} set. */
  Duration stallTimeout() {
    return Duration.ofNanos(stallTimeoutNanos);
  }

  /**
   * The back-off of one wait: the caller polls its own operation and calls {@link #pause} while
   * it is not done ({@code while (!done) waiter.pause();}). The poll stays at the call site, so
   * each wait loop calls one known method: a shared loop taking the operation as an interface
   * (one lambda per collective, and the request) saw a new receiver class every few cycles, and
   * its compiled code was thrown away and recompiled through the whole run.
   */
  Waiter waiter(Supplier<String> waitingFor) {
    return new Waiter(waitingFor);
  }

  /** See {@link #waiter}. */
  final class Waiter {
    private final Supplier<String> waitingFor;
    private int polls;
    private long start;

    private Waiter(Supplier<String> waitingFor) {
      this.waitingFor = waitingFor;
    }

    /**
     * One pause between polls: spins briefly, then yields, then parks, polling the abort channel
     * meanwhile; when {@code waitingFor} is not null (a collective, and what it waits for),
     * aborts the run once the wait exceeds the stall timeout.
     */
    void pause() {
      polls++;
      if (polls == SPINS) {
        start = System.nanoTime();
      } else if (polls > SPINS && waitingFor != null && polls % CALLS_BETWEEN_ABORT_POLLS == 0
          && System.nanoTime() - start > stallTimeoutNanos) {
        double waited = (System.nanoTime() - start) * 1e-9;
        throw abort("rank " + rank + " waited " + String.format("%.1f", waited)
            + " s in a collective for "
            + waitingFor.get() + " (the stall timeout, recv_bdry_buf_timeout_sec)");
      }
      if (polls < SPINS) {
        Thread.onSpinWait();
        if (polls % CALLS_BETWEEN_ABORT_POLLS == 0) {
          pollAbortChannel();
        }
        return;
      }
      pollAbortChannel();
      if (polls < SPINS + YIELDS) {
        Thread.yield();
      } else {
        LockSupport.parkNanos(PARK_NANOS);
      }
    }
  }

  /**
   * Marks the run aborted by this rank and sends {@code reason} to every other rank, waiting at
   * most {@value #ABORT_SEND_MILLIS} ms for the sends (a dead peer must not hold us). Returns the
   * exception to throw; when another abort arrived first, that one.
   */
  CommAbortedException abort(String reason) {
    synchronized (this) {
      if (aborted != null) {
        return copy(aborted);
      }
      aborted = new CommAbortedException(rank, reason);
    }
    int[] message = encode(rank, reason);
    mpi.Request[] sends = new mpi.Request[size];
    try {
      for (int r = 0; r < size; r++) {
        if (r != rank) {
          sends[r] = abortComm.Isend(message, 0, message.length, MPI.INT, r, ABORT_TAG);
        }
      }
      long deadline = System.currentTimeMillis() + ABORT_SEND_MILLIS;
      for (int r = 0; r < size; r++) {
        while (sends[r] != null && sends[r].Test() == null
            && System.currentTimeMillis() < deadline) {
          LockSupport.parkNanos(PARK_NANOS);
        }
      }
    } catch (MPIException e) {
      System.err.println("metope: rank " + rank + " could not notify every rank of its abort: "
          + e);
    }
    return copy(aborted);
  }

  /**
   * Completes this rank's own abort receive with a finish token, so nothing is left pending at
   * {@code MPI.Finalize}. Call only after a successful final barrier.
   */
  synchronized void close() {
    if (abortReceive == null) {
      return;
    }
    try {
      int[] token = {FINISH_TOKEN, 0};
      mpi.Request send = abortComm.Isend(token, 0, token.length, MPI.INT, rank, ABORT_TAG);
      send.Wait();
      abortReceive.Wait();
      abortReceive = null;
      if (abortMessage[0] != FINISH_TOKEN) {
        aborted = new CommAbortedException(abortMessage[0], decodeReason());
      }
    } catch (MPIException e) {
      throw new IllegalStateException("MPJ Express failed to close the abort channel: " + e, e);
    }
  }

  private static int[] encode(int origin, String reason) {
    String text = reason.length() > MAX_REASON_CHARS ? reason.substring(0, MAX_REASON_CHARS)
        : reason;
    int[] message = new int[2 + text.length()];
    message[0] = origin;
    message[1] = text.length();
    for (int i = 0; i < text.length(); i++) {
      message[2 + i] = text.charAt(i);
    }
    return message;
  }

  private String decodeReason() {
    int length = Math.min(Math.max(abortMessage[1], 0), MAX_REASON_CHARS);
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append((char) abortMessage[2 + i]);
    }
    return text.toString();
  }

  private static CommAbortedException copy(CommAbortedException a) {
    return new CommAbortedException(a.originRank(), a.reason());
  }
}
