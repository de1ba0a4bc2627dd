package org.metope.mesh.forest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The kept gid order against a sort of every leaf ({@link Forest#sortedLeaves}, the order before
 * it was kept), after random remesh-like steps.
 */
class LeafOrderTest {

  /**
   * One remesh step as {@code TreeUpdate} makes it: some old leaves refine (the forest refining
   * coarser neighbours for balance), then some parents whose children are all old leaves merge.
   */
  private static void remeshStep(Forest forest, List<LogicalLocation> old, Random rnd) {
    int ndim = forest.grid().ndim();
    int nchild = 1 << ndim;
    List<LogicalLocation> parents = new ArrayList<>();
    for (int gid = 0; gid + nchild <= old.size(); gid++) {
      LogicalLocation loc = old.get(gid);
      if (loc.level() > forest.grid().rootLevel() && loc.equals(loc.parent().children(ndim)[0])
          && old.get(gid + nchild - 1).equals(loc.parent().children(ndim)[nchild - 1])
          && rnd.nextInt(3) == 0) {
        parents.add(loc.parent());
      }
    }
    for (LogicalLocation loc : old) {
      if (rnd.nextInt(12) == 0 && old.size() < 600) {
        forest.refine(loc);
      }
    }
    for (LogicalLocation parent : parents) {
      forest.derefine(parent);
    }
  }

  private static RootGrid randomGrid(Random rnd, int ndim) {
    return new RootGrid(ndim, 1 + rnd.nextInt(4), ndim > 1 ? 1 + rnd.nextInt(3) : 1,
        ndim > 2 ? 1 + rnd.nextInt(2) : 1, rnd.nextBoolean(), rnd.nextBoolean(),
        rnd.nextBoolean());
  }

  private static void assertSameAsSorted(Forest forest, List<LogicalLocation> order) {
    List<LogicalLocation> sorted = forest.sortedLeaves();
    assertEquals(sorted, order, "grid=" + forest.grid());
    for (int gid = 0; gid < sorted.size(); gid++) {
      assertEquals(gid, forest.gid(sorted.get(gid)));
    }
  }

  private static void assertSameChanges(LeafChanges expected, LeafChanges actual) {
    assertNotNull(expected);
    assertNotNull(actual);
    assertEquals(expected.oldCount(), actual.oldCount());
    assertEquals(expected.newCount(), actual.newCount());
    assertEquals(expected.count(), actual.count());
    for (int c = 0; c < expected.count(); c++) {
      assertEquals(expected.merged(c), actual.merged(c), "change " + c);
      assertEquals(expected.oldGid(c), actual.oldGid(c), "change " + c);
      assertEquals(expected.newGid(c), actual.newGid(c), "change " + c);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void givenRandomRemeshSteps_thenTheKeptOrderIsTheSortedOrderWithoutSorting(int ndim) {
    Random rnd = new Random(300 + ndim);
    int forests = 8;
    int steps = 25;
    long sorts = 0;
    long renumbers = 0;
    int changedSteps = 0;
    for (int m = 0; m < forests; m++) {
      RootGrid grid = randomGrid(rnd, ndim);
      Forest forest = new Forest(grid, grid.rootLevel() + 4);
      List<LogicalLocation> order = forest.resolveGids();
      for (int step = 0; step < steps; step++) {
        remeshStep(forest, order, rnd);
        List<LogicalLocation> before = order;
        order = forest.resolveGids();
        assertSameAsSorted(forest, order);
        // The changes the order kept are those a walk along both orders finds.
        assertSameChanges(LeafChanges.between(before, order, ndim), forest.lastChanges());
        // Every old leaf's new gid through the changes is the one its location has now.
        for (int old = 0; old < before.size(); old++) {
          assertEquals(forest.gid(before.get(old)), forest.lastChanges().gidAfter(old),
              "old gid " + old);
        }
        if (!order.equals(before)) {
          changedSteps++;
          // Control: the order before the step is not the sorted order after it, so the
          // comparison above would catch an order that missed the step's changes.
          assertNotEquals(forest.sortedLeaves(), before);
        }
      }
      sorts += forest.leafOrder().sorts();
      renumbers += forest.leafOrder().renumbers();
    }
    assertEquals(forests, sorts, "only each forest's first order is sorted");
    assertEquals(forests * steps, renumbers);
    assertTrue(changedSteps > forests * steps / 4, "changedSteps=" + changedSteps);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void givenChangesMoreThanOneLevelDeep_thenEveryLeafIsSortedAndTheOrderIsTheSame(int ndim) {
    Random rnd = new Random(500 + ndim);
    for (int m = 0; m < 8; m++) {
      RootGrid grid = randomGrid(rnd, ndim);
      Forest forest = new Forest(grid, grid.rootLevel() + 4);
      List<LogicalLocation> start = forest.resolveGids();
      LogicalLocation root = new LogicalLocation(grid.rootLevel(), 0, 0, 0);
      forest.refine(root);
      forest.refine(root.children(ndim)[rnd.nextInt(1 << ndim)]);
      List<LogicalLocation> deeper = forest.resolveGids();
      assertSameAsSorted(forest, deeper);
      assertNull(forest.lastChanges());
      assertNull(LeafChanges.between(start, deeper, ndim), "two levels in one change");
      forest.derefine(root.children(ndim)[0]);
      forest.refine(root.children(ndim)[0]);
      forest.derefine(root.children(ndim)[0]);
      assertSameAsSorted(forest, forest.resolveGids());
      assertEquals(3, forest.leafOrder().sorts(), "grid=" + grid);
    }
  }

  @Test
  void givenARefinementUndoneBeforeTheResolve_thenTheOrderIsUnchanged() {
    Forest forest = new Forest(new RootGrid(2, 2, 2, 1, true, true, false), 4);
    List<LogicalLocation> before = forest.resolveGids();
    LogicalLocation loc = new LogicalLocation(1, 1, 0, 0);
    forest.refine(loc);
    forest.derefine(loc);
    assertEquals(before, forest.resolveGids());
  }
}
