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
 */
public final class GlobalOrderSum {
  private GlobalOrderSum() {}

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
    int[] allGids = comm.allgather(gids);
    double[] allValues = comm.allgather(values);
    long[] order = new long[allGids.length];
    for (int i = 0; i < allGids.length; i++) {
      if (allGids[i] < 0) {
        throw new IllegalArgumentException("negative global block id: gid=" + allGids[i]);
      }
      order[i] = ((long) allGids[i] << 32) | i;
    }
    Arrays.sort(order);
    double[] sums = new double[width];
    for (int j = 0; j < order.length; j++) {
      if (j > 0 && (order[j] >>> 32) == (order[j - 1] >>> 32)) {
        throw new IllegalArgumentException("global block id held twice: gid=" + (order[j] >>> 32));
      }
      int block = (int) order[j];
      for (int k = 0; k < width; k++) {
        sums[k] += allValues[block * width + k];
      }
    }
    return sums;
  }
}
