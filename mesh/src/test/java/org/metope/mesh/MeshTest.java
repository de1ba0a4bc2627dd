package org.metope.mesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.metope.comm.InProcessCluster;
import org.metope.mesh.field.FluxFunction;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.ResolvedState;
import org.metope.mesh.field.SetupError;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.geometry.RegionSize;

class MeshTest {
  private static final String CUBE_64 = Decks.deck(64, 64, 64, 16, 16, 16, Decks.periodic(), "");

  private static Mesh build(String text, int nranks, int rank, String... overrides) {
    return Mesh.build(Decks.config(text, overrides), nranks, rank);
  }

  /** A 2D or 3D statically refined deck with a refined box near one corner. */
  private static String refinedDeck(int ndim, String bcs) {
    String region = "<parthenon/static_refinement0>\nx1min = 0.05\nx1max = 0.2\nx2min = 0.0\n"
        + "x2max = 0.3\nx3min = 0.6\nx3max = 0.7\nlevel = 2\n"
        + "<parthenon/static_refinement1>\nx1min = 0.7\nx1max = 0.75\nx2min = 0.7\n"
        + "x2max = 0.8\nx3min = 0.0\nx3max = 1.0\nlevel = 1\n";
    return ndim == 2
        ? Decks.deck(96, 64, 1, 16, 16, 1, "refinement = static\n" + bcs, region)
        : Decks.deck(48, 32, 32, 8, 8, 8, "refinement = static\n" + bcs, region);
  }

  @Test
  void givenA64CubedPeriodicMeshOf16CubedBlocks_thenTwoRanksOwn32BlocksWith26NeighboursEach() {
    Mesh mesh = build(CUBE_64, 2, 1);
    assertEquals(64, mesh.totalBlocks());
    assertEquals(32, mesh.distribution().blockCount(0));
    assertEquals(32, mesh.distribution().blockCount(1));
    assertEquals(32, mesh.blocks().size());
    for (int gid = 0; gid < 64; gid++) {
      assertEquals(gid < 32 ? 0 : 1, mesh.rank(gid));
      List<NeighborBlock> neighbours = mesh.neighbors(gid);
      assertEquals(26, neighbours.size());
      assertEquals(26, neighbours.stream().mapToInt(NeighborBlock::gid).distinct().count());
    }
    MeshBlock first = mesh.blocks().get(0);
    assertEquals(32, first.gid());
    assertEquals(0, first.lid());
    assertEquals(1, first.rank());
    assertEquals(first, mesh.block(32));
    assertEquals(26, first.neighbors().size());
    assertThrows(IllegalArgumentException.class, () -> mesh.block(3));
  }

  @Test
  void givenAMesh_thenNeighbourRanksLevelsAndReverseElementsAreConsistent() {
    for (int ndim = 2; ndim <= 3; ndim++) {
      Mesh mesh = build(refinedDeck(ndim, Decks.periodic()), 3, 0);
      Map<String, Integer> count = new HashMap<>();
      for (int gid = 0; gid < mesh.totalBlocks(); gid++) {
        for (NeighborBlock n : mesh.neighbors(gid)) {
          assertEquals(mesh.rank(n.gid()), n.rank());
          assertEquals(mesh.location(n.gid()), n.loc());
          assertEquals(n.loc().level() - mesh.location(gid).level(), n.levelDifference());
          assertTrue(Math.abs(n.levelDifference()) <= 1);
          count.merge(gid + ">" + n.gid() + "@" + n.element().index(), 1, Integer::sum);
        }
      }
      // Every contact seen from one side is seen from the other through the reverse element.
      for (var entry : count.entrySet()) {
        String[] parts = entry.getKey().split("[>@]");
        String back = parts[1] + ">" + parts[0] + "@" + (26 - Integer.parseInt(parts[2]));
        assertEquals(entry.getValue(), count.get(back), entry.getKey());
      }
    }
  }

  /** Contacts found by intersecting the blocks' physical boxes and periodic images. */
  private static List<String> physicalContacts(Mesh mesh, int gid) {
    RegionSize m = mesh.meshSize();
    RegionSize a = mesh.blockRegion(mesh.location(gid));
    double eps = 1e-9;
    List<String> out = new ArrayList<>();
    int[] r = new int[3];
    for (int axis = 0; axis < 3; axis++) {
      r[axis] = mesh.rootGrid().isPeriodic(axis) ? 1 : 0;
    }
    for (int other = 0; other < mesh.totalBlocks(); other++) {
      RegionSize b = mesh.blockRegion(mesh.location(other));
      for (int s1 = -r[0]; s1 <= r[0]; s1++) {
        for (int s2 = -r[1]; s2 <= r[1]; s2++) {
          for (int s3 = -r[2]; s3 <= r[2]; s3++) {
            int[] shift = {s1, s2, s3};
            int[] element = new int[3];
            boolean touching = true;
            for (int axis = 0; axis < mesh.ndim() && touching; axis++) {
              double length = m.xmax(axis) - m.xmin(axis);
              double lo = Math.max(a.xmin(axis), b.xmin(axis) + shift[axis] * length);
              double hi = Math.min(a.xmax(axis), b.xmax(axis) + shift[axis] * length);
              touching = lo <= hi + eps;
              element[axis] = hi - lo > eps ? 0 : Math.abs(lo - a.xmin(axis)) < eps ? -1 : 1;
            }
            boolean self = element[0] == 0 && element[1] == 0 && element[2] == 0;
            if (touching && !self) {
              out.add(other + "@" + ((element[0] + 1) + 3 * (element[1] + 1)
                  + 9 * (element[2] + 1)));
            }
          }
        }
      }
    }
    out.sort(null);
    return out;
  }

  @Test
  void givenRefinedMeshes_thenNeighbourListsEqualContactsOfThePhysicalBlockBoxes() {
    String[] boundaries = {Decks.periodic(), "", "ix1_bc = periodic\nox1_bc = periodic\n"};
    for (int ndim = 2; ndim <= 3; ndim++) {
      for (String bcs : boundaries) {
        Mesh mesh = build(refinedDeck(ndim, bcs), 1, 0);
        assertTrue(mesh.currentLevel() - mesh.rootLevel() == 2);
        for (int gid = 0; gid < mesh.totalBlocks(); gid++) {
          List<String> fromMesh = new ArrayList<>();
          for (NeighborBlock n : mesh.neighbors(gid)) {
            fromMesh.add(n.gid() + "@" + n.element().index());
          }
          fromMesh.sort(null);
          assertEquals(physicalContacts(mesh, gid), fromMesh, "ndim=" + ndim + " gid=" + gid);
        }
      }
    }
  }

  @Test
  void givenAStaticRegion_thenItIsCoveredAtItsLevelAndBalanceRefinesAroundIt() {
    String region = "<parthenon/static_refinement0>\nx1min = 0.25\nx1max = 0.75\nx2min = 0.25\n"
        + "x2max = 0.75\nlevel = 2\n";
    Mesh mesh = build(Decks.deck(64, 64, 1, 16, 16, 1, "refinement = static\n", region), 4, 0);
    // Level 2 divides [0, 1] into 16 blocks of 1/16: [0.25, 0.75] is blocks 4..11, 8 x 8 = 64.
    // Those touch every root block, so the other 12 root blocks become 4 level-1 blocks each.
    assertEquals(64 + 48, mesh.totalBlocks());
    int level2 = 0;
    for (LogicalLocation loc : mesh.locations()) {
      int level = loc.level() - mesh.rootLevel();
      RegionSize r = mesh.blockRegion(loc);
      boolean inside = r.xmin(0) >= 0.25 && r.xmax(0) <= 0.75 && r.xmin(1) >= 0.25
          && r.xmax(1) <= 0.75;
      assertEquals(inside ? 2 : 1, level, loc.toString());
      level2 += level == 2 ? 1 : 0;
    }
    assertEquals(64, level2);
    assertEquals(28, mesh.distribution().blockCount(3));
  }

  @Test
  void givenBlockRegions_thenTheyTileTheMeshWithTheWidthOfTheirLevel() {
    Mesh mesh = build(refinedDeck(3, ""), 1, 0);
    RegionSize m = mesh.meshSize();
    double volume = 0;
    for (LogicalLocation loc : mesh.locations()) {
      RegionSize r = mesh.blockRegion(loc);
      double v = 1;
      for (int axis = 0; axis < 3; axis++) {
        double width = (m.xmax(axis) - m.xmin(axis))
            / mesh.rootGrid().extent(axis, loc.level());
        assertEquals(width, r.xmax(axis) - r.xmin(axis), 1e-14);
        assertEquals(m.xmin(axis) + loc.l(axis) * width, r.xmin(axis), 1e-14);
        assertEquals(8, r.nx(axis));
        v *= r.xmax(axis) - r.xmin(axis);
      }
      volume += v;
    }
    assertEquals(1.0, volume, 1e-12);
  }

  @Test
  void givenASymmetricDomain_thenMirroredBlockEdgesAreExactNegatives() {
    String text = "<parthenon/mesh>\nnx1 = 48\nx1min = -0.7\nx1max = 0.7\nnx2 = 80\n"
        + "x2min = -0.3\nx2max = 0.3\nnx3 = 1\nx3min = -0.5\nx3max = 0.5\n"
        + "<parthenon/meshblock>\nnx1 = 8\nnx2 = 16\n";
    Mesh mesh = build(text, 1, 0);
    for (LogicalLocation loc : mesh.locations()) {
      long n1 = mesh.rootGrid().extent(0, loc.level());
      LogicalLocation mirror = new LogicalLocation(loc.level(), n1 - 1 - loc.lx1(), loc.lx2(), 0);
      assertEquals(-mesh.blockRegion(loc).xmin(0), mesh.blockRegion(mirror).xmax(0), 0.0);
    }
  }

  @Test
  void givenBlocksOnTheMeshBoundary_thenTheirFacesCarryTheMeshConditions() {
    Mesh mesh = build(Decks.deck(64, 64, 1, 32, 32, 1,
        "ix1_bc = periodic\nox1_bc = periodic\nix2_bc = reflecting\n", ""), 1, 0);
    MeshBlock lowerLeft = mesh.block(0);
    assertEquals(BoundaryFlag.PERIODIC, lowerLeft.boundaryFlag(BoundaryFace.INNER_X1));
    assertEquals(BoundaryFlag.BLOCK, lowerLeft.boundaryFlag(BoundaryFace.OUTER_X1));
    assertEquals(BoundaryFlag.USER, lowerLeft.boundaryFlag(BoundaryFace.INNER_X2));
    assertEquals(BoundaryFlag.BLOCK, lowerLeft.boundaryFlag(BoundaryFace.OUTER_X2));
    assertEquals(BoundaryFlag.USER, lowerLeft.boundaryFlag(BoundaryFace.INNER_X3));
    MeshBlock upperRight = mesh.block(3);
    assertEquals(BoundaryFlag.PERIODIC, upperRight.boundaryFlag(BoundaryFace.OUTER_X1));
    assertEquals(BoundaryFlag.USER, upperRight.boundaryFlag(BoundaryFace.OUTER_X2));
    // Along the periodic x1 the right neighbour is also the left one: 1 twice, 2, 3 twice.
    assertEquals(5, lowerLeft.neighbors().size());
  }

  @Test
  void givenPackSize_thenTheDefaultIsAllBlocksOfTheRank() {
    assertEquals(64, build(CUBE_64, 1, 0).defaultPackSize());
    assertEquals(8, build(CUBE_64, 1, 0, "parthenon/mesh/pack_size=8").defaultPackSize());
  }

  @Test
  void givenARankOutsideTheRange_thenItIsMisuse() {
    MeshConfiguration c = Decks.config(CUBE_64);
    assertThrows(IllegalArgumentException.class, () -> Mesh.build(c, 2, 2));
  }

  @Test
  void givenParthenonsTrees_thenTreeCountAndLogicalLevelFollowTheLargestCommonPowerOfTwo() {
    Mesh flat = build(Decks.deck(64, 64, 1, 16, 16, 1, Decks.periodic(), ""), 1, 0);
    assertEquals(16, flat.treeCount());
    assertEquals(0, flat.logicalLevel(flat.location(0)));
    Mesh cube = build(CUBE_64, 1, 0);
    assertEquals(1, cube.treeCount());
    assertEquals(2, cube.logicalLevel(cube.location(0)));
    Mesh slab = build(Decks.deck(64, 64, 32, 16, 16, 16, Decks.periodic(), ""), 1, 0);
    assertEquals(4, slab.treeCount());
    assertEquals(1, slab.logicalLevel(slab.location(0)));
    assertEquals(2, slab.logicalLevel(slab.location(0).children(3)[0]));
  }

  @Test
  void givenLeaves_thenTheMeshHasExactlyThemAndAnUnbalancedSetIsRejected() {
    var config = Decks.config(Decks.deck(64, 64, 1, 16, 16, 1,
        "refinement = adaptive\nnumlevel = 3\n" + Decks.periodic(), ""));
    List<LogicalLocation> leaves = new ArrayList<>(Mesh.build(config, 1, 0).locations());
    LogicalLocation root = leaves.remove(5);
    leaves.addAll(List.of(root.children(2)));
    Mesh mesh = Mesh.build(config, leaves, 3, 2);
    assertEquals(19, mesh.totalBlocks());
    assertTrue(mesh.locations().containsAll(leaves));
    assertEquals(LoadBalance.distributeUniform(19, 3).firstGid(2), mesh.blocks().get(0).gid());
    List<LogicalLocation> unbalanced = new ArrayList<>(leaves);
    LogicalLocation child = root.children(2)[0];
    unbalanced.remove(child);
    unbalanced.addAll(List.of(child.children(2)));
    assertThrows(IllegalArgumentException.class, () -> Mesh.build(config, unbalanced, 1, 0));
  }

  @Test
  void givenNewLeaves_thenReplaceBlocksRebuildsBlocksDistributionAndStorage() {
    var config = Decks.config(Decks.deck(64, 64, 1, 16, 16, 1,
        "refinement = adaptive\nnumlevel = 3\n" + Decks.periodic(), ""));
    Mesh mesh = Mesh.build(config, org.metope.comm.InProcessCluster.singleRank());
    var packages = new org.metope.mesh.field.Packages();
    packages.add(org.metope.mesh.TestMeshes.toyPackage(1.0));
    mesh.initializeFields(packages, List.of("base"));
    var oldStorage = mesh.fields();
    var oldPartitions = mesh.meshData("base");
    java.util.Arrays.fill(oldStorage.data(), 7.0);
    mesh.forest().refine(mesh.location(0));
    List<LogicalLocation> leaves = mesh.forest().resolveGids();
    double[] costs = new double[leaves.size()];
    java.util.Arrays.fill(costs, 1.0);
    costs[0] = 2.0;

    mesh.replaceBlocks(leaves, costs);

    assertEquals(19, mesh.totalBlocks());
    assertEquals(19, mesh.blocks().size());
    assertEquals(2.0, mesh.cost(0));
    assertEquals(mesh.location(3), mesh.blocks().get(3).loc());
    assertTrue(mesh.fields() != oldStorage);
    assertTrue(mesh.meshData("base") != oldPartitions);
    assertEquals(19, mesh.fields().numBlocks());
    double[] data = mesh.fields().data();
    for (int n = 0; n < mesh.fields().layout().end(); n++) {
      assertEquals(0.0, data[n]);
    }
    assertThrows(IllegalArgumentException.class, () -> mesh.replaceBlocks(leaves, new double[3]));
    // A plan's distribution is taken as given, over the mesh's ranks only.
    BlockDistribution planned = LoadBalance.distribute(costs, mesh.nranks());
    mesh.replaceBlocks(leaves, costs, planned);
    assertSame(planned, mesh.distribution());
    assertThrows(IllegalArgumentException.class, () -> mesh.replaceBlocks(leaves, costs,
        LoadBalance.distribute(costs, mesh.nranks() + 1)));
  }

  @Test
  void givenRemeshesThatRefineAndMerge_thenEveryBlockHasTheNeighboursAFreshSearchFinds() {
    // Blocks kept through a remesh keep their neighbour lists, renumbered; each list must still be
    // what the forest search gives, on both ranks, while refinements, merges and new costs move
    // blocks, gids and ranks around them.
    var config = Decks.config(Decks.deck(64, 64, 1, 8, 8, 1,
        "refinement = adaptive\nnumlevel = 4\n" + Decks.periodic(), ""));
    for (int rank = 0; rank < 2; rank++) {
      Mesh mesh = Mesh.build(config, 2, rank);
      var packages = new org.metope.mesh.field.Packages();
      packages.add(org.metope.mesh.TestMeshes.toyPackage(1.0));
      mesh.initializeFields(packages, List.of("base"));
      LogicalLocation first = mesh.location(5);
      LogicalLocation second = mesh.location(40);
      int kept = 0;
      int previous = 0;
      for (int step = 0; step < 5; step++) {
        switch (step) {
          case 0 -> mesh.forest().refine(first);
          case 1 -> mesh.forest().refine(first.children(2)[3]);
          case 2 -> mesh.forest().refine(second);
          case 3 -> mesh.forest().derefine(first.children(2)[3]);
          default -> mesh.forest().derefine(second);
        }
        List<LogicalLocation> leaves = mesh.forest().resolveGids();
        double[] costs = new double[leaves.size()];
        for (int gid = 0; gid < costs.length; gid++) {
          costs[gid] = 1.0 + (gid * 7 + step) % 3;
        }
        Map<LogicalLocation, List<NeighborBlock>> before = new HashMap<>();
        for (MeshBlock block : mesh.blocks()) {
          before.put(block.loc(), block.neighbors());
        }
        List<MeshBlock> oldBlocks = mesh.blocks();
        int generation = mesh.blockGeneration();
        mesh.replaceBlocks(leaves, costs);
        assertEquals(generation + 1, mesh.blockGeneration());
        for (MeshBlock block : mesh.blocks()) {
          assertEquals(mesh.neighbors(block.gid()), block.neighbors(), "step " + step + " rank "
              + rank + " block " + block);
          kept += block.neighbors() == before.get(block.loc()) ? 1 : 0;
          if (block.previousLid() >= 0) {
            // The old block there had the same neighbours: the same locations, in order.
            MeshBlock old = oldBlocks.get(block.previousLid());
            assertEquals(old.loc(), block.loc());
            assertEquals(old.neighbors().stream().map(NeighborBlock::loc).toList(),
                block.neighbors().stream().map(NeighborBlock::loc).toList());
            previous++;
          }
        }
      }
      // Some lists are the very ones from before: the reuse happened, the search was skipped.
      assertTrue(kept > 0, "no neighbour list kept on rank " + rank);
      assertTrue(previous > 0, "no block names its previous one on rank " + rank);
    }
  }

  /** A flux function that records the state it was resolved in and fails when told to. */
  private static final class ResolvingFluxes implements FluxFunction {
    private final List<ResolvedState> seen = new ArrayList<>();
    private final boolean fail;

    ResolvingFluxes(boolean fail) {
      this.fail = fail;
    }

    @Override
    public void resolve(ResolvedState state) {
      seen.add(state);
      if (fail) {
        throw new SetupError("field=q is missing");
      }
    }

    @Override
    public void calculateFluxes(MeshData md, int[] fields) {}
  }

  @Test
  void givenAFluxFunction_thenInitializeFieldsResolvesItOnceInTheMeshsState() {
    var config = Decks.config(Decks.deck(32, 1, 1, 16, 1, 1, Decks.periodic(), ""));
    ResolvingFluxes fluxes = new ResolvingFluxes(false);
    var pkg = TestMeshes.toyPackage(1.0);
    pkg.setCalculateFluxes(fluxes);
    Mesh mesh = Mesh.build(config, InProcessCluster.singleRank());
    mesh.initializeFields(Packages.of(pkg), List.of("base"));
    assertEquals(List.of(mesh.resolvedPackages()), fluxes.seen);

    ResolvingFluxes failing = new ResolvingFluxes(true);
    var bad = TestMeshes.toyPackage(1.0);
    bad.setCalculateFluxes(failing);
    Mesh other = Mesh.build(config, InProcessCluster.singleRank());
    var e = assertThrows(SetupError.class,
        () -> other.initializeFields(Packages.of(bad), List.of("base")));
    assertEquals("field=q is missing", e.getMessage());
    assertEquals(1, failing.seen.size());
  }
}
