package org.metope.mesh.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class RegionSizeTest {

  @Test
  void givenSymmetrizedPositions_thenTheEndsAndCentreMapOntoTheBounds() {
    RegionSize r = new RegionSize(new double[] {-2.0, 0.0, 0.0}, new double[] {6.0, 1.0, 1.0},
        new int[] {8, 4, 1}, new boolean[] {false, false, true});
    assertEquals(-2.0, r.symmetrizedLogicalToActualPosition(-0.5, 0));
    assertEquals(6.0, r.symmetrizedLogicalToActualPosition(0.5, 0));
    assertEquals(2.0, r.symmetrizedLogicalToActualPosition(0.0, 0));
    assertEquals(0.75, r.symmetrizedLogicalToActualPosition(0.25, 1));
    assertEquals(2, r.ndim());
  }

  @Test
  void givenRegions_thenEqualityComparesEveryField() {
    RegionSize a = new RegionSize(new double[] {0, 0, 0}, new double[] {1, 1, 1},
        new int[] {4, 4, 4}, new boolean[] {false, false, false});
    assertEquals(a, a.withBounds(0, 0, 1));
    assertNotEquals(a, a.withBounds(0, 0, 2));
    assertEquals(3, a.ndim());
  }
}
