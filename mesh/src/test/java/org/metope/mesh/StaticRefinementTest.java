package org.metope.mesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.metope.mesh.forest.Forest;
import org.metope.mesh.forest.LogicalLocation;

class StaticRefinementTest {

  private static Forest refine(String meshLines, String region) {
    MeshConfiguration c = Decks.config(Decks.deck(64, 1, 1, 16, 1, 1,
        "refinement = static\n" + meshLines, "<parthenon/static_refinement0>\n" + region));
    Forest forest = new Forest(c.rootGrid(), c.maxLevel());
    StaticRefinement.apply(forest, c);
    return forest;
  }

  @Test
  void givenARegionInsideOneBlock_thenTheSiblingPairAroundItIsRefined() {
    // Level 1 splits [0, 1] into 8 blocks of 1/8; [0.3, 0.32] lies in block 2, pair 2-3.
    Forest forest = refine("", "x1min = 0.3\nx1max = 0.32\nlevel = 1\n");
    assertTrue(forest.isLeaf(new LogicalLocation(3, 2, 0, 0)));
    assertTrue(forest.isLeaf(new LogicalLocation(3, 3, 0, 0)));
    assertTrue(forest.isLeaf(new LogicalLocation(2, 0, 0, 0)));
    assertEquals(5, forest.leafCount());
  }

  @Test
  void givenARegionEndingExactlyOnABlockEdge_thenTheBlockBeyondTheEdgeIsNotIncluded() {
    // [0.25, 0.5] is exactly level-1 blocks 2 and 3.
    Forest forest = refine("", "x1min = 0.25\nx1max = 0.5\nlevel = 1\n");
    assertEquals(5, forest.leafCount());
    assertTrue(forest.isLeaf(new LogicalLocation(2, 2, 0, 0)));
  }

  @Test
  void givenARegionReachingTheMeshEnd_thenTheLastBlocksAreRefinedAndNothingBeyond() {
    Forest forest = refine("", "x1min = 0.9\nx1max = 1.0\nlevel = 2\n");
    assertTrue(forest.isLeaf(new LogicalLocation(4, 15, 0, 0)));
    assertTrue(forest.isLeaf(new LogicalLocation(4, 14, 0, 0)));
    assertTrue(forest.isLeaf(new LogicalLocation(3, 6, 0, 0)));
    // The two level-2 blocks, their level-1 sibling (3: 6) and the three other root blocks.
    assertEquals(2 + 1 + 3, forest.leafCount());
  }
}
