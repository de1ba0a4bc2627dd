package org.metope.amr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.mesh.BlockDistribution;
import org.metope.mesh.LoadBalance;
import org.metope.amr.RemeshPlan.Kind;
import org.metope.amr.RemeshPlan.Transfer;
import org.metope.mesh.forest.Forest;
import org.metope.mesh.forest.LeafChanges;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.forest.RootGrid;

class RemeshPlanTest {
  private static final RootGrid GRID = new RootGrid(2, 2, 2, 1, true, true, false);

  private static LogicalLocation loc(int level, long i, long j) {
    return new LogicalLocation(level, i, j, 0);
  }

  @Test
  void givenTheFirstOfFourRootBlocksRefined_thenItsChildrenComeFromItAndTheOthersStay() {
    Forest forest = new Forest(GRID, 3);
    List<LogicalLocation> before = forest.resolveGids();
    forest.refine(loc(1, 0, 0));
    List<LogicalLocation> after = forest.resolveGids();
    BlockDistribution oldDist = LoadBalance.distributeUniform(4, 2);

    RemeshPlan plan = new RemeshPlan(before, oldDist, new double[] {1, 2, 3, 4}, after, 2, 2);

    assertEquals(7, after.size());
    List<Kind> kinds = new ArrayList<>();
    int[] oldGids = new int[7];
    for (int gid = 0; gid < 7; gid++) {
      kinds.add(plan.kind(gid));
      oldGids[gid] = plan.oldGid(gid);
    }
    assertEquals(List.of(Kind.REFINED, Kind.REFINED, Kind.REFINED, Kind.REFINED, Kind.SAME,
        Kind.SAME, Kind.SAME), kinds);
    assertArrayEquals(new int[] {0, 0, 0, 0, 1, 2, 3}, oldGids);
    assertArrayEquals(new double[] {1, 1, 1, 1, 2, 3, 4}, plan.newCosts());
    BlockDistribution expected = LoadBalance.distribute(plan.newCosts(), 2);
    List<Transfer> transfers = plan.transfers();
    assertEquals(7, transfers.size());
    for (int gid = 0; gid < 7; gid++) {
      Transfer t = transfers.get(gid);
      assertEquals(gid, t.newGid());
      assertEquals(gid < 4 ? gid : 0, t.child());
      assertEquals(oldDist.rank(t.oldGid()), t.fromRank());
      assertEquals(expected.rank(gid), t.toRank());
    }
  }

  @Test
  void givenFourSiblingsMerged_thenTheParentTakesEachChildWithItsPositionAndTheMeanCost() {
    Forest forest = new Forest(GRID, 3);
    forest.refine(loc(1, 1, 0));
    List<LogicalLocation> before = forest.resolveGids();
    forest.derefine(loc(1, 1, 0));
    List<LogicalLocation> after = forest.resolveGids();
    double[] costs = {1, 1, 2, 3, 4, 1, 1};

    RemeshPlan plan = new RemeshPlan(before, LoadBalance.distributeUniform(7, 3), costs, after,
        2, 3);

    assertEquals(Kind.DEREFINED, plan.kind(1));
    assertEquals(1, plan.oldGid(1));
    assertEquals(2.5, plan.newCosts()[1]);
    List<Transfer> toParent = plan.transfers().stream().filter(t -> t.newGid() == 1).toList();
    assertEquals(List.of(1, 2, 3, 4), toParent.stream().map(Transfer::oldGid).toList());
    assertEquals(List.of(0, 1, 2, 3), toParent.stream().map(Transfer::child).toList());
    assertEquals(Kind.SAME, plan.kind(3));
    assertEquals(6, plan.oldGid(3));
  }

  @Test
  void givenABlockTwoLevelsFinerThanAnyOldOne_thenThePlanRefuses() {
    Forest forest = new Forest(GRID, 3);
    List<LogicalLocation> before = forest.resolveGids();
    forest.refine(loc(1, 0, 0));
    forest.refine(loc(2, 0, 0));

    assertThrows(IllegalStateException.class, () -> new RemeshPlan(before,
        LoadBalance.distributeUniform(4, 1), new double[] {1, 1, 1, 1}, forest.resolveGids(), 2,
        1));
  }

  @Test
  void givenRandomRemeshSteps_thenEveryNewBlockIsPairedWithItsOldLocationParentOrChildren() {
    // Each rank's transfers are those of the whole list from or to it, in the same order.
    java.util.Random rnd = new java.util.Random(41);
    for (int ndim = 1; ndim <= 3; ndim++) {
      RootGrid grid = new RootGrid(ndim, 3, ndim > 1 ? 2 : 1, ndim > 2 ? 2 : 1, true, true, true);
      Forest forest = new Forest(grid, grid.rootLevel() + 3);
      List<LogicalLocation> before = forest.resolveGids();
      int nleaf = 1 << ndim;
      for (int step = 0; step < 30; step++) {
        int[] flags = new int[before.size()];
        for (int gid = 0; gid < flags.length; gid++) {
          int draw = rnd.nextInt(10);
          flags[gid] = draw == 0 ? 1 : draw < 6 ? -1 : 0;
        }
        TreeUpdate.apply(forest, before, flags, ndim);
        List<LogicalLocation> after = forest.resolveGids();
        double[] costs = new double[before.size()];
        for (int gid = 0; gid < costs.length; gid++) {
          costs[gid] = gid + 1;
        }
        int nranks = 1 + rnd.nextInt(Math.min(6, Math.min(before.size(), after.size())));
        RemeshPlan plan = new RemeshPlan(before,
            LoadBalance.distributeUniform(before.size(), nranks), costs, after, ndim, nranks);
        int transfers = 0;
        for (int gid = 0; gid < after.size(); gid++) {
          LogicalLocation now = after.get(gid);
          LogicalLocation was = before.get(plan.oldGid(gid));
          switch (plan.kind(gid)) {
            case SAME -> assertEquals(now, was);
            case REFINED -> assertEquals(now.parent(), was);
            case DEREFINED -> {
              assertEquals(now.children(ndim)[0], was);
              // The mean of the children's costs, which are their old gids plus one.
              assertEquals(plan.oldGid(gid) + 1 + (nleaf - 1) / 2.0, plan.newCosts()[gid]);
            }
            default -> throw new AssertionError(plan.kind(gid));
          }
          transfers += plan.kind(gid) == Kind.DEREFINED ? nleaf : 1;
        }
        assertEquals(transfers, plan.transfers().size());
        for (int rank = 0; rank < nranks; rank++) {
          int r = rank;
          assertEquals(plan.transfers().stream().filter(t -> t.fromRank() == r
              || t.toRank() == r).toList(), plan.transfers(rank), "rank " + rank);
        }
        before = after;
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void givenRandomRemeshesWithLoadBalanceMoves_thenThePlanFromTheChangesHasTheWalkedPlansBits(
      int ndim) {
    Random rnd = new Random(17 + ndim);
    RootGrid grid = new RootGrid(ndim, 4, ndim > 1 ? 3 : 1, ndim > 2 ? 2 : 1, true, true, true);
    Forest forest = new Forest(grid, grid.rootLevel() + 3);
    List<LogicalLocation> before = forest.resolveGids();
    int nranks = 4;
    BlockDistribution oldDist = LoadBalance.distributeUniform(before.size(), nranks);
    int moved = 0;
    int changed = 0;
    for (int step = 0; step < 40; step++) {
      int[] flags = new int[before.size()];
      for (int gid = 0; gid < flags.length; gid++) {
        int draw = rnd.nextInt(10);
        flags[gid] = draw == 0 && before.size() < 400 ? 1 : draw < 6 ? -1 : 0;
      }
      // New costs every step, so that the balance moves unchanged blocks between ranks.
      double[] costs = new double[before.size()];
      for (int gid = 0; gid < costs.length; gid++) {
        costs[gid] = 0.1 + rnd.nextDouble();
      }
      TreeUpdate.apply(forest, before, flags, ndim);
      List<LogicalLocation> after = forest.resolveGids();
      LeafChanges changes = forest.lastChanges();
      assertNotNull(changes, "step " + step + ": the forest renumbered its changes");

      RemeshPlan plan = new RemeshPlan(before, oldDist, costs, after, changes, nranks);

      ReferencePlan reference = new ReferencePlan(before, oldDist, costs, after, ndim, nranks);
      assertNull(reference.difference(plan), "ndim " + ndim + " step " + step);
      assertNull(reference.difference(new RemeshPlan(before, oldDist, costs, after, ndim,
          nranks)), "walked, ndim " + ndim + " step " + step);
      changed += changes.count();
      moved += (int) reference.transfers.stream()
          .filter(t -> t.kind() == Kind.SAME && t.fromRank() != t.toRank()).count();
      oldDist = plan.newDistribution();
      before = after;
    }
    assertTrue(changed > 40 && moved > 40, "changes=" + changed + " moved=" + moved);
  }

  @Test
  void givenARefinementAndAMergeDroppedFromTheChanges_thenThePlanRefuses() {
    // Control: both changes keep the block count, so only the locations tell them apart.
    Forest forest = new Forest(GRID, 3);
    forest.refine(loc(1, 1, 1));
    List<LogicalLocation> before = forest.resolveGids();
    forest.refine(loc(1, 0, 0));
    forest.derefine(loc(1, 1, 1));
    List<LogicalLocation> after = forest.resolveGids();
    Forest unchanged = new Forest(GRID, 3);
    unchanged.refine(loc(1, 1, 1));
    unchanged.resolveGids();
    unchanged.resolveGids();
    LeafChanges none = unchanged.lastChanges();
    double[] costs = {1, 1, 1, 1, 1, 1, 1};
    BlockDistribution dist = LoadBalance.distributeUniform(7, 2);

    assertEquals(2, forest.lastChanges().count());
    assertEquals(0, none.count());
    assertEquals(7, after.size());
    assertNull(new ReferencePlan(before, dist, costs, after, 2, 2)
        .difference(new RemeshPlan(before, dist, costs, after, forest.lastChanges(), 2)));
    assertThrows(IllegalStateException.class,
        () -> new RemeshPlan(before, dist, costs, after, none, 2));
  }

  @Test
  void givenAFineLocation_thenTheChildIndexHasOneBitPerAxis() {
    assertEquals(0, RemeshPlan.childIndex(new LogicalLocation(3, 4, 2, 6)));
    assertEquals(1, RemeshPlan.childIndex(new LogicalLocation(3, 5, 2, 6)));
    assertEquals(6, RemeshPlan.childIndex(new LogicalLocation(3, 4, 3, 7)));
    assertEquals(7, RemeshPlan.childIndex(new LogicalLocation(3, 5, 3, 7)));
  }
}
