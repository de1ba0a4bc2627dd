package org.metope.mesh;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The geometric multigrid levels of a mesh without refinement ({@code <parthenon/mesh> multigrid
 * = true}; Parthenon's GMG block lists below the root grid, {@code Mesh::BuildGMGBlockLists}).
 * Level 0 is the mesh itself; level {@code m} has the same blocks (gids, ranks, neighbours,
 * partitions) with {@code 2^m} times fewer cells along every active axis, down to the level where
 * a block width becomes odd (one cell for power-of-two blocks), as Parthenon coarsens each root
 * block inside its own tree. Each coarse level is a {@link Mesh} of its own, with the packages'
 * fields and a boundary communication of its own, so a level's ghost exchange is the ordinary
 * one; moving data between levels never leaves a rank, since a coarse block lies on the rank of
 * the block it coarsens.
 */
public final class MultigridLevels {
  private final List<Mesh> meshes;
  private final List<BoundaryCommunication> boundaries;

  private MultigridLevels(List<Mesh> meshes, List<BoundaryCommunication> boundaries) {
    this.meshes = List.copyOf(meshes);
    this.boundaries = List.copyOf(boundaries);
  }

  /**
   * Builds the levels below {@code leaf}; collective (every rank builds them, in the same order).
   *
   * @param leaf the mesh, with its fields initialised, and without refinement
   * @param leafBoundaries the mesh's boundary communication
   * @param containers the stage containers to allocate on every level
   * @param setUp makes and sets up the boundary communication of a coarse level, its fields
   *     initialised
   */
  public static MultigridLevels build(Mesh leaf, BoundaryCommunication leafBoundaries,
      List<String> containers, Function<Mesh, BoundaryCommunication> setUp) {
    List<Mesh> meshes = new ArrayList<>(List.of(leaf));
    List<BoundaryCommunication> exchanges = new ArrayList<>(List.of(leafBoundaries));
    MeshConfiguration config = leaf.config();
    for (int m = 1; m <= leaf.config().multigridCoarsenings(); m++) {
      config = config.coarsened();
      Mesh coarse = leaf.communicator() != null ? Mesh.build(config, leaf.communicator())
          : Mesh.build(config, leaf.nranks(), leaf.myRank());
      for (int gid = 0; gid < leaf.totalBlocks(); gid++) {
        if (coarse.rank(gid) != leaf.rank(gid)
            || !coarse.location(gid).equals(leaf.location(gid))) {
          throw new IllegalStateException("multigrid level " + m + " places block gid=" + gid
              + " differently from the mesh");
        }
      }
      coarse.initializeFields(leaf.packages(), containers);
      meshes.add(coarse);
      exchanges.add(setUp.apply(coarse));
    }
    return new MultigridLevels(meshes, exchanges);
  }

  /** Number of levels, the mesh itself included. */
  public int count() {
    return meshes.size();
  }

  /** Level {@code m}: the mesh coarsened {@code m} times (0 is the mesh itself). */
  public Mesh mesh(int m) {
    return meshes.get(m);
  }

  /** The boundary communication of level {@code m}. */
  public BoundaryCommunication boundaries(int m) {
    return boundaries.get(m);
  }
}
