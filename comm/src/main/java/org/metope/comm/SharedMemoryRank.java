package org.metope.comm;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One rank of a run whose ranks are threads of one JVM started by someone else: MPJ Express's
 * multicore device, whose ranks the launcher makes share Metope's classes. The ranks of a run meet
 * here by the run's number and each gets its rank of one {@link InProcessCluster}, so messages,
 * collectives, duplicates, aborts and stall timeouts go through shared memory (the way MPI
 * libraries pass messages between ranks of one node) and MPJ is left to start and end the ranks.
 *
 * <p>A run is named by a number that one rank draws ({@link #newRun()}, unique in the JVM) and
 * passes to the others (through MPJ), so a later run in the same JVM never meets an earlier one's
 * cluster. A cluster is forgotten once every rank of it has joined. The registry is static: it
 * works only where this class is loaded once for all the ranks, which the caller checks.
 */
public final class SharedMemoryRank {
  /** Clusters some of whose ranks have not joined yet, by run number. */
  private static final Map<Long, Forming> FORMING = new HashMap<>();
  private static final AtomicLong RUNS = new AtomicLong();

  private final InProcessCluster cluster;
  private final int rank;
  private final Communicator world;

  private static final class Forming {
    final InProcessCluster cluster;
    final boolean[] joined;
    int count;

    Forming(InProcessCluster cluster, int size) {
      this.cluster = cluster;
      this.joined = new boolean[size];
    }
  }

  private SharedMemoryRank(InProcessCluster cluster, int rank) {
    this.cluster = cluster;
    this.rank = rank;
    this.world = cluster.world(rank);
  }

  /** A run number no earlier call in this JVM returned; one rank draws it for the whole run. */
  public static long newRun() {
    return RUNS.incrementAndGet();
  }

  /**
   * Rank {@code rank} of run {@code run} with {@code size} ranks; every rank of the run calls this
   * once, with the same {@code run}, {@code size} and {@code label}.
   *
   * @param label what the world's {@link Communicator#describe()} starts with, e.g. {@code MPJ
   *     Express multicore}
   * @throws IllegalStateException when the rank has joined the run already, or the run was joined
   *     with another size
   */
  public static synchronized SharedMemoryRank join(long run, int rank, int size, String label) {
    CommArguments.checkNotNull(label, "label");
    if (rank < 0 || rank >= size) {
      throw new IllegalArgumentException("rank out of range [0, " + size + "): rank=" + rank);
    }
    Forming f = FORMING.computeIfAbsent(run,
        r -> new Forming(InProcessCluster.shared(size, label), size));
    if (f.joined.length != size || f.joined[rank]) {
      throw new IllegalStateException("rank " + rank + " cannot join run " + run + ": "
          + (f.joined.length != size ? "the run has " + f.joined.length + " ranks, not " + size
          : "it has joined already"));
    }
    f.joined[rank] = true;
    if (++f.count == size) {
      FORMING.remove(run);
    }
    return new SharedMemoryRank(f.cluster, rank);
  }

  /** This rank's world communicator. */
  public Communicator world() {
    return world;
  }

  /** Operations this rank has completed so far (for the launcher's heartbeat). */
  public long completedOperations() {
    return cluster.completedOperations(rank);
  }

  /**
   * The last collective of a successful run: a barrier that an abort interrupts, so that no rank
   * goes on to end the run while another has failed.
   */
  public void finish() {
    world.barrier();
  }

  /** Aborts the run from this rank without throwing; the first abort of a run wins. */
  public void abortQuietly(String reason) {
    cluster.abort(rank, reason == null ? "(no reason given)" : reason);
  }
}
