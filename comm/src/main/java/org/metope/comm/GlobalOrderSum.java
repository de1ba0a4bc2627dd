package org.metope.comm;

import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/**
 * Sums whose bits do not depend on the number of ranks: every block's values are added in
 * ascending global block id (gid) order, exactly as one rank holding all blocks would add them. A
 * sum of per-rank partial sums would instead change with the decomposition, because
 * floating-point addition is not associative.
 *
 * <p>History outputs use this: the same deck gives the same history file on 1 rank and on N ranks.
 * {@link #sumInGlobalBlockOrder} gathers every block's values to rank 0 (along a tree: {@code
 * log2(P)} messages there), adds them there and broadcasts the sums; no other rank receives the
 * per-block table.
 *
 * <p>{@link #foldInGlobalBlockOrder} goes further, for sums that must also be added cell by cell in
 * one running total across blocks (as one Kokkos reduction over a whole pack of blocks adds
 * them): the running values pass from block to block in gid order, from rank to rank where the
 * owner changes, as one message from the owner of a block to the owner of the next.
 */
public final class GlobalOrderSum {
  /** The tag of the running totals passed between ranks by {@link #foldInGlobalBlockOrder}. */
  public static final int FOLD_TAG = 0;

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
   * belongs to another rank the owner sends the totals there (one message per run of consecutive
   * gids on one rank, so one per rank for the contiguous ranges of a load balance). The owner of
   * the last block then broadcasts them. The chain is sequential by nature: the totals entering a
   * block depend on every block before it.
   *
   * @param comm the communicator over which blocks are distributed (collective call); the totals
   *     travel on it as point-to-point messages with tag {@link #FOLD_TAG}, so give it a
   *     communicator that nothing else sends on at the same time (a duplicate)
   * @param gids global ids of this rank's blocks, {@code fold}'s block indices, in any order
   * @param ownerOfGid the rank holding each gid in {@code [0, totalBlocks)}, the same on every rank
   *     (every rank holds the whole tree)
   * @param totalBlocks the number of blocks of all ranks; gids are {@code 0 ... totalBlocks - 1}
   * @param width the number of running totals
   * @return the totals after the last block: the same bits on every rank and for every
   *     decomposition of the blocks as one rank folding all blocks in gid order
   */
  public static double[] foldInGlobalBlockOrder(Communicator comm, int[] gids,
      IntUnaryOperator ownerOfGid, int totalBlocks, int width, BlockFold fold) {
    CommArguments.checkNotNull(comm, "comm");
    CommArguments.checkNotNull(gids, "gids");
    CommArguments.checkNotNull(ownerOfGid, "ownerOfGid");
    CommArguments.checkNotNull(fold, "fold");
    if (width < 1) {
      throw new IllegalArgumentException("width must be positive: width=" + width);
    }
    int me = comm.rank();
    long[] order = localOrder(gids);
    for (long entry : order) {
      int gid = (int) (entry >>> 32);
      if (gid >= totalBlocks || ownerOfGid.applyAsInt(gid) != me) {
        throw new IllegalArgumentException("gid not held by this rank: gid=" + gid + ", rank="
            + me + ", owner=" + (gid < totalBlocks ? ownerOfGid.applyAsInt(gid) : -1)
            + ", totalBlocks=" + totalBlocks);
      }
    }
    double[] running = new double[width];
    Request request = comm.newRequest();
    for (long entry : order) {
      int gid = (int) (entry >>> 32);
      if (gid > 0 && ownerOfGid.applyAsInt(gid - 1) != me) {
        comm.irecv(request, running, 0, width, ownerOfGid.applyAsInt(gid - 1), FOLD_TAG)
            .waitFor();
      }
      fold.fold((int) entry, running);
      if (gid + 1 < totalBlocks && ownerOfGid.applyAsInt(gid + 1) != me) {
        comm.isend(request, running, 0, width, ownerOfGid.applyAsInt(gid + 1), FOLD_TAG)
            .waitFor();
      }
    }
    if (comm.size() > 1 && totalBlocks > 0) {
      comm.broadcast(running, ownerOfGid.applyAsInt(totalBlocks - 1));
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
   * @throws IllegalArgumentException on every rank for a negative gid or one held twice
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
    int record = width + 1;
    double[] mine = new double[gids.length * record];
    for (int b = 0; b < gids.length; b++) {
      mine[b * record] = gids[b];
      System.arraycopy(values, b * width, mine, b * record + 1, width);
    }
    double[] all = comm.gather(mine, 0);
    // [NaN, or the gid that breaks the rules; the sums]
    double[] result = new double[record];
    if (comm.rank() == 0) {
      int blocks = all.length / record;
      int[] allGids = new int[blocks];
      for (int b = 0; b < blocks; b++) {
        allGids[b] = (int) all[b * record];
      }
      long[] order = sortedByGid(allGids);
      result[0] = order.length > 0 && order[0] < 0 ? (double) (order[0] >> 32)
          : firstRepeated(order) >= 0 ? firstRepeated(order) : Double.NaN;
      for (long entry : order) {
        int at = (int) entry * record + 1;
        for (int k = 0; k < width; k++) {
          result[1 + k] += all[at + k];
        }
      }
    }
    comm.broadcast(result, 0);
    if (!Double.isNaN(result[0])) {
      int gid = (int) result[0];
      throw new IllegalArgumentException((gid < 0 ? "negative global block id: gid="
          : "global block id held twice: gid=") + gid);
    }
    return Arrays.copyOfRange(result, 1, record);
  }

  /**
   * {@link #sortedByGid} of this rank's own gids.
   *
   * @throws IllegalArgumentException for a negative gid or one held twice
   */
  private static long[] localOrder(int[] gids) {
    for (int gid : gids) {
      if (gid < 0) {
        throw new IllegalArgumentException("negative global block id: gid=" + gid);
      }
    }
    long[] order = sortedByGid(gids);
    int repeated = firstRepeated(order);
    if (repeated >= 0) {
      throw new IllegalArgumentException("global block id held twice: gid=" + repeated);
    }
    return order;
  }

  /** Positions in {@code gids} (the low 32 bits of each entry) sorted by gid (the high bits). */
  private static long[] sortedByGid(int[] gids) {
    long[] order = new long[gids.length];
    for (int i = 0; i < gids.length; i++) {
      order[i] = ((long) gids[i] << 32) | i;
    }
    Arrays.sort(order);
    return order;
  }

  /** The first gid that appears twice in a sorted order, or -1. */
  private static int firstRepeated(long[] order) {
    for (int j = 1; j < order.length; j++) {
      if ((order[j] >>> 32) == (order[j - 1] >>> 32)) {
        return (int) (order[j] >>> 32);
      }
    }
    return -1;
  }
}
