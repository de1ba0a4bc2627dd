package org.metope.amr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.forest.Forest;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.forest.RootGrid;

class TreeUpdateTest {
  /** A periodic 4 x 4 root grid (root level 2) allowing two more levels. */
  private static Forest forest() {
    return new Forest(new RootGrid(2, 4, 4, 1, true, true, false), 4);
  }

  private static LogicalLocation loc(int level, long i, long j) {
    return new LogicalLocation(level, i, j, 0);
  }

  /** Flags for the forest's leaves: {@code value} at the given locations, 0 elsewhere. */
  private static int[] flags(List<LogicalLocation> leaves, int value, LogicalLocation... at) {
    int[] flags = new int[leaves.size()];
    for (LogicalLocation l : at) {
      flags[leaves.indexOf(l)] = value;
    }
    return flags;
  }

  /** Every leaf's neighbours can be found, which fails when 2:1 balance is broken. */
  private static void assertBalanced(Forest forest) {
    for (LogicalLocation leaf : forest.sortedLeaves()) {
      forest.findNeighbors(leaf);
    }
  }

  @Test
  void givenNoBlockRefinesAndNoSiblingGroupDerefines_thenTheForestIsUnchanged() {
    Forest forest = forest();
    List<LogicalLocation> leaves = forest.resolveGids();
    int[] flags = flags(leaves, AmrTag.DEREFINE_VALUE, loc(2, 0, 0), loc(2, 1, 0), loc(2, 2, 0));

    TreeUpdate.Result r = TreeUpdate.apply(forest, leaves, flags, 2);

    assertFalse(r.changed());
    assertEquals(16, forest.leafCount());
  }

  @Test
  void givenARootBlockRefines_thenItIsReplacedByFourChildren() {
    Forest forest = forest();
    List<LogicalLocation> leaves = forest.resolveGids();

    TreeUpdate.Result r = TreeUpdate.apply(forest, leaves,
        flags(leaves, AmrTag.REFINE_VALUE, loc(2, 1, 1)), 2);

    assertEquals(new TreeUpdate.Result(3, 0), r);
    assertTrue(forest.isInternal(loc(2, 1, 1)));
    assertTrue(forest.isLeaf(loc(3, 3, 3)));
  }

  @Test
  void givenACornerChildRefines_thenTheThreeCoarseBlocksAroundThatCornerRefineToo() {
    Forest forest = forest();
    forest.refine(loc(2, 1, 1));
    List<LogicalLocation> leaves = forest.resolveGids();

    TreeUpdate.Result r = TreeUpdate.apply(forest, leaves,
        flags(leaves, AmrTag.REFINE_VALUE, loc(3, 3, 3)), 2);

    // The upper-right child of (2: 1, 1) touches (2: 2, 1), (2: 1, 2) and (2: 2, 2).
    assertEquals(new TreeUpdate.Result(12, 0), r);
    for (LogicalLocation coarse : List.of(loc(2, 2, 1), loc(2, 1, 2), loc(2, 2, 2))) {
      assertTrue(forest.isInternal(coarse), coarse.toString());
    }
    assertBalanced(forest);
  }

  @Test
  void givenAllFourSiblingsDerefine_thenTheyMergeButThreeOfFourDoNot() {
    Forest forest = forest();
    forest.refine(loc(2, 0, 0));
    forest.refine(loc(2, 3, 3));
    List<LogicalLocation> leaves = forest.resolveGids();
    int[] flags = flags(leaves, AmrTag.DEREFINE_VALUE, loc(3, 0, 0), loc(3, 1, 0), loc(3, 0, 1),
        loc(3, 1, 1), loc(3, 6, 6), loc(3, 7, 6), loc(3, 6, 7));

    TreeUpdate.Result r = TreeUpdate.apply(forest, leaves, flags, 2);

    assertEquals(new TreeUpdate.Result(0, 3), r);
    assertTrue(forest.isLeaf(loc(2, 0, 0)));
    assertTrue(forest.isInternal(loc(2, 3, 3)));
  }

  @Test
  void givenSiblingsDerefineNextToAFinerBlock_thenTheMergeIsRefusedToKeepTwoToOne() {
    Forest forest = forest();
    forest.refine(loc(2, 0, 0));
    forest.refine(loc(2, 1, 0));
    forest.refine(loc(3, 2, 0));
    List<LogicalLocation> leaves = forest.resolveGids();
    int[] flags = flags(leaves, AmrTag.DEREFINE_VALUE, loc(3, 0, 0), loc(3, 1, 0), loc(3, 0, 1),
        loc(3, 1, 1));

    TreeUpdate.Result r = TreeUpdate.apply(forest, leaves, flags, 2);

    assertFalse(r.changed());
    assertTrue(forest.isInternal(loc(2, 0, 0)));
  }

  @Test
  void givenMergesAtTwoLevelsAndARefinement_thenAllHappenInOnePass() {
    Forest forest = forest();
    forest.refine(loc(2, 0, 0));
    forest.refine(loc(3, 0, 0));
    forest.refine(loc(2, 3, 0));
    List<LogicalLocation> leaves = forest.resolveGids();
    int[] flags = flags(leaves, AmrTag.DEREFINE_VALUE, loc(4, 0, 0), loc(4, 1, 0), loc(4, 0, 1),
        loc(4, 1, 1), loc(3, 6, 0), loc(3, 7, 0), loc(3, 6, 1), loc(3, 7, 1));
    flags[leaves.indexOf(loc(2, 2, 2))] = AmrTag.REFINE_VALUE;

    TreeUpdate.Result r = TreeUpdate.apply(forest, leaves, flags, 2);

    assertEquals(new TreeUpdate.Result(3, 6), r);
    assertTrue(forest.isLeaf(loc(3, 0, 0)));
    assertTrue(forest.isLeaf(loc(2, 3, 0)));
    assertTrue(forest.isInternal(loc(2, 2, 2)));
    assertBalanced(forest);
  }

  @Test
  void givenSiblingsInGidOrder_thenCompleteGroupsAreFoundOnlyFromTheirFirstChild() {
    List<LogicalLocation> derefine = List.of(loc(3, 1, 0), loc(3, 0, 1), loc(3, 1, 1),
        loc(3, 2, 0), loc(3, 3, 0), loc(3, 2, 1), loc(3, 3, 1));

    assertEquals(List.of(loc(2, 1, 0)), TreeUpdate.completeSiblingGroups(derefine, 2));
  }

  @Test
  void givenEachRanksTaggedBlocksGatheredInRankOrder_thenTheTreeChangesAsFromEveryFlag() {
    java.util.Random rnd = new java.util.Random(7);
    int[] split = {0, 5, 6, 11, 16};
    for (int trial = 0; trial < 20; trial++) {
      Forest whole = forest();
      Forest gathered = forest();
      List<LogicalLocation> leaves = whole.resolveGids();
      gathered.resolveGids();
      int[] flags = new int[leaves.size()];
      for (int gid = 0; gid < flags.length; gid++) {
        flags[gid] = rnd.nextInt(5) == 0 ? AmrTag.REFINE_VALUE
            : rnd.nextInt(2) == 0 ? AmrTag.DEREFINE_VALUE : AmrTag.SAME_VALUE;
      }
      // Four ranks' contiguous gid ranges, each sending its tagged blocks, concatenated in rank
      // order as an allgather delivers them.
      java.util.stream.IntStream.Builder all = java.util.stream.IntStream.builder();
      for (int r = 0; r + 1 < split.length; r++) {
        for (int request : TreeUpdate.requests(
            java.util.Arrays.copyOfRange(flags, split[r], split[r + 1]), split[r])) {
          all.add(request);
        }
      }

      TreeUpdate.Result fromFlags = TreeUpdate.apply(whole, leaves, flags, 2);
      TreeUpdate.Result fromRequests = TreeUpdate.applyRequests(gathered, leaves,
          all.build().toArray(), 2);

      assertEquals(fromFlags, fromRequests);
      assertEquals(whole.sortedLeaves(), gathered.sortedLeaves());
    }
  }

  @Test
  void givenRequestsOutOfGidOrder_thenTheyAreRefused() {
    // Control: sibling groups are found in gid order, so another order must not pass silently.
    Forest forest = forest();
    List<LogicalLocation> leaves = forest.resolveGids();
    int[] requests = {TreeUpdate.requests(new int[] {1}, 3)[0],
        TreeUpdate.requests(new int[] {1}, 2)[0]};

    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> TreeUpdate.applyRequests(forest, leaves, requests, 2));
    assertEquals(16, forest.leafCount());
  }
}
