package org.metope.mesh.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class IndexShapeTest {

  @Test
  void givenA3DBlock_thenEntireIncludesGhostsAndInteriorStartsAfterThem() {
    IndexShape s = new IndexShape(16, 8, 4, 2);
    assertEquals(new IndexRange(0, 19), s.boundsI(IndexDomain.ENTIRE));
    assertEquals(new IndexRange(2, 17), s.boundsI(IndexDomain.INTERIOR));
    assertEquals(new IndexRange(2, 9), s.boundsJ(IndexDomain.INTERIOR));
    assertEquals(new IndexRange(2, 5), s.boundsK(IndexDomain.INTERIOR));
    assertEquals(20 * 12 * 8, s.total(IndexDomain.ENTIRE));
    assertEquals(16 * 8 * 4, s.total(IndexDomain.INTERIOR));
    assertEquals(20, s.entireNcells(0));
    assertEquals(8, s.interiorNcells(1));
  }

  @Test
  void givenFaceSlabs_thenEachIsTheGhostLayerBeyondItsFaceAcrossTheEntireOtherAxes() {
    IndexShape s = new IndexShape(16, 8, 4, 2);
    assertEquals(new IndexRange(0, 1), s.boundsI(IndexDomain.INNER_X1));
    assertEquals(new IndexRange(18, 19), s.boundsI(IndexDomain.OUTER_X1));
    assertEquals(new IndexRange(0, 11), s.boundsJ(IndexDomain.INNER_X1));
    assertEquals(new IndexRange(10, 11), s.boundsJ(IndexDomain.OUTER_X2));
    assertEquals(new IndexRange(0, 1), s.boundsK(IndexDomain.INNER_X3));
    assertEquals(2 * 12 * 8, s.total(IndexDomain.INNER_X1));
    assertEquals(20 * 2 * 8, s.total(IndexDomain.OUTER_X2));
    assertEquals(20 * 12 * 2, s.total(IndexDomain.OUTER_X3));
    // The slabs and the interior never overlap along their own axis.
    int ghostsAndInterior = s.ncellsI(IndexDomain.INNER_X1) + s.ncellsI(IndexDomain.INTERIOR)
        + s.ncellsI(IndexDomain.OUTER_X1);
    assertEquals(s.ncellsI(IndexDomain.ENTIRE), ghostsAndInterior);
  }

  @Test
  void givenInactiveAxes_thenTheyHaveOneIndexAndEmptySlabs() {
    IndexShape s = new IndexShape(32, 0, 0, 3);
    assertTrue(s.isActive(0));
    assertFalse(s.isActive(1));
    assertEquals(new IndexRange(0, 0), s.boundsJ(IndexDomain.ENTIRE));
    assertEquals(new IndexRange(0, 0), s.boundsK(IndexDomain.INTERIOR));
    assertEquals(0, s.ncellsJ(IndexDomain.INNER_X2));
    assertEquals(0, s.total(IndexDomain.OUTER_X3));
    assertEquals(38, s.total(IndexDomain.ENTIRE));
    assertEquals(3, s.total(IndexDomain.INNER_X1));
  }

  @Test
  void givenFaceCenteredValues_thenTheyHaveOneMoreIndexAlongTheFaceNormal() {
    IndexShape s = new IndexShape(8, 8, 0, 2);
    assertEquals(new IndexRange(2, 10), s.bounds(0, IndexDomain.INTERIOR, TopologicalElement.F1));
    assertEquals(new IndexRange(2, 9), s.bounds(1, IndexDomain.INTERIOR, TopologicalElement.F1));
    assertEquals(new IndexRange(0, 12), s.bounds(0, IndexDomain.ENTIRE, TopologicalElement.F1));
    assertEquals(new IndexRange(11, 12), s.bounds(0, IndexDomain.OUTER_X1,
        TopologicalElement.F1));
    assertEquals(9 * 9, s.total(IndexDomain.INTERIOR, TopologicalElement.NN));
    assertEquals(new IndexRange(0, 0), s.bounds(2, IndexDomain.INTERIOR, TopologicalElement.F3));
  }

  @Test
  void givenNegativeSizes_thenItIsMisuse() {
    assertThrows(IllegalArgumentException.class, () -> new IndexShape(-1, 0, 0, 2));
  }

  @Test
  void givenA2DShape_thenRefinedDoublesTheActiveInteriorsAndKeepsTheGhosts() {
    IndexShape fine = new IndexShape(16, 8, 0, 3).refined();
    assertEquals(new IndexRange(3, 34), fine.boundsI(IndexDomain.INTERIOR));
    assertEquals(new IndexRange(0, 21), fine.boundsJ(IndexDomain.ENTIRE));
    assertEquals(new IndexRange(0, 0), fine.boundsK(IndexDomain.ENTIRE));
    assertEquals(3, fine.nghost());
  }
}
