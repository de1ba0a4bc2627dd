package org.metope.comm;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Ranks that live in one JVM: a single rank (the embedded default, {@link #singleRank()}), N
 * ranks as threads of a test ({@code InProcessRun} in this module's test jar), which is how tests
 * run multi-rank scenarios in milliseconds, or the ranks of an MPJ multicore run, threads that MPJ
 * started ({@link SharedMemoryRank}).
 *
 * <p>The cluster holds what its ranks share: one {@link Inbox} per receiving rank (FIFO mailboxes
 * per sender, communicator and tag), one {@link CollectiveRendezvous} per communicator, the ids of
 * duplicated communicators, and the abort state. Once aborted, every communicator call on every
 * rank throws {@link CommAbortedException}.
 */
public final class InProcessCluster {
  /** Ranks are packed into 16 bits of a mailbox key. */
  static final int MAX_RANKS = 1 << 16;

  /** Longs between two ranks' progress counters, so that they share no cache line. */
  private static final int COUNTER_STRIDE = 8;

  private final int size;
  private final String label;
  private final String note;
  /** Operations completed per rank, at {@code rank * COUNTER_STRIDE}. */
  private final AtomicLongArray completed;
  private final Inbox[] inboxes;
  private final ConcurrentHashMap<Integer, CollectiveRendezvous> rendezvous =
      new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Long, Integer> duplicateIds = new ConcurrentHashMap<>();
  private final AtomicInteger nextCommunicatorId = new AtomicInteger(1);
  private volatile CommAbortedException abortCause;
  private volatile long stallTimeoutNanos = Communicator.DEFAULT_STALL_TIMEOUT.toNanos();

  private InProcessCluster(int size, String label, String note) {
    if (size < 1 || size > MAX_RANKS) {
      throw new IllegalArgumentException("ranks out of range [1, " + MAX_RANKS + "]: ranks="
          + size);
    }
    this.size = size;
    this.label = label;
    this.note = note;
    this.completed = new AtomicLongArray(size * COUNTER_STRIDE);
    this.inboxes = new Inbox[size];
    for (int r = 0; r < size; r++) {
      inboxes[r] = new Inbox();
    }
  }

  /** A fresh single-rank world: the communicator of a run without MPJ. */
  public static Communicator singleRank() {
    return new InProcessCluster(1).world(0);
  }

  private InProcessCluster(int size) {
    this(size, "in-process", "");
  }

  /**
   * A cluster whose ranks are threads started elsewhere ({@link SharedMemoryRank}); its
   * communicators describe themselves as {@code label, N ranks, in-JVM messages}.
   */
  static InProcessCluster shared(int size, String label) {
    return new InProcessCluster(size, label, ", in-JVM messages");
  }

  /** A cluster of {@code size} ranks whose threads a caller starts (tests: {@code InProcessRun}). */
  static InProcessCluster ofRanks(int size) {
    return new InProcessCluster(size);
  }

  /** Why the cluster was aborted; null while it runs. */
  CommAbortedException abortCause() {
    return abortCause;
  }

  /** Number of ranks. */
  int size() {
    return size;
  }

  /** {@code label, N ranks[, note]}, the start of every communicator's description. */
  String describe() {
    return label + ", " + size + (size == 1 ? " rank" : " ranks") + note;
  }

  /** Counts an operation {@code rank} completed, for the launcher's heartbeat. */
  void progressed(int rank) {
    completed.getAndIncrement(rank * COUNTER_STRIDE);
  }

  /** Operations {@code rank} has completed so far (sends, receives, collectives). */
  long completedOperations(int rank) {
    return completed.get(rank * COUNTER_STRIDE);
  }

  /** The world communicator of {@code rank}. */
  Communicator world(int rank) {
    return new InProcessCommunicator(this, 0, rank);
  }

  Inbox inbox(int rank) {
    return inboxes[rank];
  }

  CollectiveRendezvous rendezvous(int communicatorId) {
    return rendezvous.computeIfAbsent(communicatorId, id -> new CollectiveRendezvous(this));
  }

  /**
   * The id of the {@code sequence}-th duplicate of communicator {@code parentId}: every rank asks
   * with the same arguments (duplicates are collective) and gets the same id.
   */
  int duplicateId(int parentId, int sequence) {
    long key = ((long) parentId << 32) | (sequence & 0xffffffffL);
    return duplicateIds.computeIfAbsent(key, k -> nextCommunicatorId.getAndIncrement());
  }

  /** Marks the cluster aborted (the first abort wins) and wakes every waiting rank. */
  void abort(int originRank, String reason) {
    synchronized (this) {
      if (abortCause == null) {
        abortCause = new CommAbortedException(originRank, reason);
      }
    }
    for (CollectiveRendezvous rv : rendezvous.values()) {
      rv.wakeAll();
    }
  }

  /** Sets how long a collective may wait (see {@link Communicator#setStallTimeout}). */
  void setStallTimeout(Duration timeout) {
    stallTimeoutNanos = timeout.toNanos();
  }

  /** How long a collective may wait, in nanoseconds. */
  long stallTimeoutNanos() {
    return stallTimeoutNanos;
  }

  /** Throws the abort exception when the cluster has been aborted. */
  void checkAbort() {
    CommAbortedException cause = abortCause;
    if (cause != null) {
      throw new CommAbortedException(cause.originRank(), cause.reason());
    }
  }

  /** Called by a waiting rank whose thread was interrupted: aborts the run from that rank. */
  void abortOnInterrupt(int rank) {
    Thread.currentThread().interrupt();
    abort(rank, "rank " + rank + " was interrupted while waiting on a communicator");
    checkAbort();
  }
}
