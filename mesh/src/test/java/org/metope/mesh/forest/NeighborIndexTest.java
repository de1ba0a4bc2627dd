package org.metope.mesh.forest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class NeighborIndexTest {

  @Test
  void givenEveryOffsetVector_thenTheIndexIsXPlusThreeYPlusNineZAndRoundTrips() {
    boolean[] used = new boolean[27];
    for (int z = -1; z <= 1; z++) {
      for (int y = -1; y <= 1; y++) {
        for (int x = -1; x <= 1; x++) {
          NeighborIndex e = NeighborIndex.of(x, y, z);
          int expected = (x + 1) + 3 * (y + 1) + 9 * (z + 1);
          assertEquals(expected, e.index());
          assertSame(e, NeighborIndex.ofIndex(expected));
          assertEquals(x, e.ox1());
          assertEquals(y, e.offset(1));
          assertEquals(z, e.ox3());
          used[expected] = true;
        }
      }
    }
    for (boolean u : used) {
      assertEquals(true, u);
    }
  }

  @Test
  void givenAnElement_thenItsReverseIsTheOppositeVector() {
    for (NeighborIndex e : NeighborIndex.all()) {
      NeighborIndex r = e.reverse();
      assertEquals(-e.ox1(), r.ox1());
      assertEquals(-e.ox2(), r.ox2());
      assertEquals(-e.ox3(), r.ox3());
      assertSame(e, r.reverse());
      assertEquals(26 - e.index(), r.index());
    }
    assertSame(NeighborIndex.VOLUME, NeighborIndex.VOLUME.reverse());
  }

  @Test
  void givenElementKinds_thenThereAre6Faces12EdgesAnd8Corners() {
    int faces = 0;
    int edges = 0;
    int corners = 0;
    for (NeighborIndex e : NeighborIndex.all()) {
      faces += e.isFace() ? 1 : 0;
      edges += e.isEdge() ? 1 : 0;
      corners += e.isCorner() ? 1 : 0;
    }
    assertEquals(6, faces);
    assertEquals(12, edges);
    assertEquals(8, corners);
    assertEquals(0, NeighborIndex.VOLUME.codimension());
  }

  @Test
  void givenOffsetsOutsideMinusOneToOne_thenItIsMisuse() {
    assertThrows(IllegalArgumentException.class, () -> NeighborIndex.of(2, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> NeighborIndex.ofIndex(27));
  }
}
