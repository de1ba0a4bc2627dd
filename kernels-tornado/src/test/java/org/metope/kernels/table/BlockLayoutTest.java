package org.metope.kernels.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BlockLayoutTest {
  @Test
  void givenABlock_whenIndexed_thenIIsFastestThenJThenKThenComponent() {
    BlockLayout layout = new BlockLayout(7, 2, 3, 4, 5);
    assertEquals(7, layout.index(0, 0, 0, 0));
    assertEquals(8, layout.index(0, 0, 0, 1));
    assertEquals(7 + 5, layout.index(0, 0, 1, 0));
    assertEquals(7 + 20, layout.index(0, 1, 0, 0));
    assertEquals(7 + 60, layout.index(1, 0, 0, 0));
    assertEquals(7 + 120 - 1, layout.index(1, 2, 3, 4));
    assertEquals(120, layout.size());
    assertEquals(127, layout.end());
  }

  @Test
  void givenExtents_whenAskedForContainment_thenGhostsCountAndOutsideDoesNot() {
    BlockLayout layout = new BlockLayout(0, 1, 1, 4, 4);
    assertTrue(layout.contains(0, 3, 0));
    assertFalse(layout.contains(1, 0, 0));
    assertFalse(layout.contains(0, 0, -1));
  }

  @Test
  void givenNonPositiveExtentsOrEmptyBoxes_whenCreated_thenTheyAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new BlockLayout(0, 1, 0, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> new BlockLayout(-1, 1, 1, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> new IndexBox(3, 2, 0, 0, 0, 0));
    assertEquals(2 * 3 * 4, new IndexBox(0, 1, 0, 2, 5, 8).cells());
  }
}
