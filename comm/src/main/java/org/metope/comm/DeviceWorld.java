package org.metope.comm;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * What every communicator of one rank of a message-passing device (MPJ Express, MPI) shares: the
 * rank and size, whether the run was aborted and by whom, the stall timeout of collectives, and
 * how a wait waits. A device says how an abort reaches the other ranks ({@link #abort}) and may
 * look for other ranks' aborts between polls ({@link #pollAborts}). Public for the MPJ backend,
 * which MPJ's multicore device loads with a class loader of each rank's own, and for the MPI
 * device's module.
 *
 * <p><b>Waiting.</b> A wait spins briefly (latency of shared-memory messages), then yields, then
 * parks for {@value #PARK_NANOS} ns between polls, so ranks sharing few cores do not starve each
 * other. A wait in a collective that lasts longer than the stall timeout aborts the run, saying
 * what it waited for.
 */
public abstract class DeviceWorld {
  private static final int SPINS = 2000;
  private static final int YIELDS = 200;
  private static final long PARK_NANOS = 50_000L;
  /** Spins between two looks for aborts, and polls between two readings of the clock. */
  private static final int POLLS_BETWEEN_CHECKS = 64;

  private final int rank;
  private final int size;
  private volatile CommAbortedException aborted;
  private volatile long stallTimeoutNanos = Communicator.DEFAULT_STALL_TIMEOUT.toNanos();

  protected DeviceWorld(int rank, int size) {
    this.rank = rank;
    this.size = size;
  }

  /** This rank, in {@code [0, size())}. */
  public final int rank() {
    return rank;
  }

  /** Number of ranks. */
  public final int size() {
    return size;
  }

  /** Throws when the run is aborted; a device may also look for other ranks' aborts here. */
  public void checkAbort() {
    throwIfAborted();
  }

  /** Looks for other ranks' aborts now (by default none arrive) and throws when aborted. */
  protected void pollAborts() {
    throwIfAborted();
  }

  /** Throws a {@link CommAbortedException} for the run's abort, if there was one. */
  protected final void throwIfAborted() {
    if (aborted != null) {
      throw abortException();
    }
  }

  /** True once the run is aborted, by this rank or another. */
  protected final boolean aborted() {
    return aborted != null;
  }

  /**
   * Marks the run aborted by {@code origin} with {@code reason} unless it already is (the first
   * abort stays); true when this call marked it.
   */
  protected final synchronized boolean markAborted(int origin, String reason) {
    if (aborted != null) {
      return false;
    }
    aborted = new CommAbortedException(origin, reason);
    return true;
  }

  /** A new exception for the run's abort; call only once aborted. */
  protected final CommAbortedException abortException() {
    CommAbortedException a = aborted;
    return new CommAbortedException(a.originRank(), a.reason());
  }

  /**
   * Marks the run aborted by this rank with {@code reason}, tells the other ranks as the device
   * can, and returns the exception to throw: the first abort's, when another came first.
   */
  public abstract CommAbortedException abort(String reason);

  /** See {@link Communicator#setStallTimeout}. */
  public final void setStallTimeout(Duration timeout) {
    CommArguments.checkNotNull(timeout, "timeout");
    stallTimeoutNanos = timeout.toNanos();
  }

  /** What {@link #setStallTimeout} set. */
  public final Duration stallTimeout() {
    return Duration.ofNanos(stallTimeoutNanos);
  }

  /**
   * The back-off of one wait: the caller polls its own operation and calls {@link Waiter#pause}
   * while it is not done ({@code while (!done) waiter.pause();}). The poll stays at the call site,
   * so each wait loop calls one known method: a shared loop taking the operation as an interface
   * (one lambda per collective, and the request) saw a new receiver class every few cycles, and
   * its compiled code was thrown away and recompiled through the whole run.
   *
   * @param waitingFor in a collective, what the wait waits for (e.g. {@code allgather, receiving
   *     from rank 1}), named when it stalls; null for a point-to-point message, which never stalls
   *     here (the exchange that waits applies its own limit)
   */
  public final Waiter waiter(Supplier<String> waitingFor) {
    return new Waiter(waitingFor);
  }

  /** See {@link #waiter}. */
  public final class Waiter {
    private final Supplier<String> waitingFor;
    private int polls;
    private long start;

    private Waiter(Supplier<String> waitingFor) {
      this.waitingFor = waitingFor;
    }

    /**
     * Starts a new wait with this waiter, so that a caller that waits once per call (a
     * collective) keeps one waiter instead of allocating one per wait.
     */
    public void restart() {
      polls = 0;
      start = 0;
    }

    /**
     * One pause between polls: spins, then yields, then parks, looking for aborts meanwhile; in
     * a collective, aborts the run once the wait exceeds the stall timeout.
     */
    public void pause() {
      polls++;
      if (polls == SPINS) {
        start = System.nanoTime();
      } else if (polls > SPINS && waitingFor != null && polls % POLLS_BETWEEN_CHECKS == 0
          && System.nanoTime() - start > stallTimeoutNanos) {
        throw abort("rank " + rank + " waited "
            + CollectiveRendezvous.seconds(System.nanoTime() - start)
            + " in a collective for " + waitingFor.get()
            + " (the stall timeout, recv_bdry_buf_timeout_sec)");
      }
      if (polls < SPINS) {
        Thread.onSpinWait();
        if (polls % POLLS_BETWEEN_CHECKS == 0) {
          pollAborts();
        }
        return;
      }
      pollAborts();
      if (polls < SPINS + YIELDS) {
        Thread.yield();
      } else {
        LockSupport.parkNanos(PARK_NANOS);
      }
    }
  }
}
