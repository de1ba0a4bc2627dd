package org.metope.mesh;

/**
 * Assigns blocks to ranks along the Z-order curve: each rank gets a contiguous range of global ids
 * of about equal total cost (Parthenon's {@code CalculateLoadBalance}). Because gids follow the
 * Morton curve, a contiguous range is a compact piece of the domain.
 *
 * <p>The assignment walks the gids from the last to the first, filling the highest rank until its
 * cost reaches the average of what is left, so that rank 0, which also does I/O, ends up with the
 * smaller share when the costs do not divide evenly. The same costs give the same ranks on every
 * rank.
 */
public final class LoadBalance {
  private LoadBalance() {}

  /**
   * Distributes blocks with the given costs over {@code nranks} ranks.
   *
   * @param costs cost of each block by gid, all positive
   * @param nranks number of ranks, at least 1
   */
  public static BlockDistribution distribute(double[] costs, int nranks) {
    if (nranks < 1) {
      throw new IllegalArgumentException("nranks=" + nranks + " must be positive");
    }
    double total = 0.0;
    for (int gid = 0; gid < costs.length; gid++) {
      if (!(costs[gid] > 0.0)) {
        throw new IllegalArgumentException("costs must be positive: gid=" + gid + " cost="
            + costs[gid]);
      }
      total += costs[gid];
    }
    int[] ranks = new int[costs.length];
    int rank = nranks - 1;
    double target = total / nranks;
    double mine = 0.0;
    double remaining = total;
    for (int gid = costs.length - 1; gid >= 0; gid--) {
      mine += costs[gid];
      ranks[gid] = rank;
      if (mine >= target && rank > 0) {
        rank--;
        remaining -= mine;
        mine = 0.0;
        target = remaining / (rank + 1);
      }
    }
    return new BlockDistribution(ranks, nranks);
  }

  /** Distributes {@code nblocks} blocks of cost 1 each. */
  public static BlockDistribution distributeUniform(int nblocks, int nranks) {
    double[] costs = new double[nblocks];
    java.util.Arrays.fill(costs, 1.0);
    return distribute(costs, nranks);
  }
}
