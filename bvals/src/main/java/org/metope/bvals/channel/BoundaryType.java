package org.metope.bvals.channel;

import org.metope.mesh.NeighborBlock;

/**
 * Which boundaries of a partition a cache covers (Parthenon's {@code BoundaryType}): ghost values
 * with every neighbour, with same-rank neighbours only, with other ranks only, and the two sides of
 * flux correction (a fine block sending its restricted face fluxes to a coarser face neighbour,
 * and the coarse block receiving them; edge fluxes also to a coarser edge neighbour).
 */
public enum BoundaryType {
  /** Ghost values, every neighbour. */
  ANY,
  /** Ghost values, neighbours on this rank. */
  LOCAL,
  /** Ghost values, neighbours on other ranks. */
  NONLOCAL,
  /** Flux corrections this block sends: coarser face neighbours. */
  FLXCOR_SEND,
  /** Flux corrections this block receives: finer face neighbours. */
  FLXCOR_RECV;

  /** Whether this type carries flux corrections rather than ghost values. */
  public boolean isFluxCorrection() {
    return this == FLXCOR_SEND || this == FLXCOR_RECV;
  }

  /** Whether the boundary with {@code nb} belongs to this type, seen from a block of {@code myRank}. */
  public boolean covers(NeighborBlock nb, int myRank) {
    return covers(nb, myRank, false);
  }

  /**
   * The same for a field with edge fluxes ({@code edgeFluxes}, a face field): its flux
   * corrections also cross shared edges (Parthenon's {@code GetFluxCorrectionElements}), in 2D
   * the corners of the plane.
   */
  public boolean covers(NeighborBlock nb, int myRank, boolean edgeFluxes) {
    boolean shared = nb.element().isFace() || edgeFluxes && nb.element().isEdge();
    return switch (this) {
      case ANY -> true;
      case LOCAL -> nb.rank() == myRank;
      case NONLOCAL -> nb.rank() != myRank;
      case FLXCOR_SEND -> nb.isCoarser() && shared;
      case FLXCOR_RECV -> nb.isFiner() && shared;
    };
  }

  /** The channel kind this type uses. */
  public ChannelKind kind() {
    return isFluxCorrection() ? ChannelKind.FLUX_CORRECTION : ChannelKind.BOUNDARY_VALUES;
  }
}
