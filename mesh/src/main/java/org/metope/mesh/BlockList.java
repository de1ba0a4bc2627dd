package org.metope.mesh;

import java.util.Arrays;
import java.util.List;
import org.metope.mesh.forest.LeafChanges;
import org.metope.mesh.forest.LogicalLocation;

/**
 * Makes a rank's {@link MeshBlock}s for the mesh's current leaves and distribution, at start and
 * after every remesh. A block whose location was this rank's before keeps that block's geometry,
 * and its neighbours too when none of them stopped being a leaf, renumbered: a block's
 * neighbourhood changes only where a leaf touching it was refined or merged away (a new leaf
 * touching it is part of, or the union of, old leaves that touched it), so most blocks of a remesh
 * skip the forest search ({@link Mesh#neighbors}).
 */
final class BlockList {
  private BlockList() {}

  /**
   * This rank's blocks of {@code mesh}, reusing what {@code old} (its blocks before, in gid order)
   * allows. Old and new blocks both come in Morton order, so one pass pairs them.
   */
  static List<MeshBlock> build(Mesh mesh, BlockGeometry geometry, List<MeshBlock> old) {
    BlockDistribution distribution = mesh.distribution();
    int first = distribution.firstGid(mesh.myRank());
    int count = distribution.blockCount(mesh.myRank());
    MemoryBudget.requireBlocks(count, mesh.totalBlocks());
    LeafChanges changes = mesh.forest().lastChanges();
    OldBlocks before = new OldBlocks(old);
    MeshBlock[] list = new MeshBlock[count];
    for (int lid = 0; lid < count; lid++) {
      list[lid] = block(mesh, geometry, first + lid, lid, before, changes);
    }
    return List.of(list);
  }

  /**
   * Block {@code lid}, gid {@code gid}: the old block at its location kept, or a new one. A method
   * per block, not a loop body in {@link #build}: build runs once per remesh, too rarely for the
   * JIT to compile its loop, while this method is compiled within the first remeshes.
   */
  private static MeshBlock block(Mesh mesh, BlockGeometry geometry, int gid, int lid,
      OldBlocks before, LeafChanges changes) {
    LogicalLocation loc = mesh.location(gid);
    MeshBlock kept = before.at(loc);
    if (kept == null) {
      MeshBlock block = new MeshBlock(mesh, gid, lid, loc, geometry.region(loc),
          geometry.boundaryFlags(loc), mesh.cost(gid));
      block.setNeighbors(mesh.neighbors(gid));
      return block;
    }
    MeshBlock block = new MeshBlock(kept, gid, lid, mesh.cost(gid));
    List<NeighborBlock> same = renumbered(mesh, kept.neighbors(), changes);
    block.setNeighbors(same != null ? same : mesh.neighbors(gid));
    block.setPrevious(kept.lid(), same != null ? null : kept.neighbors());
    return block;
  }

  /** The old blocks in Morton order, walked once as the new locations come in that order. */
  private static final class OldBlocks {
    private final List<MeshBlock> blocks;
    private int next;

    OldBlocks(List<MeshBlock> blocks) {
      this.blocks = blocks;
    }

    /** The old block at {@code loc}, or null; later calls ask for later locations. */
    MeshBlock at(LogicalLocation loc) {
      while (next < blocks.size() && blocks.get(next).loc().compareTo(loc) < 0) {
        next++;
      }
      return next < blocks.size() && blocks.get(next).loc().equals(loc) ? blocks.get(next) : null;
    }
  }

  /**
   * {@code before}, a kept block's neighbours, with the current gids and ranks (the same list when
   * none changed), or null when one of them is no longer a leaf. {@code changes} (the forest's
   * last, or null) gives a neighbour's new gid from its old one, checked by its location; without
   * them, or when the check fails, the forest looks the location up.
   */
  private static List<NeighborBlock> renumbered(Mesh mesh, List<NeighborBlock> before,
      LeafChanges changes) {
    NeighborBlock[] now = null;
    for (int n = 0; n < before.size(); n++) {
      NeighborBlock nb = before.get(n);
      int ngid = changes == null ? -1 : changes.gidAfter(nb.gid());
      if (ngid < 0 || ngid >= mesh.totalBlocks() || !mesh.location(ngid).equals(nb.loc())) {
        ngid = mesh.forest().gid(nb.loc());
      }
      if (ngid < 0) {
        return null;
      }
      int nrank = mesh.rank(ngid);
      if (ngid != nb.gid() || nrank != nb.rank()) {
        if (now == null) {
          now = before.toArray(new NeighborBlock[0]);
        }
        now[n] = new NeighborBlock(ngid, nrank, nb.loc(), nb.originLoc(), nb.element(), nb.fi1(),
            nb.fi2(), nb.levelDifference());
      }
    }
    return now == null ? before : Arrays.asList(now);
  }
}
