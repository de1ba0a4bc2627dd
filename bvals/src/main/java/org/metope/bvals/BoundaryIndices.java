package org.metope.bvals;

import org.metope.kernels.IndexBox;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.NeighborBlock;

/**
 * Where the cells of one boundary lie in a block's index space (Parthenon's {@code CalcIndices}
 * for cell-centred data): the sender's interior slab that goes into a buffer, or the receiver's
 * ghost slab a buffer fills, across level differences.
 *
 * <p>Index spaces: a block's own cells, ghosts included, when the neighbour is on the same level or
 * finer; the block's coarse buffer (half the interior cells per active axis, the same ghost width)
 * when the neighbour is coarser, for both directions, and always for prolongation and restriction
 * ({@code prores}). Rules per axis, with {@code s..e} the interior of the chosen space:
 *
 * <ul>
 *   <li>offset +1: the last {@code nghost} interior cells (send) or the {@code nghost} ghosts past
 *       the end (receive); offset -1 mirrors it. A flux boundary is the single face instead.
 *   <li>offset 0, neighbour finer: only the half the fine neighbour touches, widened by {@code
 *       nghost} interior cells when sending, so the fine side has the coarse cells its
 *       prolongation stencil needs.
 *   <li>offset 0, neighbour coarser: the whole coarse interior, widened on receive by {@code
 *       nghost} coarse cells away from the block's position in its parent, where those extra sent
 *       cells land.
 * </ul>
 *
 * Prolongation and restriction of ghosts use the receive range in coarse space with half the
 * ghost width, the coarse ghosts that cover the fine ghosts.
 */
final class BoundaryIndices {
  private BoundaryIndices() {}

  /** Which slab of the block a range describes. */
  enum Range {
    /** The sender's interior cells next to the shared element. */
    SEND,
    /** The receiver's ghost cells across the shared element. */
    RECEIVE
  }

  /**
   * The index box of a boundary of {@code block} with neighbour {@code nb}.
   *
   * @param range send or receive side
   * @param prores whether the box is for prolongation or restriction (coarse space, half ghosts)
   * @param fluxAxis 0 for cell data; 1, 2 or 3 for the faces normal to that axis (flux correction)
   */
  static IndexBox calc(MeshBlock block, NeighborBlock nb, Range range, boolean prores,
      int fluxAxis) {
    int nghost = block.mesh().nghost();
    int[] nx = new int[3];
    boolean[] active = new boolean[3];
    long[] myL = new long[3];
    long[] nbL = new long[3];
    int[] offsets = new int[3];
    for (int axis = 0; axis < 3; axis++) {
      active[axis] = !block.region().isSymmetry(axis);
      nx[axis] = active[axis] ? block.region().nx(axis) : 1;
      myL[axis] = block.loc().l(axis);
      nbL[axis] = nb.originLoc().l(axis);
      offsets[axis] = nb.element().offset(axis);
    }
    return calc(nx, active, nghost, block.loc().level(), myL, nb.originLoc().level(), nbL,
        offsets, range, prores, fluxAxis);
  }

  /** The same from plain numbers, for tests; {@code nx} counts interior cells of a block. */
  static IndexBox calc(int[] nx, boolean[] active, int nghost, int myLevel, long[] myL,
      int nbLevel, long[] nbL, int[] offsets, Range range, boolean prores, int fluxAxis) {
    boolean coarseSpace = prores || nbLevel < myLevel;
    int interiorOffset = range == Range.SEND ? nghost : 0;
    int exteriorOffset = range == Range.RECEIVE ? nghost : 0;
    if (prores) {
      exteriorOffset /= 2;
    }
    int[] s = new int[3];
    int[] e = new int[3];
    for (int axis = 0; axis < 3; axis++) {
      if (!active[axis]) {
        continue; // s = e = 0: inactive axes have one cell and no ghosts
      }
      int cells = coarseSpace ? Math.max(1, nx[axis] / 2) : nx[axis];
      int start = nghost;
      int end = nghost + cells - 1;
      boolean faces = fluxAxis == axis + 1;
      if (faces) {
        end++; // faces of the interior run one past the last cell
      }
      boolean flux = fluxAxis != 0;
      if (offsets[axis] == 0) {
        s[axis] = start;
        e[axis] = end;
        if (myLevel < nbLevel) {
          // The finer neighbour covers only half of this axis.
          int neighborCells = nx[axis] / 2;
          int extra = cells - neighborCells;
          s[axis] += isOdd(nbL[axis]) ? extra - interiorOffset : 0;
          e[axis] -= isOdd(nbL[axis]) ? 0 : extra - interiorOffset;
        }
        if (myLevel > nbLevel) {
          s[axis] -= isOdd(myL[axis]) ? exteriorOffset : 0;
          e[axis] += isOdd(myL[axis]) ? 0 : exteriorOffset;
        }
      } else if (offsets[axis] > 0) {
        s[axis] = end + (flux ? 0 : 1 - interiorOffset);
        e[axis] = end + (flux ? 0 : exteriorOffset);
      } else {
        s[axis] = start - (flux ? 0 : exteriorOffset);
        e[axis] = start + (flux ? 0 : interiorOffset - 1);
      }
    }
    return new IndexBox(s[0], e[0], s[1], e[1], s[2], e[2]);
  }

  /** Parity that is right for negative logical coordinates too (periodic images). */
  private static boolean isOdd(long l) {
    return (l & 1L) == 1L;
  }
}
