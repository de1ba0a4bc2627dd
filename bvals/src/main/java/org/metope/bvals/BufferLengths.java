package org.metope.bvals;

import java.util.Arrays;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.NeighborBlock;
import org.metope.mesh.forest.NeighborIndex;
import org.metope.mesh.geometry.RegionSize;

/**
 * The cell count of a boundary-value buffer, worked out once per kind of contact and looked up
 * for the others while {@link ChannelBuilder} makes a mesh's channels. A box's extent along an
 * axis depends on the element's offset along it, the level difference, the range and the
 * block's cells, never on which half of its parent the block or its neighbour is (that only
 * moves the box), so every boundary of the same element and level difference on blocks of the
 * same shape has the same count. A block of another shape than the first one seen is worked
 * out in full.
 */
final class BufferLengths {
  /** Level differences -1, 0 and +1. */
  private static final int LEVELS = 3;
  /** Unknown count. */
  private static final int UNKNOWN = -1;

  /** By element, level difference, fine, cell and range: the count, or {@link #UNKNOWN}. */
  private final int[] counts = new int[NeighborIndex.COUNT * LEVELS * 8];
  /** The box being worked out, {@code is, ie, js, je, ks, ke}. */
  private final int[] box = new int[6];
  /** The blocks' shape the counts hold for: interior cells per axis, 0 along a symmetry axis. */
  private final int[] shape = new int[3];
  private boolean shapeKnown;

  BufferLengths() {
    Arrays.fill(counts, UNKNOWN);
  }

  /**
   * The cells of the {@code range} box of the value boundary of {@code block} with {@code nb},
   * for a field that is {@code fine} or not and a cell field or not ({@link
   * BoundaryRows#valueBox}).
   */
  int cells(MeshBlock block, NeighborBlock nb, boolean fine, boolean cell,
      BoundaryIndices.Range range) {
    int level = nb.levelDifference() + 1;
    if (level < 0 || level >= LEVELS || !hasShape(block.region())) {
      return boxCells(block, nb, fine, cell, range);
    }
    int key = (((nb.element().index() * LEVELS + level) * 2 + (fine ? 1 : 0)) * 2
        + (cell ? 1 : 0)) * 2 + range.ordinal();
    int count = counts[key];
    if (count == UNKNOWN) {
      count = boxCells(block, nb, fine, cell, range);
      counts[key] = count;
    }
    return count;
  }

  /** Whether {@code region} has the shape of the first block seen (which it records). */
  private boolean hasShape(RegionSize region) {
    if (!shapeKnown) {
      for (int axis = 0; axis < 3; axis++) {
        shape[axis] = axisCells(region, axis);
      }
      shapeKnown = true;
      return true;
    }
    return shape[0] == axisCells(region, 0) && shape[1] == axisCells(region, 1)
        && shape[2] == axisCells(region, 2);
  }

  private static int axisCells(RegionSize region, int axis) {
    return region.isSymmetry(axis) ? 0 : region.nx(axis);
  }

  private int boxCells(MeshBlock block, NeighborBlock nb, boolean fine, boolean cell,
      BoundaryIndices.Range range) {
    BoundaryRows.valueBox(block, nb, fine, cell, range, box);
    return cells(box);
  }

  /** Number of cells of a box {@code is, ie, js, je, ks, ke}. */
  static int cells(int[] box) {
    return (box[1] - box[0] + 1) * (box[3] - box[2] + 1) * (box[5] - box[4] + 1);
  }
}
