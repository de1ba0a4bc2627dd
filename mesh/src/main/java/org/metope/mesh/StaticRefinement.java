package org.metope.mesh;

import org.metope.mesh.forest.Forest;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.forest.RootGrid;
import org.metope.mesh.geometry.RegionSize;

/**
 * Refines the forest so that every static refinement region is covered by blocks of its level
 * (Parthenon's {@code DoStaticRefinement}). Along each axis the region selects the blocks of that
 * level whose extent overlaps it, widened to whole sibling pairs; each selected block is added
 * with its ancestors, and 2:1 balance spreads the refinement around it.
 */
final class StaticRefinement {
  private StaticRefinement() {}

  static void apply(Forest forest, MeshConfiguration config) {
    RootGrid grid = forest.grid();
    RegionSize mesh = config.meshSize();
    for (StaticRefinementRegion region : config.staticRegions()) {
      int level = grid.rootLevel() + region.level();
      long[] first = new long[3];
      long[] end = {1, 1, 1};
      for (int axis = 0; axis < grid.ndim(); axis++) {
        long[] range = blockRange(mesh, axis, grid.nrb(axis) * (1L << region.level()),
            region.xmin(axis), region.xmax(axis));
        first[axis] = range[0];
        end[axis] = range[1];
      }
      for (long k = first[2]; k < end[2]; k += 2) {
        for (long j = first[1]; j < end[1]; j += 2) {
          for (long i = first[0]; i < end[0]; i += 2) {
            forest.addMeshBlock(new LogicalLocation(level, i, j, k));
          }
        }
      }
    }
  }

  /**
   * The blocks among {@code total} along {@code axis} that overlap {@code [lo, hi]}: {@code
   * {first, end}} with {@code first} even and {@code end} past an odd index, so whole sibling
   * pairs are covered.
   */
  private static long[] blockRange(RegionSize mesh, int axis, long total, double lo, double hi) {
    long first = 0;
    while (first < total && !(rightEdge(mesh, axis, first, total) > lo)) {
      first++;
    }
    long last = first;
    while (last < total && !(rightEdge(mesh, axis, last, total) >= hi)) {
      last++;
    }
    last = Math.min(last, total - 1);
    first = Math.min(first, total - 1);
    if (first % 2 == 1) {
      first--;
    }
    if (last % 2 == 0) {
      last++;
    }
    return new long[] {first, last};
  }

  private static double rightEdge(RegionSize mesh, int axis, long index, long total) {
    return mesh.symmetrizedLogicalToActualPosition(
        LogicalLocation.indexToSymmetrizedCoordinate(index + 1, 0, total), axis);
  }
}
