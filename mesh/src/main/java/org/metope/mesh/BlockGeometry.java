package org.metope.mesh;

import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.forest.RootGrid;
import org.metope.mesh.geometry.RegionSize;

/**
 * Physical extent and boundary flags of a block from its logical location.
 *
 * <p>Block edges are computed the way Parthenon computes them, so that coordinates agree bit for
 * bit: Parthenon splits the root grid into a hyper-rectangle of equal trees (a 3D root grid into
 * {@code nrb / d} trees per axis, {@code d} the largest power of two dividing every {@code nrb}; a
 * 1D or 2D one into one tree per root block), maps each tree's edges from [-0.5, 0.5] onto the
 * mesh, then each block's edges from [-0.5, 0.5] onto its tree. Doing the same two steps here
 * reproduces its rounding.
 */
final class BlockGeometry {
  private final RegionSize meshSize;
  private final int[] blockNx;
  private final RootGrid grid;
  private final MeshConfiguration config;
  private final int[] treesPerAxis = new int[3];
  private final int treeLevel;
  private final int rootLevelInTree;

  BlockGeometry(MeshConfiguration config) {
    this.config = config;
    this.meshSize = config.meshSize();
    this.blockNx = new int[] {config.blockNx1(), config.blockNx2(), config.blockNx3()};
    this.grid = config.rootGrid();
    int divisor = Integer.MAX_VALUE;
    for (int axis = 0; axis < 3; axis++) {
      // Any inactive axis makes Parthenon use one tree per root block.
      int nrb = grid.nrb(axis);
      divisor = Math.min(divisor, grid.isActive(axis) ? nrb & -nrb : 1);
    }
    int largest = 1;
    for (int axis = 0; axis < 3; axis++) {
      treesPerAxis[axis] = grid.isActive(axis) ? grid.nrb(axis) / divisor : 1;
      largest = Math.max(largest, treesPerAxis[axis]);
    }
    treeLevel = 32 - Integer.numberOfLeadingZeros(largest - 1);
    rootLevelInTree = 31 - Integer.numberOfLeadingZeros(divisor);
  }

  /** Number of Parthenon's trees: one per root block in 1D and 2D. */
  int treeCount() {
    return treesPerAxis[0] * treesPerAxis[1] * treesPerAxis[2];
  }

  /**
   * Parthenon's level of {@code loc} inside its tree (its "logical level"): the root blocks of a
   * tree of {@code d^3} root blocks sit at level {@code log2(d)}, and one level deeper per
   * refinement.
   */
  int logicalLevel(LogicalLocation loc) {
    return loc.level() - grid.rootLevel() + rootLevelInTree;
  }

  /** The region (bounds and cell counts) of the block at {@code loc}. */
  RegionSize region(LogicalLocation loc) {
    int levelInTree = loc.level() - treeLevel;
    double[] lo = new double[3];
    double[] hi = new double[3];
    int[] nx = new int[3];
    boolean[] symmetry = new boolean[3];
    for (int axis = 0; axis < 3; axis++) {
      long tree = grid.isActive(axis) ? loc.l(axis) >> levelInTree : 0;
      double treeLo = meshSize.symmetrizedLogicalToActualPosition(
          LogicalLocation.indexToSymmetrizedCoordinate(tree, 0, treesPerAxis[axis]), axis);
      double treeHi = meshSize.symmetrizedLogicalToActualPosition(
          LogicalLocation.indexToSymmetrizedCoordinate(tree, 2, treesPerAxis[axis]), axis);
      if (grid.isActive(axis)) {
        long inTree = loc.l(axis) - (tree << levelInTree);
        long blocksInTree = 1L << levelInTree;
        double mid = 0.5 * (treeLo + treeHi);
        double uLo = LogicalLocation.indexToSymmetrizedCoordinate(inTree, 0, blocksInTree);
        double uHi = LogicalLocation.indexToSymmetrizedCoordinate(inTree, 2, blocksInTree);
        lo[axis] = mid + (uLo * treeHi - uLo * treeLo);
        hi[axis] = mid + (uHi * treeHi - uHi * treeLo);
      } else {
        lo[axis] = treeLo;
        hi[axis] = treeHi;
      }
      nx[axis] = blockNx[axis];
      symmetry[axis] = meshSize.isSymmetry(axis);
    }
    return new RegionSize(lo, hi, nx, symmetry);
  }

  /**
   * The flag of each face of the block at {@code loc}, in {@link BoundaryFace} order: the mesh's
   * condition where the face lies on the mesh boundary, {@code BLOCK} elsewhere.
   */
  BoundaryFlag[] boundaryFlags(LogicalLocation loc) {
    BoundaryFlag[] flags = new BoundaryFlag[6];
    for (BoundaryFace face : BoundaryFace.values()) {
      int axis = face.axis();
      long edge = face.isOuter() ? grid.extent(axis, loc.level()) - 1 : 0;
      boolean onMeshBoundary = !grid.isActive(axis) || loc.l(axis) == edge;
      flags[face.ordinal()] = onMeshBoundary ? config.boundaryFlag(face) : BoundaryFlag.BLOCK;
    }
    return flags;
  }
}
