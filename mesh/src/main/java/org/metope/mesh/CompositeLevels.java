package org.metope.mesh;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.forest.LogicalLocation;

/**
 * How the blocks of one multigrid level of a refined mesh relate to the others (Parthenon's
 * two-level composite grids, {@code Mesh::BuildGMGBlockLists} and {@code SetGMGNeighbors}). Level
 * {@code L} of the tree is the mesh whose blocks are the leaves truncated at {@code L}: every block
 * of tree level {@code L} (leaf or not) and every leaf coarser than {@code L}. Parthenon's level
 * holds only the leaves of level {@code L - 1} among the coarser ones; the others sit beside them
 * here, untouched by the solver, so that the level is a whole mesh with an ordinary ghost
 * exchange. A leaf is the same block on every level where it appears, so its values move between
 * the levels and the leaf level with {@link #pullLeaves} and {@link #pushLeaves}, which stand for
 * Parthenon's sharing of one block's memory.
 *
 * @param onLevel per block of this rank: whether it lies at the level's tree level (Parthenon's
 *     {@code only_fine_on_composite})
 * @param leaf whether the block is a leaf of the mesh
 * @param leafIndex the block's index in the leaf level's storage (leaves), else -1
 * @param parent the index, in the next coarser level, of the block this one restricts into
 *     (blocks on the level above the coarsest), else -1
 * @param childIndex per block and axis, the block's position (0 or 1) inside its parent; all 0
 *     where the coarser level has the same blocks with half the cells
 */
public record CompositeLevels(boolean[] onLevel, boolean[] leaf, int[] leafIndex, int[] parent,
    int[][] childIndex) {

  /** The leaves truncated at tree level {@code level}, in the mesh's gid order. */
  static List<LogicalLocation> truncated(List<LogicalLocation> leaves, int level) {
    Set<LogicalLocation> out = new LinkedHashSet<>();
    for (LogicalLocation loc : leaves) {
      out.add(loc.level() > level ? loc.ancestor(loc.level() - level) : loc);
    }
    return new ArrayList<>(out);
  }

  /**
   * The relations of this rank's blocks of {@code level} (at tree level {@code treeLevel}) to the
   * leaf level {@code leafLevel} and the next coarser level {@code coarser} (null for the coarsest).
   *
   * @param halves whether {@code coarser} has the same blocks with half the cells (below the root
   *     grid), rather than the parents of this level's blocks
   */
  static CompositeLevels of(Mesh level, int treeLevel, Set<LogicalLocation> leaves,
      Mesh leafLevel, Mesh coarser, boolean halves) {
    int n = level.blocks().size();
    boolean[] onLevel = new boolean[n];
    boolean[] leaf = new boolean[n];
    int[] leafIndex = new int[n];
    int[] parent = new int[n];
    int[][] childIndex = new int[n][3];
    Map<LogicalLocation, Integer> leafBlocks = localIndex(leafLevel);
    Map<LogicalLocation, Integer> coarse = coarser == null ? Map.of() : localIndex(coarser);
    for (int b = 0; b < n; b++) {
      LogicalLocation loc = level.blocks().get(b).loc();
      onLevel[b] = treeLevel == Integer.MIN_VALUE || loc.level() == treeLevel;
      leaf[b] = treeLevel != Integer.MIN_VALUE && leaves.contains(loc);
      leafIndex[b] = leaf[b] ? leafBlocks.get(loc) : -1;
      parent[b] = -1;
      if (onLevel[b] && coarser != null) {
        LogicalLocation up = halves ? loc : loc.parent();
        Integer p = coarse.get(up);
        if (p == null) {
          throw new IllegalStateException("multigrid: block " + loc + " has no block " + up
              + " on this rank one level coarser (every rank holds a refined mesh's levels whole)");
        }
        parent[b] = p;
        for (int axis = 0; axis < 3; axis++) {
          childIndex[b][axis] = halves ? 0 : loc.childIndex(axis);
        }
      }
    }
    return new CompositeLevels(onLevel, leaf, leafIndex, parent, childIndex);
  }

  static Map<LogicalLocation, Integer> localIndex(Mesh mesh) {
    Map<LogicalLocation, Integer> out = new HashMap<>();
    for (int b = 0; b < mesh.blocks().size(); b++) {
      out.put(mesh.blocks().get(b).loc(), b);
    }
    return out;
  }

  /** Copies every leaf's fields of {@code container} from the leaf level into {@code level}. */
  void pullLeaves(Mesh leafLevel, Mesh level, int container) {
    for (int b = 0; b < leaf.length; b++) {
      if (leaf[b]) {
        copyBlock(leafLevel.fields(), leafIndex[b], level.fields(), b, container);
      }
    }
  }

  /** Copies every leaf's fields of {@code container} from {@code level} back to the leaf level. */
  void pushLeaves(Mesh level, Mesh leafLevel, int container) {
    for (int b = 0; b < leaf.length; b++) {
      if (leaf[b]) {
        copyBlock(level.fields(), b, leafLevel.fields(), leafIndex[b], container);
      }
    }
  }

  /**
   * Copies all cells (ghosts included) of every allocated field of {@code container} of block
   * {@code fb} of {@code from} into block {@code tb} of {@code to}; both storages hold the same
   * packages on blocks of one shape.
   */
  static void copyBlock(FieldStorage from, int fb, FieldStorage to, int tb, int container) {
    for (int field = 0; field < from.layout().numFields(); field++) {
      copyField(from, fb, to, tb, container, field);
    }
  }

  /** Copies field {@code field} of block {@code fb} of {@code from} into block {@code tb}. */
  static void copyField(FieldStorage from, int fb, FieldStorage to, int tb, int container,
      int field) {
    ArenaLayout fl = from.layout();
    ArenaLayout tl = to.layout();
    int fi = fl.dataInstance(field, container);
    int ti = tl.dataInstance(field, container);
    if (fi < 0 || ti < 0 || fl.offset(fi, fb) < 0 || tl.offset(ti, tb) < 0) {
      return;
    }
    System.arraycopy(from.data(), fl.offset(fi, fb), to.data(), tl.offset(ti, tb),
        fl.blockLength(fi));
  }
}
