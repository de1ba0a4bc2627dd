package org.metope.mesh;

/**
 * Which rank owns each block: every rank owns one contiguous range of global ids (Parthenon's
 * {@code ranklist}, {@code nslist} and {@code nblist}). A rank may own no block when there are
 * fewer blocks than ranks.
 */
public final class BlockDistribution {
  private final int[] rankOfGid;
  private final int[] firstGid;
  private final int[] blockCount;

  /**
   * A distribution from each block's rank, which must not decrease with the gid.
   *
   * @param rankOfGid the owning rank of each gid (copied)
   * @param nranks number of ranks
   */
  public BlockDistribution(int[] rankOfGid, int nranks) {
    this.rankOfGid = rankOfGid.clone();
    this.firstGid = new int[nranks];
    this.blockCount = new int[nranks];
    for (int gid = 0; gid < rankOfGid.length; gid++) {
      int rank = rankOfGid[gid];
      if (rank < 0 || rank >= nranks || (gid > 0 && rank < rankOfGid[gid - 1])) {
        throw new IllegalArgumentException("ranks must be in [0, nranks) and non-decreasing: gid="
            + gid + " rank=" + rank + " nranks=" + nranks);
      }
      blockCount[rank]++;
    }
    for (int rank = 1; rank < nranks; rank++) {
      firstGid[rank] = firstGid[rank - 1] + blockCount[rank - 1];
    }
  }

  /** Number of ranks. */
  public int nranks() {
    return firstGid.length;
  }

  /** Number of blocks on all ranks. */
  public int totalBlocks() {
    return rankOfGid.length;
  }

  /** The rank that owns block {@code gid}. */
  public int rank(int gid) {
    return rankOfGid[gid];
  }

  /** The first gid owned by {@code rank} (where it would start when it owns none). */
  public int firstGid(int rank) {
    return firstGid[rank];
  }

  /** Number of blocks owned by {@code rank}. */
  public int blockCount(int rank) {
    return blockCount[rank];
  }
}
