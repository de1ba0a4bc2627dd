package org.metope.comm;

import java.util.Arrays;
import java.util.Locale;

/**
 * Where the in-process ranks of one communicator meet for a collective. Each collective has three
 * steps, all ranks in lock step:
 *
 * <ol>
 *   <li>{@link #enter}: wait until the previous collective's readers have left, then write this
 *       rank's contribution into its own slot (slots are grow-only, so steady state allocates
 *       nothing);
 *   <li>{@link #arrive}: publish a signature (kind, operation, root, length) and wait for every
 *       rank; then every rank reads every slot and computes the result itself, folding in rank order,
 *       so all ranks get the same bits;
 *   <li>{@link #depart}: the last rank to leave frees the slots for the next collective.
 * </ol>
 *
 * <p>Signatures are compared so that ranks calling different collectives fail with a message
 * naming both calls instead of exchanging garbage. A rank that waits longer than the cluster's
 * stall timeout aborts the run, naming the collective and the ranks that did not arrive, in the
 * words of the MPJ backend ({@code for allgather, receiving from rank 1}), so that a stalled
 * multicore run reports the same line whichever transport it uses.
 */
final class CollectiveRendezvous {
  /** What a rank called; part of the signature. */
  enum Kind {
    BARRIER, ALLREDUCE_DOUBLE, ALLREDUCE_LONG, ALLGATHER_INT, ALLGATHER_DOUBLE, BROADCAST_DOUBLE,
    BROADCAST_INT, GATHER_DOUBLE, ALLREDUCE_LONG_OPS
  }

  private static final long WAIT_MILLIS = 1;

  private final InProcessCluster cluster;
  private final int size;
  private final double[][] doubleSlots;
  private final long[][] longSlots;
  private final int[][] intSlots;
  private final int[] lengths;
  private final long[] signatures;
  private final boolean[] present;
  private int arrived;
  private int departed;
  private boolean reading;

  CollectiveRendezvous(InProcessCluster cluster) {
    this.cluster = cluster;
    this.size = cluster.size();
    this.doubleSlots = new double[size][];
    this.longSlots = new long[size][];
    this.intSlots = new int[size][];
    this.lengths = new int[size];
    this.signatures = new long[size];
    this.present = new boolean[size];
    for (int r = 0; r < size; r++) {
      doubleSlots[r] = new double[1];
      longSlots[r] = new long[1];
      intSlots[r] = new int[0];
    }
  }

  /** Packs a call into a signature; {@code root} is -1 when the call has none. */
  static long signature(Kind kind, ReduceOp op, int root, int length) {
    long opBits = op == null ? 0xf : op.ordinal();
    return ((long) kind.ordinal() << 56) | (opBits << 52) | ((long) (root + 1) << 32)
        | (length & 0xffffffffL);
  }

  static String describe(long signature) {
    Kind kind = Kind.values()[(int) (signature >>> 56)];
    int opBits = (int) ((signature >>> 52) & 0xf);
    int root = (int) ((signature >>> 32) & 0xfffff) - 1;
    int length = (int) signature;
    return kind + (opBits == 0xf ? "" : " op=" + ReduceOp.values()[opBits])
        + (root < 0 ? "" : " root=" + root) + " length=" + length;
  }

  /** Step 1: waits until this rank may write its slot. */
  synchronized void enter(int rank) {
    long start = System.nanoTime();
    while (reading) {
      await(rank, start, "to finish reading the previous collective");
    }
  }

  /** This rank's double slot with room for {@code length} values; call between enter and arrive. */
  double[] doubleSlot(int rank, int length) {
    if (doubleSlots[rank].length < length) {
      doubleSlots[rank] = new double[length];
    }
    lengths[rank] = length;
    return doubleSlots[rank];
  }

  /** This rank's long slot with room for {@code length} values. */
  long[] longSlot(int rank, int length) {
    if (longSlots[rank].length < length) {
      longSlots[rank] = new long[length];
    }
    lengths[rank] = length;
    return longSlots[rank];
  }

  /** This rank's int slot with room for {@code length} values. */
  int[] intSlot(int rank, int length) {
    if (intSlots[rank].length < length) {
      intSlots[rank] = new int[length];
    }
    lengths[rank] = length;
    return intSlots[rank];
  }

  /**
   * Step 2: publishes this rank's signature and waits for all ranks; throws (after leaving, so the
   * others are not blocked) when the ranks called different collectives.
   */
  void arrive(int rank, long signature) {
    synchronized (this) {
      signatures[rank] = signature;
      present[rank] = true;
      arrived++;
      if (arrived == size) {
        reading = true;
        notifyAll();
      } else {
        long start = System.nanoTime();
        while (!reading) {
          await(rank, start, null);
        }
      }
    }
    cluster.progressed(rank);
    for (int r = 1; r < size; r++) {
      if (signatures[r] != signatures[0]) {
        String message = "ranks called different collectives: rank 0 called "
            + describe(signatures[0]) + ", rank " + r + " called " + describe(signatures[r]);
        depart();
        throw new IllegalStateException(message);
      }
    }
  }

  double[] doubles(int rank) {
    return doubleSlots[rank];
  }

  long[] longs(int rank) {
    return longSlots[rank];
  }

  int[] ints(int rank) {
    return intSlots[rank];
  }

  int length(int rank) {
    return lengths[rank];
  }

  /** Step 3: this rank has read what it needs. */
  synchronized void depart() {
    departed++;
    if (departed == size) {
      Arrays.fill(present, false);
      reading = false;
      arrived = 0;
      departed = 0;
      notifyAll();
    }
  }

  synchronized void wakeAll() {
    notifyAll();
  }

  /**
   * Waits a moment for the other ranks (holding this object's lock); aborts the run when {@code
   * rank} has waited since {@code start} for longer than the stall timeout. {@code forWhat} says
   * what it waits for; null: for the ranks that have not arrived.
   */
  private void await(int rank, long start, String forWhat) {
    cluster.checkAbort();
    long waited = System.nanoTime() - start;
    if (waited > cluster.stallTimeoutNanos()) {
      cluster.abort(rank, "rank " + rank + " waited " + seconds(waited) + " in a collective for " + (forWhat != null ? "the other ranks " + forWhat
          : operation(signatures[rank]) + ", receiving from " + missingRanks())
          + " (the stall timeout, recv_bdry_buf_timeout_sec)");
      cluster.checkAbort();
    }
    try {
      wait(WAIT_MILLIS);
    } catch (InterruptedException e) {
      cluster.abortOnInterrupt(rank);
    }
  }

  /** The ranks not yet at the current collective: {@code rank 1}, {@code ranks 1, 3}. */
  private String missingRanks() {
    StringBuilder ranks = new StringBuilder();
    int missing = 0;
    for (int r = 0; r < size; r++) {
      if (!present[r]) {
        ranks.append(missing++ == 0 ? "" : ", ").append(r);
      }
    }
    return (missing == 1 ? "rank " : "ranks ") + ranks;
  }

  /** The collective of {@code signature} as the MPJ backend names it, e.g. {@code allgather}. */
  private static String operation(long signature) {
    String kind = Kind.values()[(int) (signature >>> 56)].name();
    int cut = kind.indexOf('_');
    return (cut < 0 ? kind : kind.substring(0, cut)).toLowerCase(Locale.ROOT);
  }

  /**
   * {@code nanos} as seconds for a stall's line: one decimal ({@code 2.5 s}), or two significant
   * digits below a tenth ({@code 0.00010 s}, {@code 1.0e-09 s}) where a deck's timeout is that
   * short.
   */
  static String seconds(long nanos) {
    double s = nanos * 1e-9;
    return String.format(java.util.Locale.ROOT, s >= 0.1 ? "%.1f s" : "%.2g s", s);
  }
}
