package org.metope.mesh.forest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.mesh.geometry.TopologicalElement;

class BlockOwnershipTest {
  private static final LogicalLocation MIDDLE = new LogicalLocation(2, 1, 1, 0);

  private static NeighborLocation at(int ox1, int ox2) {
    LogicalLocation loc = MIDDLE.shifted(ox1, ox2, 0);
    return new NeighborLocation(loc, loc, NeighborIndex.of(ox1, ox2, 0), 0, 0);
  }

  private static boolean owns(int ownership, int ox1, int ox2, int ox3) {
    return (ownership >> BlockOwnership.bit(ox1, ox2, ox3) & 1) == 1;
  }

  /**
   * A block at (1, 1) among its eight same-level neighbours in 2D: it keeps the parts only
   * earlier blocks in Morton order touch (Parthenon's rule), and its volume.
   */
  @Test
  void givenSameLevelNeighbours_thenABlockOwnsThePartsNoLaterBlockTouches() {
    List<NeighborLocation> all = List.of(at(-1, -1), at(0, -1), at(1, -1), at(-1, 0), at(1, 0),
        at(-1, 1), at(0, 1), at(1, 1));
    int ownership = BlockOwnership.of(MIDDLE, all);
    assertTrue(owns(ownership, 0, 0, 0));
    // Morton order at level 2: (1,0) < (0,1) < (1,1) < (2,0) < ... (x2 bit outranks x1).
    assertTrue(owns(ownership, 0, -1, 0), "the lower x2 face: only (1,0), earlier");
    assertTrue(owns(ownership, -1, 0, 0), "the lower x1 face: only (0,1), earlier");
    assertFalse(owns(ownership, 1, 0, 0), "the upper x1 face: (2,1) is later");
    assertFalse(owns(ownership, 0, 1, 0), "the upper x2 face: (1,2) is later");
    assertTrue(owns(ownership, -1, -1, 0), "the lower corner: (0,0), (1,0), (0,1), all earlier");
    assertFalse(owns(ownership, 1, -1, 0), "the corner (2,0) touches is (2,0)'s");
  }

  @Test
  void givenAFinerNeighbour_thenItOwnsTheSharedFace() {
    LogicalLocation fine = new LogicalLocation(3, 4, 2, 0);
    NeighborLocation n = new NeighborLocation(fine, fine, NeighborIndex.of(1, 0, 0), 0, 0);
    assertFalse(owns(BlockOwnership.of(MIDDLE, List.of(n)), 1, 0, 0));
    NeighborLocation coarse = new NeighborLocation(MIDDLE, MIDDLE, NeighborIndex.of(-1, 0, 0), 0,
        0);
    assertTrue(owns(BlockOwnership.of(fine, List.of(coarse)), -1, 0, 0));
  }

  /**
   * A receiver below a sender that does not own its lower x1 face: the box's first x1 layer (the
   * shared face) is masked for F1 and for the edges and nodes on it, never for F2, whose values
   * there are the sender's inside; the box's last layer, deep in the sender, is always written.
   */
  @Test
  void givenASenderThatDoesNotOwnItsLowerFace_thenOnlyElementsOnThatFaceAreMasked() {
    int sender = BlockOwnership.ALL & ~(1 << BlockOwnership.bit(-1, 0, 0));
    int firstLayer = 0;
    for (int ck = -1; ck <= 1; ck++) {
      for (int cj = -1; cj <= 1; cj++) {
        firstLayer |= 1 << BlockOwnership.bit(-1, cj, ck);
      }
    }
    assertEquals(BlockOwnership.ALL & ~firstLayer,
        BlockOwnership.elementMask(TopologicalElement.F1, sender, -1, 0, 0));
    assertEquals(BlockOwnership.ALL,
        BlockOwnership.elementMask(TopologicalElement.F2, sender, -1, 0, 0));
    int e3 = BlockOwnership.elementMask(TopologicalElement.E3, sender, -1, 0, 0);
    assertFalse((e3 >> BlockOwnership.bit(-1, 0, 0) & 1) == 1);
    assertTrue((e3 >> BlockOwnership.bit(1, 0, 0) & 1) == 1);
    assertTrue((e3 >> BlockOwnership.bit(-1, 1, 0) & 1) == 1, "corner parts are owned");
  }

  /**
   * Parthenon ranks two blocks of one level by tree, then by Morton number inside the tree. Its
   * forest of a root grid ({@code Forest::HyperRectangular}) cuts the grid into trees of {@code
   * 2^p} root blocks per axis ({@code p} the largest power of two dividing every active extent)
   * and numbers the trees in Z-order: that is the global Morton order Metope compares by, on root
   * blocks and on their children, for every grid below.
   */
  @Test
  void givenParthenonsTreesOfARootGrid_thenTreeThenMortonIsMetopesOrder() {
    int[][] grids = {{3, 2, 1}, {6, 4, 1}, {5, 3, 2}, {4, 4, 4}, {12, 8, 1}, {3, 1, 1}};
    for (int[] n : grids) {
      int p = Integer.MAX_VALUE;
      int maxBlocks = 1;
      for (int d = 0; d < 3; d++) {
        if (n[d] > 1) {
          p = Math.min(p, Integer.numberOfTrailingZeros(n[d]));
        }
        maxBlocks = Math.max(maxBlocks, n[d]);
      }
      int rootLevel = 32 - Integer.numberOfLeadingZeros(maxBlocks - 1);
      for (int depth = 0; depth <= 1; depth++) {
        List<long[]> blocks = new java.util.ArrayList<>();
        for (long k = 0; k < (long) n[2] << (n[2] > 1 ? depth : 0); k++) {
          for (long j = 0; j < (long) n[1] << (n[1] > 1 ? depth : 0); j++) {
            for (long i = 0; i < (long) n[0] << depth; i++) {
              blocks.add(new long[] {i, j, k});
            }
          }
        }
        int inTree = p + depth; // levels inside a tree
        for (long[] a : blocks) {
          for (long[] b : blocks) {
            int parthenon = Long.compare(key(a, inTree, 0), key(b, inTree, 0));
            if (parthenon == 0) {
              parthenon = Long.compare(key(a, 0, inTree), key(b, 0, inTree));
            }
            LogicalLocation la = new LogicalLocation(rootLevel + depth, a[0], a[1], a[2]);
            LogicalLocation lb = new LogicalLocation(rootLevel + depth, b[0], b[1], b[2]);
            assertEquals(Integer.signum(parthenon), Integer.signum(la.compareTo(lb)),
                java.util.Arrays.toString(n) + " depth " + depth + ": "
                    + java.util.Arrays.toString(a) + " vs " + java.util.Arrays.toString(b));
          }
        }
      }
    }
  }

  /**
   * The Morton number (x3 bit above x2 above x1) of {@code x} shifted right by {@code drop} bits
   * and keeping {@code keep} bits when {@code keep} is positive: the tree's number for {@code
   * (inTree, 0)}, the number inside the tree for {@code (0, inTree)}.
   */
  private static long key(long[] x, int drop, int keep) {
    long m = 0;
    for (int bit = 20; bit >= 0; bit--) {
      for (int d = 2; d >= 0; d--) {
        long v = x[d] >> drop;
        if (keep > 0) {
          v &= (1L << keep) - 1;
        }
        m = m << 1 | (v >> bit & 1);
      }
    }
    return m;
  }
}
