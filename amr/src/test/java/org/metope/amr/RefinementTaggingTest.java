package org.metope.amr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.forest.Forest;
import org.metope.mesh.forest.LogicalLocation;

class RefinementTaggingTest {
  private final AmrFixtures.Tags tags = new AmrFixtures.Tags();

  /**
   * 4 x 4 periodic root blocks of 8^2 cells (root level 2), numlevel 3, with the blocks at
   * {@code refine} refined in order (the forest keeps 2:1 balance), and the given packages.
   */
  private static Mesh mesh(List<LogicalLocation> refine, StateDescriptor... pkgs) {
    var config = MeshConfiguration.fromInput(AmrFixtures.pin(AmrFixtures.deck2d(32, 8, 3, "")));
    Forest forest = new Forest(config.rootGrid(), config.maxLevel());
    for (LogicalLocation loc : refine) {
      forest.refine(loc);
    }
    Mesh mesh = Mesh.build(config, forest.sortedLeaves(), 1, 0);
    Packages packages = new Packages();
    for (StateDescriptor p : pkgs) {
      packages.add(p);
    }
    mesh.initializeFields(packages, List.of("base"));
    return mesh;
  }

  /** The same with the first root block refined. */
  private static Mesh mesh(StateDescriptor... pkgs) {
    return mesh(List.of(new LogicalLocation(2, 0, 0, 0)), pkgs);
  }

  private static int lid(Mesh mesh, LogicalLocation loc) {
    return mesh.locations().indexOf(loc);
  }

  private static void tagAll(Mesh mesh, RefinementTagging tagging) {
    for (MeshData md : mesh.meshData("base")) {
      tagging.tag(md);
    }
  }

  @Test
  void givenDerefineRecommendations_thenAFineBlockDerefinesOnlyAfterDerefineCountCycles() {
    Mesh mesh = mesh(AmrFixtures.toy(tags));
    RefinementTagging tagging = new RefinementTagging(mesh, List.of(), 3);
    int fine = lid(mesh, new LogicalLocation(3, 1, 1, 0));
    tags.otherwise = AmrTag.DEREFINE_VALUE;

    tagAll(mesh, tagging);
    tagAll(mesh, tagging);
    assertEquals(AmrTag.SAME_VALUE, tagging.flag(fine));
    assertEquals(2, tagging.derefineCount(fine));
    tagAll(mesh, tagging);
    assertEquals(AmrTag.DEREFINE_VALUE, tagging.flag(fine));

    tags.otherwise = AmrTag.SAME_VALUE;
    tagAll(mesh, tagging);
    assertEquals(AmrTag.SAME_VALUE, tagging.flag(fine));
    assertEquals(0, tagging.derefineCount(fine));
  }

  @Test
  void givenDerefineOnRootBlocks_thenTheyStayAndTheirCounterStaysZero() {
    Mesh mesh = mesh(AmrFixtures.toy(tags));
    RefinementTagging tagging = new RefinementTagging(mesh, List.of(), 1);
    int root = lid(mesh, new LogicalLocation(2, 3, 3, 0));
    tags.otherwise = AmrTag.DEREFINE_VALUE;

    tagAll(mesh, tagging);

    assertEquals(AmrTag.SAME_VALUE, tagging.flag(root));
    assertEquals(0, tagging.derefineCount(root));
  }

  @Test
  void givenRefineOnTheDeepestLevelAllowed_thenTheBlockStays() {
    Mesh mesh = mesh(AmrFixtures.toy(tags));
    RefinementTagging tagging = new RefinementTagging(mesh, List.of(), 1);
    tags.otherwise = AmrTag.REFINE_VALUE;

    tagAll(mesh, tagging);

    // numlevel 3: levels 2 (root) to 4; level-3 blocks may still refine.
    assertEquals(AmrTag.REFINE_VALUE, tagging.flag(lid(mesh, new LogicalLocation(3, 0, 0, 0))));
    assertEquals(AmrTag.REFINE_VALUE, tagging.flag(lid(mesh, new LogicalLocation(2, 1, 0, 0))));
    Mesh deepest = Mesh.build(MeshConfiguration.fromInput(AmrFixtures.pin(
        AmrFixtures.deck2d(32, 8, 1, ""))), 1, 0);
    Packages packages = new Packages();
    packages.add(AmrFixtures.toy(tags));
    deepest.initializeFields(packages, List.of("base"));
    RefinementTagging rootOnly = new RefinementTagging(deepest, List.of(), 1);
    tagAll(deepest, rootOnly);
    assertEquals(AmrTag.SAME_VALUE, rootOnly.flag(0));
  }

  @Test
  void givenAFinerNeighbour_thenACoarseBlockCountsButDoesNotDerefine() {
    Mesh mesh = mesh(List.of(new LogicalLocation(2, 0, 0, 0), new LogicalLocation(3, 0, 0, 0)),
        AmrFixtures.toy(tags));
    RefinementTagging tagging = new RefinementTagging(mesh, List.of(), 1);
    tags.otherwise = AmrTag.DEREFINE_VALUE;

    tagAll(mesh, tagging);

    int nextToFiner = lid(mesh, new LogicalLocation(3, 1, 0, 0));
    assertEquals(AmrTag.SAME_VALUE, tagging.flag(nextToFiner));
    assertEquals(1, tagging.derefineCount(nextToFiner));
    assertEquals(AmrTag.DEREFINE_VALUE,
        tagging.flag(lid(mesh, new LogicalLocation(4, 1, 1, 0))));
  }

  @Test
  void givenTwoPackages_thenTheLargerRecommendationWinsAndAWrongTagIsMisuse() {
    AmrFixtures.Tags other = new AmrFixtures.Tags();
    StateDescriptor second = new StateDescriptor("second");
    second.addField("w", Metadata.builder(Metadata.CELL, Metadata.DERIVED).build());
    second.setCheckRefinement(other::check);
    Mesh mesh = mesh(AmrFixtures.toy(tags), second);
    RefinementTagging tagging = new RefinementTagging(mesh, List.of(), 1);
    int block = lid(mesh, new LogicalLocation(3, 1, 1, 0));
    tags.otherwise = AmrTag.DEREFINE_VALUE;
    other.otherwise = AmrTag.REFINE_VALUE;

    tagAll(mesh, tagging);
    assertEquals(AmrTag.REFINE_VALUE, tagging.flag(block));

    other.otherwise = 5;
    assertThrows(IllegalStateException.class, () -> tagAll(mesh, tagging));
  }

  @Test
  void givenACriterionThatRefines_thenItStopsAtItsMaxLevelAboveTheRootGrid() {
    Mesh mesh = mesh(AmrFixtures.toy(null));
    int q = mesh.resolvedPackages().fieldId("q");
    RefinementCriterion alwaysRefine = new MagnitudeCriterion(
        new RefinementCriterion.Settings(q, 0, -1.0, -2.0, 1),
        mesh.blocks().get(0).cellBounds(), true);
    RefinementTagging tagging = new RefinementTagging(mesh, List.of(alwaysRefine), 1);

    tagAll(mesh, tagging);

    // Root blocks (level 0 above the root grid) refine below max_level 1, their children not.
    assertEquals(AmrTag.REFINE_VALUE, tagging.flag(lid(mesh, new LogicalLocation(2, 1, 0, 0))));
    assertEquals(AmrTag.SAME_VALUE, tagging.flag(lid(mesh, new LogicalLocation(3, 0, 0, 0))));
  }
  /** The mesh of {@link #mesh(List, StateDescriptor...)} as rank {@code rank} of {@code nranks}. */
  private static Mesh rankMesh(LogicalLocation refine, int nranks, int rank,
      StateDescriptor pkg) {
    var config = MeshConfiguration.fromInput(AmrFixtures.pin(AmrFixtures.deck2d(32, 8, 3, "")));
    Forest forest = new Forest(config.rootGrid(), config.maxLevel());
    forest.refine(refine);
    Mesh mesh = Mesh.build(config, forest.sortedLeaves(), nranks, rank);
    Packages packages = new Packages();
    packages.add(pkg);
    mesh.initializeFields(packages, List.of("base"));
    return mesh;
  }

  private int mergeVotes(Mesh mesh, int derefineCount) {
    RefinementTagging tagging = new RefinementTagging(mesh, List.of(), derefineCount);
    tagAll(mesh, tagging);
    return tagging.derefineVotesThatMayMerge(mesh.myRank() > 0,
        mesh.myRank() < mesh.nranks() - 1);
  }

  @Test
  void givenVotesThatCannotCompleteAGroup_thenNoneCountTowardAMerge() {
    Mesh mesh = mesh(List.of(new LogicalLocation(2, 0, 0, 0), new LogicalLocation(2, 3, 3, 0)),
        AmrFixtures.toy(tags));
    tags.otherwise = AmrTag.DEREFINE_VALUE;
    tags.byLocation.put(new LogicalLocation(3, 1, 1, 0), AmrTag.SAME_VALUE);
    tags.byLocation.put(new LogicalLocation(3, 6, 6, 0), AmrTag.SAME_VALUE);

    // Six fine blocks vote to derefine (more than one group of four), but each group has a
    // sibling that stays: no merge can happen, so nothing counts and the gather is skipped.
    assertEquals(0, mergeVotes(mesh, 1));

    tags.byLocation.clear();
    assertEquals(8, mergeVotes(mesh, 1));
  }

  @Test
  void givenAGroupSplitBetweenTwoRanks_thenTheRanksVotesSumToAWholeGroupOnlyWhenAllVote() {
    LogicalLocation parent = null;
    int split = -1;
    for (int lx2 = 0; lx2 < 4 && parent == null; lx2++) {
      for (int lx1 = 0; lx1 < 4 && parent == null; lx1++) {
        LogicalLocation candidate = new LogicalLocation(2, lx1, lx2, 0);
        List<LogicalLocation> first = rankMesh(candidate, 2, 0, AmrFixtures.toy(tags)).blocks()
            .stream().map(b -> b.loc()).toList();
        long children = first.stream().filter(l -> l.level() == 3).count();
        if (children > 0 && children < 4) {
          parent = candidate;
          split = (int) children;
        }
      }
    }
    Mesh rank0 = rankMesh(parent, 2, 0, AmrFixtures.toy(tags));
    Mesh rank1 = rankMesh(parent, 2, 1, AmrFixtures.toy(tags));
    tags.otherwise = AmrTag.DEREFINE_VALUE;

    assertEquals(split, mergeVotes(rank0, 1));
    assertEquals(4 - split, mergeVotes(rank1, 1));

    // The group's last child, on rank 1, stays: the two runs sum to three, below a group.
    tags.byLocation.put(parent.child(1, 1, 0), AmrTag.SAME_VALUE);
    assertEquals(split, mergeVotes(rank0, 1));
    assertEquals(3 - split, mergeVotes(rank1, 1));
  }
}
