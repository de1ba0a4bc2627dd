package org.metope.mesh;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessCluster;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldStorage;
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
 * refinement), the levels above the root grid are Parthenon's two-level composite grids ({@link
 * CompositeLevels}): level 0 is a copy of the mesh's leaves in one pack, level {@code m} the
 * leaves truncated at {@code m} tree levels below the finest, down to the root grid. Each level
 * is a {@link Mesh} of its own, with the packages' fields and a boundary communication of its own,
 * so a level's ghost exchange (fine-coarse boundaries within it included) is the ordinary one;
 * moving data between levels never leaves a rank. On several ranks every rank holds every level
 * whole, on a one-rank communicator of its own, and {@link #exchangeWithMesh} gathers the mesh's
 * leaves from all ranks into level 0: every rank then runs the same V-cycle on the same values,
 * which gives the same bits on any number of ranks at the cost of one all-gather of the leaves per
 * V-cycle and of the whole hierarchy's work on every rank (Parthenon distributes the levels).
 */
public final class MultigridLevels {
  private final Mesh mesh;
  private final List<Mesh> meshes;
  private final List<BoundaryCommunication> boundaries;
  private final List<CompositeLevels> links;
  private final boolean composite;
  /** Per block of the mesh, its index in level 0 (refined meshes). */
  private final int[] copyIndex;
  /** Per gid, the block's index in level 0 (refined meshes). */
  private final int[] copyIndexByGid;
  /** Whether the levels are whole on every rank, the leaves gathered into level 0. */
  private final boolean replicated;
  /** This rank's blocks as {@link #gatherLeaves} sends them, kept between V-cycles. */
  private double[] gatherBuffer = new double[0];

  private MultigridLevels(Mesh mesh, List<Mesh> meshes, List<BoundaryCommunication> boundaries,
      List<CompositeLevels> links, boolean composite) {
    this.mesh = mesh;
    this.copyIndex = new int[mesh.blocks().size()];
    Map<LogicalLocation, Integer> copy = CompositeLevels.localIndex(meshes.get(0));
    for (int b = 0; b < copyIndex.length; b++) {
      copyIndex[b] = copy.get(mesh.blocks().get(b).loc());
    }
    this.replicated = composite && mesh.nranks() > 1;
    this.copyIndexByGid = new int[replicated ? mesh.totalBlocks() : 0];
    for (int gid = 0; gid < copyIndexByGid.length; gid++) {
      copyIndexByGid[gid] = copy.get(mesh.location(gid));
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
   */
  public static MultigridLevels build(Mesh leaf, BoundaryCommunication leafBoundaries,
      List<String> containers, Function<Mesh, BoundaryCommunication> setUp) {
    List<Mesh> meshes = new ArrayList<>();
    List<BoundaryCommunication> exchanges = new ArrayList<>();
    boolean composite = leaf.config().isMultilevel();
    if (composite) {
      Communicator own = leaf.nranks() > 1 ? InProcessCluster.singleRank()
          : leaf.communicator();
      for (int level = leaf.currentLevel(); level >= leaf.rootLevel(); level--) {
        MeshConfiguration config = leaf.config().multigridLevel(level == leaf.rootLevel());
        List<LogicalLocation> blocks = CompositeLevels.truncated(leaf.locations(), level);
        Mesh m = own != null ? Mesh.build(config, own, blocks) : Mesh.build(config, blocks, 1, 0);
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

  /** The mesh the levels were built for (its leaves, distributed over the ranks). */
  public Mesh leaf() {
    return mesh;
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
   * level 0 ({@code toLevels}; on several ranks gathered from all of them, collectively), or
   * field {@code field} back from level 0 to this rank's blocks of the mesh.
   */
  public void exchangeWithMesh(boolean toLevels, int container, int field) {
    if (!composite) {
      return;
    }
    if (toLevels && replicated) {
      gatherLeaves(container);
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

  /**
   * Every rank's blocks of the mesh into level 0: each block as its gid and the cells of every
   * field of {@code container} (zeros for a field not allocated on it), all-gathered (the gathered
   * array is the communicator's, new each time).
   */
  private void gatherLeaves(int container) {
    FieldStorage from = mesh.fields();
    ArenaLayout layout = from.layout();
    int perBlock = 1;
    for (int f = 0; f < layout.numFields(); f++) {
      int inst = layout.dataInstance(f, container);
      perBlock += inst < 0 ? 0 : layout.blockLength(inst);
    }
    int local = mesh.blocks().size();
    if (gatherBuffer.length != local * perBlock) {
      gatherBuffer = new double[local * perBlock];
    }
    double[] mine = gatherBuffer;
    for (int b = 0; b < local; b++) {
      int at = b * perBlock;
      mine[at++] = mesh.blocks().get(b).gid();
      for (int f = 0; f < layout.numFields(); f++) {
        int inst = layout.dataInstance(f, container);
        if (inst < 0) {
          continue;
        }
        if (layout.offset(inst, b) >= 0) {
          System.arraycopy(from.data(), layout.offset(inst, b), mine, at,
              layout.blockLength(inst));
        }
        at += layout.blockLength(inst);
      }
    }
    double[] all = mesh.communicator().allgather(mine);
    FieldStorage to = meshes.get(0).fields();
    ArenaLayout copy = to.layout();
    for (int at = 0; at < all.length; at += perBlock) {
      int c = copyIndexByGid[(int) all[at]];
      int from0 = at + 1;
      for (int f = 0; f < layout.numFields(); f++) {
        int inst = layout.dataInstance(f, container);
        if (inst < 0) {
          continue;
        }
        int ti = copy.dataInstance(f, container);
        if (ti >= 0 && copy.offset(ti, c) >= 0) {
          System.arraycopy(all, from0, to.data(), copy.offset(ti, c), layout.blockLength(inst));
        }
        from0 += layout.blockLength(inst);
      }
    }
  }
}
