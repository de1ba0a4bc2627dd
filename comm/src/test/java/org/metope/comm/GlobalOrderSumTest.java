package org.metope.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Sums in global block order give the same bits for every decomposition. */
class GlobalOrderSumTest {
  private static final int BLOCKS = 40;

  /** Values spanning 24 orders of magnitude, so the order of additions changes the result. */
  private static double blockValue(int gid) {
    return Math.pow(10.0, (gid * 7) % 24 - 12) * (gid % 2 == 0 ? 1 : -1) / 3.0;
  }

  private static double[] sumOn(int ranks) {
    ConcurrentHashMap<Integer, double[]> results = new ConcurrentHashMap<>();
    InProcessRun.run(ranks, c -> {
      int[] gids = java.util.stream.IntStream.range(0, BLOCKS)
          .filter(g -> g % c.size() == (c.size() - 1 - c.rank())).toArray();
      double[] values = new double[gids.length];
      for (int b = 0; b < gids.length; b++) {
        values[b] = blockValue(gids[b]);
      }
      results.put(c.rank(), GlobalOrderSum.sumInGlobalBlockOrder(c, gids, values, 1));
    });
    for (double[] r : results.values()) {
      assertEquals(Double.doubleToRawLongBits(results.get(0)[0]), Double.doubleToRawLongBits(r[0]),
          "every rank gets the same bits");
    }
    return results.get(0);
  }

  @Test
  void givenOneToFiveRanks_thenTheSumHasTheBitsOfTheSerialLoopInGidOrder() {
    double serial = 0.0;
    for (int gid = 0; gid < BLOCKS; gid++) {
      serial += blockValue(gid);
    }
    for (int ranks = 1; ranks <= 5; ranks++) {
      assertEquals(Double.doubleToRawLongBits(serial), Double.doubleToRawLongBits(sumOn(ranks)[0]),
          "ranks=" + ranks);
    }
  }

  @Test
  void givenTheseValues_thenPerRankPartialSumsWouldDependOnTheDecomposition() {
    double serial = 0.0;
    double evens = 0.0;
    double odds = 0.0;
    for (int gid = 0; gid < BLOCKS; gid++) {
      serial += blockValue(gid);
      if (gid % 2 == 0) {
        evens += blockValue(gid);
      } else {
        odds += blockValue(gid);
      }
    }
    assertNotEquals(Double.doubleToRawLongBits(serial), Double.doubleToRawLongBits(odds + evens),
        "the data must be sensitive to summation order for the test above to mean anything");
  }

  @Test
  void givenAGidHeldByTwoRanks_thenEveryRankRejectsIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> InProcessRun.run(2, c ->
            GlobalOrderSum.sumInGlobalBlockOrder(c, new int[] {5}, new double[] {1.0}, 1)));
    assertTrue(e.getMessage().contains("gid=5"), e.getMessage());
  }

  @Test
  void givenANegativeGidOnOneRank_thenEveryRankRejectsIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> InProcessRun.run(3, c -> GlobalOrderSum.sumInGlobalBlockOrder(c,
            new int[] {c.rank() == 2 ? -4 : c.rank()}, new double[] {1.0}, 1)));
    assertTrue(e.getMessage().contains("negative global block id: gid=-4"), e.getMessage());
  }

  @Test
  void givenAGidTheOwnerFunctionGivesToAnotherRank_thenTheFoldRejectsIt() {
    Communicator one = InProcessCluster.singleRank();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> GlobalOrderSum.foldInGlobalBlockOrder(one, new int[] {0, 1}, g -> g, 2, 1,
            (b, running) -> running[0] += 1.0));
    assertEquals("gid not held by this rank: gid=1, rank=0, owner=1, totalBlocks=2",
        e.getMessage());
  }

  @Test
  void givenValuesNotMatchingTheWidth_thenTheShapesAreNamed() {
    Communicator one = InProcessCluster.singleRank();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> GlobalOrderSum.sumInGlobalBlockOrder(one, new int[] {0, 1}, new double[3], 2));
    assertEquals("values must hold width values per block: width=2, blocks=2, values.length=3",
        e.getMessage());
    assertEquals("[3.0, 5.0]", Arrays.toString(GlobalOrderSum.sumInGlobalBlockOrder(one,
        new int[] {1, 0}, new double[] {1.0, 2.0, 2.0, 3.0}, 2)));
  }

  /** Term {@code t} of block {@code gid}: each block adds several terms to the running total. */
  private static double term(int gid, int t) {
    return blockValue(gid * TERMS + t);
  }

  private static final int TERMS = 3;

  @Test
  void givenOneToFiveRanks_thenTheFoldHasTheBitsOfOneTotalCarriedThroughEveryTerm() {
    double serial = 0.0;
    double perBlock = 0.0;
    for (int gid = 0; gid < BLOCKS; gid++) {
      double block = 0.0;
      for (int t = 0; t < TERMS; t++) {
        serial += term(gid, t);
        block += term(gid, t);
      }
      perBlock += block;
    }
    assertNotEquals(Double.doubleToRawLongBits(serial), Double.doubleToRawLongBits(perBlock),
        "per-block partial sums must differ, or the fold would not be tested");
    for (int ranks = 1; ranks <= 5; ranks++) {
      ConcurrentHashMap<Integer, double[]> results = new ConcurrentHashMap<>();
      InProcessRun.run(ranks, c -> {
        // Interleaved, not contiguous, ownership: the total changes rank at every block.
        int[] gids = java.util.stream.IntStream.range(0, BLOCKS)
            .filter(g -> g % c.size() == (c.size() - 1 - c.rank())).toArray();
        results.put(c.rank(), GlobalOrderSum.foldInGlobalBlockOrder(c, gids,
            g -> c.size() - 1 - g % c.size(), BLOCKS, 2, (b, running) -> {
              for (int t = 0; t < TERMS; t++) {
                running[0] += term(gids[b], t);
                running[1] += 1.0;
              }
            }));
      });
      for (double[] r : results.values()) {
        assertEquals(Double.doubleToRawLongBits(serial), Double.doubleToRawLongBits(r[0]),
            "ranks=" + ranks);
        assertEquals(BLOCKS * TERMS, r[1], "every block folded once, ranks=" + ranks);
      }
    }
  }
}
