package org.metope.mesh;

import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.forest.NeighborIndex;

/**
 * One neighbour of a block (Parthenon's {@code NeighborBlock}): a block that shares a geometric
 * element with it, possibly across a periodic boundary, possibly itself. A block has one entry per
 * (neighbour, element) contact; a finer side of an element gives one entry per fine block.
 *
 * @param gid the neighbour's global id
 * @param rank the rank that owns the neighbour
 * @param loc the neighbour's location in the domain
 * @param originLoc the neighbour's location as seen from the origin block (its periodic image
 *     next to the origin; equal to {@code loc} without wrap-around)
 * @param element the origin block's element shared with the neighbour (the channel's element on
 *     the sending side when the origin sends)
 * @param fi1 for a finer neighbour, its half (0 or 1) along the first axis in which {@code element}
 *     has offset 0; 0 otherwise
 * @param fi2 the same along the second such axis; 0 otherwise
 * @param levelDifference the neighbour's level minus the origin's: -1 (coarser), 0 or +1 (finer)
 */
public record NeighborBlock(
    int gid,
    int rank,
    LogicalLocation loc,
    LogicalLocation originLoc,
    NeighborIndex element,
    int fi1,
    int fi2,
    int levelDifference) {

  /** The neighbour's tree level. */
  public int level() {
    return loc.level();
  }

  /** Whether the neighbour is one level finer than the origin block. */
  public boolean isFiner() {
    return levelDifference > 0;
  }

  /** Whether the neighbour is one level coarser than the origin block. */
  public boolean isCoarser() {
    return levelDifference < 0;
  }
}
