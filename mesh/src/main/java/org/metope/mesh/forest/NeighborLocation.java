package org.metope.mesh.forest;

/**
 * One neighbour of a block as the forest sees it: which leaf touches the block, through which of
 * the block's geometric elements, and, when the neighbour is finer, which part of that element it
 * covers.
 *
 * @param location the neighbour leaf's location in the domain
 * @param originLocation the same block as seen from the origin block, i.e. the periodic image
 *     that touches it; equals {@code location} unless the contact wraps around a periodic boundary
 * @param element the origin block's element shared with the neighbour
 * @param fi1 for a finer neighbour, its half (0 or 1) along the first axis in which {@code element}
 *     has offset 0; 0 otherwise (Parthenon's {@code fi1})
 * @param fi2 the same along the second such axis (Parthenon's {@code fi2})
 */
public record NeighborLocation(
    LogicalLocation location,
    LogicalLocation originLocation,
    NeighborIndex element,
    int fi1,
    int fi2) {

  /** The neighbour's level minus the origin block's level: -1, 0 or +1. */
  public int levelDifference(LogicalLocation origin) {
    return location.level() - origin.level();
  }
}
