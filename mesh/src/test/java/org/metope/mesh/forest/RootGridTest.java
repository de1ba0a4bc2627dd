package org.metope.mesh.forest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RootGridTest {

  @Test
  void givenRootBlockCounts_thenTheRootLevelIsTheCeilingOfTheirLog2() {
    assertEquals(0, new RootGrid(1, 1, 1, 1, false, false, false).rootLevel());
    assertEquals(1, new RootGrid(1, 2, 1, 1, false, false, false).rootLevel());
    assertEquals(2, new RootGrid(2, 3, 2, 1, false, false, false).rootLevel());
    assertEquals(2, new RootGrid(3, 4, 4, 4, false, false, false).rootLevel());
    assertEquals(3, new RootGrid(3, 5, 1, 2, false, false, false).rootLevel());
  }

  @Test
  void givenAGrid_thenExtentsDoubleWithEachLevelOnActiveAxesOnly() {
    RootGrid grid = new RootGrid(2, 3, 2, 1, false, false, false);
    assertEquals(3, grid.extent(0, 2));
    assertEquals(12, grid.extent(0, 4));
    assertEquals(8, grid.extent(1, 4));
    assertEquals(1, grid.extent(2, 4));
  }

  @Test
  void givenLocationsBeyondTheDomain_thenPeriodicAxesWrapAndOthersGiveNull() {
    RootGrid grid = new RootGrid(2, 3, 2, 1, true, false, false);
    assertEquals(new LogicalLocation(3, 5, 1, 0), grid.wrap(new LogicalLocation(3, -1, 1, 0)));
    assertEquals(new LogicalLocation(3, 0, 1, 0), grid.wrap(new LogicalLocation(3, 6, 1, 0)));
    assertNull(grid.wrap(new LogicalLocation(3, 0, 4, 0)));
    assertNull(grid.wrap(new LogicalLocation(3, 0, 1, 1)));
    assertNull(grid.wrap(new LogicalLocation(3, -1, 4, 0)), "x1 wraps, x2 is a wall");
    LogicalLocation inside = new LogicalLocation(3, 5, 3, 0);
    assertSame(inside, grid.wrap(inside), "a location in the domain is its own image");
    RootGrid twoPeriodic = new RootGrid(2, 3, 2, 1, true, true, false);
    assertEquals(new LogicalLocation(3, 5, 3, 0),
        twoPeriodic.wrap(new LogicalLocation(3, -1, -1, 0)), "a corner image folds both axes");
    assertTrue(grid.contains(new LogicalLocation(2, 2, 1, 0)));
    assertFalse(grid.contains(new LogicalLocation(2, 3, 1, 0)));
    assertFalse(grid.isPeriodic(2));
  }

  @Test
  void givenAnInactiveAxisWithSeveralRootBlocks_thenItIsMisuse() {
    assertThrows(IllegalArgumentException.class,
        () -> new RootGrid(1, 2, 2, 1, false, false, false));
  }
}
