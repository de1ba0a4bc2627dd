package org.metope.comm.mpj;

import java.util.concurrent.locks.LockSupport;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import org.metope.comm.CommAbortedException;
import org.metope.comm.DeviceWorld;

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
 * Waits poll the abort channel between polls of their own operation ({@link DeviceWorld#waiter}).
 */
final class MpjWorld extends DeviceWorld {
  private static final int ABORT_TAG = 1;
  private static final int MAX_REASON_CHARS = 1000;
  private static final int FINISH_TOKEN = -1;
  private static final long PARK_NANOS = 50_000L;
  private static final int CALLS_BETWEEN_ABORT_POLLS = 64;
  private static final long ABORT_SEND_MILLIS = 2000;

  private final String device;
  private final Intracomm abortComm;
  private final int[] abortMessage = new int[2 + MAX_REASON_CHARS];
  private mpi.Request abortReceive;
  private int callsSincePoll;
  private volatile long completedOperations;

  MpjWorld(String device) {
    super(worldRankOrSize(true), worldRankOrSize(false));
    try {
      this.device = device;
      this.abortComm = (Intracomm) MPI.COMM_WORLD.clone();
      this.abortReceive = abortComm.Irecv(abortMessage, 0, abortMessage.length, MPI.INT,
          MPI.ANY_SOURCE, ABORT_TAG);
    } catch (MPIException e) {
      throw new IllegalStateException("MPJ Express failed to set up the abort channel: " + e, e);
    }
  }

  private static int worldRankOrSize(boolean rank) {
    try {
      return rank ? MPI.COMM_WORLD.Rank() : MPI.COMM_WORLD.Size();
    } catch (MPIException e) {
      throw new IllegalStateException("MPJ Express failed to tell the world's rank or size: " + e,
          e);
    }
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
  @Override
  public void checkAbort() {
    throwIfAborted();
    if (++callsSincePoll >= CALLS_BETWEEN_ABORT_POLLS) {
      callsSincePoll = 0;
      pollAborts();
    }
  }

  /** Polls the abort receive now; throws when an abort has arrived. */
  @Override
  protected synchronized void pollAborts() {
    if (!aborted() && abortReceive != null) {
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
          markAborted(origin, decodeReason());
        }
      }
    }
    throwIfAborted();
  }

  /**
   * Marks the run aborted by this rank and sends {@code reason} to every other rank, waiting at
   * most {@value #ABORT_SEND_MILLIS} ms for the sends (a dead peer must not hold us). Returns the
   * exception to throw; when another abort arrived first, that one.
   */
  @Override
  public CommAbortedException abort(String reason) {
    if (!markAborted(rank(), reason)) {
      return abortException();
    }
    int rank = rank();
    int size = size();
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
    return abortException();
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
      mpi.Request send = abortComm.Isend(token, 0, token.length, MPI.INT, rank(), ABORT_TAG);
      send.Wait();
      abortReceive.Wait();
      abortReceive = null;
      if (abortMessage[0] != FINISH_TOKEN) {
        markAborted(abortMessage[0], decodeReason());
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
}
