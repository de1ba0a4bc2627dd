package org.metope.mesh.forest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ForestTest {

  /** A random root grid of the given dimension, with random periodicity per axis. */
  private static RootGrid randomGrid(Random rnd, int ndim) {
    int n1 = 1 + rnd.nextInt(3);
    int n2 = ndim > 1 ? 1 + rnd.nextInt(3) : 1;
    int n3 = ndim > 2 ? 1 + rnd.nextInt(2) : 1;
    return new RootGrid(ndim, n1, n2, n3, rnd.nextBoolean(), rnd.nextBoolean(), rnd.nextBoolean());
  }

  /** Random refinements and derefinements, keeping the leaf count under {@code cap}. */
  private static void randomize(Forest forest, Random rnd, int steps, int cap) {
    for (int s = 0; s < steps; s++) {
      List<LogicalLocation> leaves = forest.sortedLeaves();
      if (rnd.nextInt(3) > 0 && leaves.size() < cap) {
        forest.refine(leaves.get(rnd.nextInt(leaves.size())));
      } else {
        LogicalLocation leaf = leaves.get(rnd.nextInt(leaves.size()));
        if (leaf.level() > forest.grid().rootLevel()) {
          forest.derefine(leaf.parent());
        }
      }
    }
  }

  private static List<BruteForceNeighbors.Contact> contactsFromForest(Forest forest,
      LogicalLocation loc) {
    List<BruteForceNeighbors.Contact> out = new ArrayList<>();
    for (NeighborLocation n : forest.findNeighbors(loc)) {
      out.add(new BruteForceNeighbors.Contact(forest.gid(n.location()), n.element().index(),
          n.fi1(), n.fi2()));
    }
    out.sort(null);
    return out;
  }

  private static List<BruteForceNeighbors.Contact> contactsOnly(
      List<BruteForceNeighbors.LevelContact> contacts) {
    List<BruteForceNeighbors.Contact> out = new ArrayList<>();
    for (BruteForceNeighbors.LevelContact c : contacts) {
      out.add(c.contact());
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void givenRandomRefinedMeshes_thenNeighbourListsEqualTheBruteForceContacts(int ndim) {
    Random rnd = new Random(1000 + ndim);
    int meshes = 40;
    for (int m = 0; m < meshes; m++) {
      RootGrid grid = randomGrid(rnd, ndim);
      Forest forest = new Forest(grid, grid.rootLevel() + 1 + rnd.nextInt(3));
      // Every fourth mesh stays uniform (the root grid).
      if (m % 4 != 0) {
        randomize(forest, rnd, 5 + rnd.nextInt(25), ndim == 3 ? 200 : 300);
      }
      List<LogicalLocation> leaves = forest.resolveGids();
      BruteForceNeighbors reference = new BruteForceNeighbors(grid, leaves);
      for (int gid = 0; gid < leaves.size(); gid++) {
        assertEquals(contactsOnly(reference.contactsOf(gid)),
            contactsFromForest(forest, leaves.get(gid)),
            "grid=" + grid + " block=" + leaves.get(gid));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void givenLongRandomRefineDerefineSequences_thenTwoToOneBalanceHoldsAndLeavesTileTheDomain(
      int ndim) {
    Random rnd = new Random(77 + ndim);
    for (int m = 0; m < 6; m++) {
      RootGrid grid = randomGrid(rnd, ndim);
      Forest forest = new Forest(grid, grid.rootLevel() + 4);
      for (int round = 0; round < 10; round++) {
        randomize(forest, rnd, 40, ndim == 3 ? 250 : 300);
        List<LogicalLocation> leaves = forest.resolveGids();
        BruteForceNeighbors reference = new BruteForceNeighbors(grid, leaves);
        assertEquals(reference.domainVolume(), reference.leafVolume(), "grid=" + grid);
        for (int gid = 0; gid < leaves.size(); gid++) {
          for (BruteForceNeighbors.LevelContact c : reference.contactsOf(gid)) {
            assertTrue(Math.abs(c.levelDifference()) <= 1,
                "2:1 broken between " + leaves.get(gid) + " and " + c);
          }
        }
      }
    }
  }

  @Test
  void givenRefinementNextToACoarserBlock_thenTheCoarserBlockIsRefinedFirst() {
    // 1D, 4 root blocks at root level 2; refine block 1 twice toward block 0.
    Forest forest = new Forest(new RootGrid(1, 4, 1, 1, false, false, false), 6);
    forest.refine(new LogicalLocation(2, 1, 0, 0));
    // Its left child (3: 2) sits next to root block 0, which must become level 3 before (3: 2)
    // can be split into level-4 blocks.
    int added = forest.refine(new LogicalLocation(3, 2, 0, 0));
    assertEquals(2, added);
    assertTrue(forest.isInternal(new LogicalLocation(2, 0, 0, 0)));
    assertTrue(forest.isLeaf(new LogicalLocation(3, 1, 0, 0)));
    assertTrue(forest.isLeaf(new LogicalLocation(4, 4, 0, 0)));
  }

  @Test
  void givenRefinementAcrossAPeriodicBoundary_thenTheWrappedNeighbourIsRefined() {
    Forest forest = new Forest(new RootGrid(1, 4, 1, 1, true, false, false), 6);
    forest.refine(new LogicalLocation(2, 0, 0, 0));
    forest.refine(new LogicalLocation(3, 0, 0, 0));
    // (3: 0) touches root block 3 through the periodic boundary.
    assertTrue(forest.isInternal(new LogicalLocation(2, 3, 0, 0)));
  }

  @Test
  void givenDerefinementThatWouldLeaveAFinerNeighbourTwoLevelsAway_thenItIsRefused() {
    Forest forest = new Forest(new RootGrid(2, 2, 2, 1, false, false, false), 5);
    forest.refine(new LogicalLocation(1, 0, 0, 0));
    forest.refine(new LogicalLocation(1, 1, 0, 0));
    forest.refine(new LogicalLocation(2, 2, 0, 0)); // finest block next to (1: 0, 0)'s children
    int before = forest.leafCount();
    assertEquals(0, forest.derefine(new LogicalLocation(1, 0, 0, 0)));
    assertEquals(before, forest.leafCount());
    // Without the level-3 blocks the merge is allowed: 4 children become 1.
    assertEquals(3, forest.derefine(new LogicalLocation(2, 2, 0, 0)));
    assertEquals(3, forest.derefine(new LogicalLocation(1, 0, 0, 0)));
    assertTrue(forest.isLeaf(new LogicalLocation(1, 0, 0, 0)));
  }

  @Test
  void givenDerefinementOfANodeWhoseChildrenAreNotAllLeaves_thenItIsRefused() {
    Forest forest = new Forest(new RootGrid(2, 1, 1, 1, false, false, false), 4);
    forest.refine(new LogicalLocation(0, 0, 0, 0));
    forest.refine(new LogicalLocation(1, 0, 0, 0));
    assertEquals(0, forest.derefine(new LogicalLocation(0, 0, 0, 0)));
  }

  @Test
  void givenTheMaximumLevel_thenRefiningThereDoesNothing() {
    Forest forest = new Forest(new RootGrid(2, 2, 2, 1, false, false, false), 2);
    assertEquals(3, forest.refine(new LogicalLocation(1, 0, 0, 0)));
    assertEquals(0, forest.refine(new LogicalLocation(2, 0, 0, 0)));
    assertEquals(2, forest.currentLevel());
    assertEquals(7, forest.leafCount());
  }

  @Test
  void givenAddMeshBlock_thenAncestorsAreRefinedDownToIt() {
    Forest forest = new Forest(new RootGrid(2, 2, 2, 1, false, false, false), 10);
    int added = forest.addMeshBlock(new LogicalLocation(3, 5, 2, 0));
    assertTrue(added > 0);
    assertTrue(forest.isLeaf(new LogicalLocation(3, 5, 2, 0)));
    assertEquals(0, forest.addMeshBlock(new LogicalLocation(3, 5, 2, 0)));
    assertEquals(-1, forest.addMeshBlock(new LogicalLocation(1, 1, 0, 0)));
    assertThrows(IllegalArgumentException.class,
        () -> forest.addMeshBlock(new LogicalLocation(1, 2, 0, 0)));
  }

  @Test
  void givenAUniformPowerOfTwoGrid_thenGidsFollowTheZOrderWithX1Fastest() {
    Forest forest = new Forest(new RootGrid(3, 2, 2, 2, false, false, false), 1);
    List<LogicalLocation> leaves = forest.resolveGids();
    // Z-order of a 2x2x2 cube: gid = i + 2 j + 4 k.
    for (int gid = 0; gid < 8; gid++) {
      assertEquals(new LogicalLocation(1, gid & 1, (gid >> 1) & 1, gid >> 2), leaves.get(gid));
    }
  }

  @Test
  void givenAThreeByTwoGrid_thenGidsFollowTheZOrderOfTheEnclosingFourByFourSquare() {
    // Parthenon orders the trees of a 3x2 root grid by their Z-order in the enclosing 4x4
    // square: (0,0)=0 (1,0)=1 (0,1)=2 (1,1)=3 (2,0)=4 (2,1)=6, so gids run in this order.
    Forest forest = new Forest(new RootGrid(2, 3, 2, 1, false, false, false), 2);
    List<LogicalLocation> expected = List.of(
        new LogicalLocation(2, 0, 0, 0), new LogicalLocation(2, 1, 0, 0),
        new LogicalLocation(2, 0, 1, 0), new LogicalLocation(2, 1, 1, 0),
        new LogicalLocation(2, 2, 0, 0), new LogicalLocation(2, 2, 1, 0));
    assertEquals(expected, forest.resolveGids());
  }

  @Test
  void givenARefinedBlock_thenItsChildrenTakeItsPlaceInTheGidOrder() {
    Forest forest = new Forest(new RootGrid(1, 2, 1, 1, false, false, false), 3);
    forest.refine(new LogicalLocation(1, 0, 0, 0));
    assertEquals(List.of(new LogicalLocation(2, 0, 0, 0), new LogicalLocation(2, 1, 0, 0),
        new LogicalLocation(1, 1, 0, 0)), forest.resolveGids());
  }

  @Test
  void givenOneFullyPeriodicRootBlock_thenItIsItsOwnNeighbourThroughEachOfThe26Elements() {
    Forest forest = new Forest(new RootGrid(3, 1, 1, 1, true, true, true), 0);
    forest.resolveGids();
    List<NeighborLocation> neighbours = forest.findNeighbors(new LogicalLocation(0, 0, 0, 0));
    assertEquals(26, neighbours.size());
    boolean[] seen = new boolean[27];
    for (NeighborLocation n : neighbours) {
      assertEquals(new LogicalLocation(0, 0, 0, 0), n.location());
      assertFalse(seen[n.element().index()]);
      seen[n.element().index()] = true;
    }
    assertFalse(seen[NeighborIndex.VOLUME.index()]);
  }

  @Test
  void givenA64BlockPeriodicCube_thenEveryBlockHas26DistinctNeighbours() {
    Forest forest = new Forest(new RootGrid(3, 4, 4, 4, true, true, true), 2);
    List<LogicalLocation> leaves = forest.resolveGids();
    for (LogicalLocation loc : leaves) {
      List<NeighborLocation> neighbours = forest.findNeighbors(loc);
      assertEquals(26, neighbours.size());
      assertEquals(26, neighbours.stream().map(NeighborLocation::location).distinct().count());
    }
  }

  @Test
  void givenGidsNotResolvedAfterAChange_thenAskingForAGidIsMisuse() {
    Forest forest = new Forest(new RootGrid(1, 2, 1, 1, false, false, false), 2);
    forest.resolveGids();
    forest.refine(new LogicalLocation(1, 0, 0, 0));
    assertThrows(IllegalStateException.class, () -> forest.gid(new LogicalLocation(1, 1, 0, 0)));
  }
}
