package org.metope.mesh;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.metope.mesh.forest.LogicalLocation;

/**
 * The geometric multigrid levels of a mesh ({@code <parthenon/mesh> multigrid = true}; Parthenon's
 * GMG block lists, {@code Mesh::BuildGMGBlockLists}), finest first. Below the root grid, level
 * {@code m + 1} has the blocks of level {@code m} (gids, ranks, neighbours) with half the cells
 * along every active axis, down to the level where a block width becomes odd (one cell for
 * power-of-two blocks), as Parthenon coarsens each root block inside its own tree; these levels
 * have one ghost layer.
 *
 * <p>On a mesh without refinement, level 0 is the mesh itself. On a refined mesh (static
 * refinement, one rank), the levels above the root grid are Parthenon's two-level composite grids
 * ({@link CompositeLevels}): level 0 is a copy of the mesh's leaves in one pack, level {@code m}
 * the leaves truncated at {@code m} tree levels below the finest, down to the root grid. Each level
 * is a {@link Mesh} of its own, with the packages' fields and a boundary communication of its own,
 * so a level's ghost exchange (fine-coarse boundaries within it included) is the ordinary one;
 * moving data between levels never leaves a rank.
 */
public final class MultigridLevels {
  private final Mesh mesh;
  private final List<Mesh> meshes;
  private final List<BoundaryCommunication> boundaries;
  private final List<CompositeLevels> links;
  private final boolean composite;
  /** Per block of the mesh, its index in level 0 (refined meshes). */
  private final int[] copyIndex;

  private MultigridLevels(Mesh mesh, List<Mesh> meshes, List<BoundaryCommunication> boundaries,
      List<CompositeLevels> links, boolean composite) {
    this.mesh = mesh;
    this.copyIndex = new int[mesh.blocks().size()];
    Map<LogicalLocation, Integer> copy = CompositeLevels.localIndex(meshes.get(0));
    for (int b = 0; b < copyIndex.length; b++) {
      copyIndex[b] = copy.get(mesh.blocks().get(b).loc());
    }
    this.meshes = List.copyOf(meshes);
    this.boundaries = List.copyOf(boundaries);
    this.links = List.copyOf(links);
    this.composite = composite;
  }

  /**
   * Builds the levels of {@code leaf}; collective (every rank builds them, in the same order).
   *
   * @param leaf the mesh, with its fields initialised, without refinement or statically refined
   * @param leafBoundaries the mesh's boundary communication
   * @param containers the stage containers to allocate on every level
   * @param setUp makes and sets up the boundary communication of a level, its fields initialised
   * @throws DriverError for a refined mesh on more than one rank
   */
  public static MultigridLevels build(Mesh leaf, BoundaryCommunication leafBoundaries,
      List<String> containers, Function<Mesh, BoundaryCommunication> setUp) {
    List<Mesh> meshes = new ArrayList<>();
    List<BoundaryCommunication> exchanges = new ArrayList<>();
    boolean composite = leaf.config().isMultilevel();
    if (composite) {
      if (leaf.nranks() > 1) {
        throw new DriverError("multigrid on a refined mesh runs on one rank only (this run has "
            + leaf.nranks() + " ranks); run it on one rank, or without refinement");
      }
      for (int level = leaf.currentLevel(); level >= leaf.rootLevel(); level--) {
        MeshConfiguration config = leaf.config().multigridLevel(level == leaf.rootLevel());
        List<LogicalLocation> blocks = CompositeLevels.truncated(leaf.locations(), level);
        Mesh m = leaf.communicator() != null ? Mesh.build(config, leaf.communicator(), blocks)
            : Mesh.build(config, blocks, leaf.nranks(), leaf.myRank());
        meshes.add(level(m, leaf, containers));
        exchanges.add(setUp.apply(m));
      }
    } else {
      meshes.add(leaf);
      exchanges.add(leafBoundaries);
    }
    int treeLevels = meshes.size();
    Mesh root = meshes.get(treeLevels - 1);
    MeshConfiguration config = root.config();
    int coarsenings = config.multigridCoarsenings();
    for (int m = 1; m <= coarsenings; m++) {
      config = config.coarsened();
      Mesh coarse = root.communicator() != null ? Mesh.build(config, root.communicator())
          : Mesh.build(config, root.nranks(), root.myRank());
      for (int gid = 0; gid < root.totalBlocks(); gid++) {
        if (coarse.rank(gid) != root.rank(gid)
            || !coarse.location(gid).equals(root.location(gid))) {
          throw new IllegalStateException("multigrid level " + m + " places block gid=" + gid
              + " differently from the root grid");
        }
      }
      meshes.add(level(coarse, leaf, containers));
      exchanges.add(setUp.apply(coarse));
    }
    Set<LogicalLocation> leaves = new HashSet<>(leaf.locations());
    List<CompositeLevels> links = new ArrayList<>();
    for (int m = 0; m < meshes.size(); m++) {
      boolean tree = composite && m < treeLevels;
      int treeLevel = tree ? leaf.currentLevel() - m : Integer.MIN_VALUE;
      Mesh coarser = m + 1 < meshes.size() ? meshes.get(m + 1) : null;
      links.add(CompositeLevels.of(meshes.get(m), treeLevel, leaves, meshes.get(0), coarser,
          m + 1 >= treeLevels));
    }
    return new MultigridLevels(leaf, meshes, exchanges, links, composite);
  }

  private static Mesh level(Mesh m, Mesh leaf, List<String> containers) {
    m.initializeFields(leaf.packages(), containers);
    return m;
  }

  /** Number of levels, the finest included. */
  public int count() {
    return meshes.size();
  }

  /** Level {@code m} (0 is the finest: the mesh itself, or on a refined mesh its copy). */
  public Mesh mesh(int m) {
    return meshes.get(m);
  }

  /** The boundary communication of level {@code m}. */
  public BoundaryCommunication boundaries(int m) {
    return boundaries.get(m);
  }

  /** How the blocks of level {@code m} relate to the leaves and to level {@code m + 1}. */
  public CompositeLevels links(int m) {
    return links.get(m);
  }

  /** Whether the mesh is refined, so that level 0 is a copy of it and leaves move between levels. */
  public boolean composite() {
    return composite;
  }

  /** On a refined mesh, copies level 0's leaves' fields of {@code container} into level {@code m}. */
  public void pullLeaves(int m, int container) {
    if (composite && m > 0) {
      links.get(m).pullLeaves(meshes.get(0), meshes.get(m), container);
    }
  }

  /** On a refined mesh, copies level {@code m}'s leaves' fields back to level 0. */
  public void pushLeaves(int m, int container) {
    if (composite && m > 0) {
      links.get(m).pushLeaves(meshes.get(m), meshes.get(0), container);
    }
  }

  /**
   * On a refined mesh, copies every field of {@code container} of every block of the mesh into
   * level 0 ({@code toLevels}), or field {@code field} back from level 0 to the mesh.
   */
  public void exchangeWithMesh(boolean toLevels, int container, int field) {
    if (!composite) {
      return;
    }
    Mesh copy = meshes.get(0);
    for (int b = 0; b < mesh.blocks().size(); b++) {
      int c = copyIndex[b];
      if (toLevels) {
        CompositeLevels.copyBlock(mesh.fields(), b, copy.fields(), c, container);
      } else {
        CompositeLevels.copyField(copy.fields(), c, mesh.fields(), b, container, field);
      }
    }
  }
}
