package org.metope.mesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class LoadBalanceTest {

  @Test
  void givenEqualCostsThatDivideEvenly_thenEveryRankGetsTheSameContiguousShare() {
    BlockDistribution d = LoadBalance.distributeUniform(64, 4);
    for (int rank = 0; rank < 4; rank++) {
      assertEquals(16, d.blockCount(rank));
      assertEquals(16 * rank, d.firstGid(rank));
    }
    assertEquals(3, d.rank(63));
    assertEquals(64, d.totalBlocks());
  }

  @Test
  void givenEqualCostsThatDoNotDivide_thenTheLowRanksGetTheSmallerShares() {
    // Filled from the last gid: rank 3 takes 3 blocks (3 >= 10/4), rank 2 takes 3 (>= 7/3),
    // rank 1 takes 2 (>= 4/2), rank 0 the last 2.
    BlockDistribution d = LoadBalance.distributeUniform(10, 4);
    assertEquals(2, d.blockCount(0));
    assertEquals(2, d.blockCount(1));
    assertEquals(3, d.blockCount(2));
    assertEquals(3, d.blockCount(3));
    assertEquals(4, d.firstGid(2));
  }

  @Test
  void givenUnequalCosts_thenRangesBalanceTheCostNotTheCount() {
    BlockDistribution d = LoadBalance.distribute(new double[] {4, 1, 1, 1, 1}, 2);
    assertEquals(1, d.blockCount(0));
    assertEquals(4, d.blockCount(1));
  }

  @Test
  void givenRandomCosts_thenRanksAreContiguousAndNoRankExceedsTheAverageByMoreThanOneBlock() {
    Random rnd = new Random(3);
    for (int trial = 0; trial < 200; trial++) {
      int n = 1 + rnd.nextInt(300);
      int nranks = 1 + rnd.nextInt(Math.min(n, 16));
      double[] costs = new double[n];
      double total = 0;
      double largest = 0;
      for (int i = 0; i < n; i++) {
        costs[i] = 0.5 + rnd.nextDouble() * 3;
        total += costs[i];
        largest = Math.max(largest, costs[i]);
      }
      BlockDistribution d = LoadBalance.distribute(costs, nranks);
      double[] perRank = new double[nranks];
      for (int gid = 0; gid < n; gid++) {
        perRank[d.rank(gid)] += costs[gid];
        if (gid > 0) {
          assertTrue(d.rank(gid) >= d.rank(gid - 1));
        }
      }
      for (int rank = 0; rank < nranks; rank++) {
        assertTrue(perRank[rank] <= total / nranks + largest + 1e-9, "rank " + rank);
      }
    }
  }

  @Test
  void givenMoreRanksThanBlocks_thenTheLowRanksOwnNothing() {
    BlockDistribution d = LoadBalance.distributeUniform(3, 5);
    assertEquals(0, d.blockCount(0));
    assertEquals(0, d.blockCount(1));
    assertEquals(1, d.blockCount(4));
    assertEquals(0, d.firstGid(2));
  }

  @Test
  void givenNonPositiveCostsOrRanks_thenItIsMisuse() {
    assertThrows(IllegalArgumentException.class,
        () -> LoadBalance.distribute(new double[] {1, 0}, 1));
    assertThrows(IllegalArgumentException.class, () -> LoadBalance.distributeUniform(4, 0));
    assertThrows(IllegalArgumentException.class, () -> new BlockDistribution(new int[] {1, 0}, 2));
  }
}
