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
}
