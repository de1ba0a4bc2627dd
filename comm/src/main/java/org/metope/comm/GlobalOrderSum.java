package org.metope.comm;

import java.util.Arrays;

/**
 * Sums whose bits do not depend on the number of ranks: every block's values are gathered to every
 * rank and added in ascending global block id (gid) order, exactly as one rank holding all blocks
 * would add them. A sum of per-rank partial sums would instead change with the decomposition,
 * because floating-point addition is not associative.
 *
 * <p>History outputs use this: the same deck gives the same history file on 1 rank and on N ranks.
 * The cost is an allgather of every block's values, which is cheap at history cadence.
 *
 * <p>{@link #foldInGlobalBlockOrder} goes further, for sums that must also be added cell by cell in
 * one running total across blocks (as one Kokkos reduction over a whole pack of blocks adds
 * them): the running values pass from block to block in gid order, from rank to rank where the
 * owner changes.
 */
public final class GlobalOrderSum {
  private GlobalOrderSum() {}

  /** Adds one local block's contributions to running totals. */
  @FunctionalInterface
  public interface BlockFold {
    /** Adds local block {@code block}'s contributions to {@code running} (updated in place). */
    void fold(int block, double[] running);
  }

  /**
   * Running totals carried through every block of every rank in ascending gid order, starting
   * from zeros: each block's owner folds it into the totals it holds, and where the next block
   * belongs to another rank the totals are broadcast from the owner (one broadcast per run of
   * consecutive gids on one rank, so one per rank for the contiguous ranges of a load balance).
   *
   * @param comm the communicator over which blocks are distributed (collective call)
   * @param gids global ids of this rank's blocks, {@code fold}'s block indices; non-negative and
   *     distinct over all ranks
   * @param width the number of running totals
   * @return the totals after the last block: the same bits on every rank and for every
   *     decomposition of the blocks as one rank folding all blocks in gid order
   */
  public static double[] foldInGlobalBlockOrder(Communicator comm, int[] gids, int width,
      BlockFold fold) {
    CommArguments.checkNotNull(comm, "comm");
    CommArguments.checkNotNull(gids, "gids");
    CommArguments.checkNotNull(fold, "fold");
    if (width < 1) {
      throw new IllegalArgumentException("width must be positive: width=" + width);
    }
    int[] counts = comm.allgather(new int[] {gids.length});
    long[] order = globalOrder(comm.allgather(gids));
    int[] owner = new int[order.length];
    int mine = 0;
    for (int r = 0, position = 0; r < counts.length; r++) {
      mine = r < comm.rank() ? mine + counts[r] : mine;
      for (int n = 0; n < counts[r]; n++) {
        owner[position++] = r;
      }
    }
    double[] running = new double[width];
    for (int j = 0; j < order.length; j++) {
      int position = (int) order[j];
      if (owner[position] == comm.rank()) {
        fold.fold(position - mine, running);
      }
      boolean lastOfRun = j + 1 == order.length || owner[(int) order[j + 1]] != owner[position];
      if (lastOfRun && comm.size() > 1) {
        comm.broadcast(running, owner[position]);
      }
    }
    return running;
  }

  /**
   * Sums per-block values over all ranks in global block order.
   *
   * @param comm the communicator over which blocks are distributed (collective call)
   * @param gids global ids of this rank's blocks, in any order; non-negative and distinct over all
   *     ranks
   * @param values {@code values[b * width + k]} is value {@code k} of local block {@code b}
   * @param width values per block
   * @return {@code sums[k]}: {@code 0.0 + v(gid_0, k) + v(gid_1, k) + ...} with gids ascending;
   *     the same bits on every rank and for every decomposition of the blocks
   */
  public static double[] sumInGlobalBlockOrder(Communicator comm, int[] gids, double[] values,
      int width) {
    CommArguments.checkNotNull(comm, "comm");
    CommArguments.checkNotNull(gids, "gids");
    CommArguments.checkNotNull(values, "values");
    if (width < 1 || values.length != (long) gids.length * width) {
      throw new IllegalArgumentException("values must hold width values per block: width="
          + width + ", blocks=" + gids.length + ", values.length=" + values.length);
    }
    long[] order = globalOrder(comm.allgather(gids));
    double[] allValues = comm.allgather(values);
    double[] sums = new double[width];
    for (long entry : order) {
      int block = (int) entry;
      for (int k = 0; k < width; k++) {
        sums[k] += allValues[block * width + k];
      }
    }
    return sums;
  }

  /**
   * Positions in {@code allGids} (the low 32 bits of each entry) sorted by gid (the high bits).
   *
   * @throws IllegalArgumentException for a negative gid or one held twice
   */
  private static long[] globalOrder(int[] allGids) {
    long[] order = new long[allGids.length];
    for (int i = 0; i < allGids.length; i++) {
      if (allGids[i] < 0) {
        throw new IllegalArgumentException("negative global block id: gid=" + allGids[i]);
      }
      order[i] = ((long) allGids[i] << 32) | i;
    }
    Arrays.sort(order);
    for (int j = 1; j < order.length; j++) {
      if ((order[j] >>> 32) == (order[j - 1] >>> 32)) {
        throw new IllegalArgumentException("global block id held twice: gid=" + (order[j] >>> 32));
      }
    }
    return order;
  }
}
