package org.metope.bvals;

import org.metope.kernels.table.IndexBox;
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
 *
 * <p>A {@code FINE} field's own space has twice the block's interior cells along each active axis
 * and the same ghost width; its coarse space is the block's own cells (Parthenon's {@code
 * f_cellbounds} and {@code cellbounds}): the same rules with the interior doubled.
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
   * Writes the index box of a boundary of {@code block} with neighbour {@code nb} into {@code
   * box} as {@code is, ie, js, je, ks, ke}: cache builds call this for every boundary, and
   * allocate nothing for it.
   *
   * @param fine whether the field is {@code FINE} (twice the block's interior cells)
   * @param range send or receive side
   * @param prores whether the box is for prolongation or restriction (coarse space, half ghosts)
   * @param fluxAxis 0 for cell data; 1, 2 or 3 for the faces normal to that axis (flux correction)
   */
  static void calc(MeshBlock block, NeighborBlock nb, boolean fine, Range range, boolean prores,
      int fluxAxis, int[] box) {
    int nghost = block.mesh().nghost();
    int myLevel = block.loc().level();
    int nbLevel = nb.originLoc().level();
    for (int axis = 0; axis < 3; axis++) {
      long r = axisRange(block, nb, axis, fine, nghost, myLevel, nbLevel, range, prores,
          fluxAxis);
      box[2 * axis] = first(r);
      box[2 * axis + 1] = last(r);
    }
  }

  private static long axisRange(MeshBlock block, NeighborBlock nb, int axis, boolean fine,
      int nghost, int myLevel, int nbLevel, Range range, boolean prores, int fluxAxis) {
    boolean active = !block.region().isSymmetry(axis);
    int nx = active ? (fine ? 2 : 1) * block.region().nx(axis) : 1;
    return axisRange(active, nx, nghost, myLevel,
        block.loc().l(axis), nbLevel, nb.originLoc().l(axis), nb.element().offset(axis), range,
        prores, fluxAxis, axis);
  }

  /** The same from plain numbers, for tests; {@code nx} counts interior cells of a block. */
  static IndexBox calc(int[] nx, boolean[] active, int nghost, int myLevel, long[] myL,
      int nbLevel, long[] nbL, int[] offsets, Range range, boolean prores, int fluxAxis) {
    long[] r = new long[3];
    for (int axis = 0; axis < 3; axis++) {
      r[axis] = axisRange(active[axis], nx[axis], nghost, myLevel, myL[axis], nbLevel, nbL[axis],
          offsets[axis], range, prores, fluxAxis, axis);
    }
    return new IndexBox(first(r[0]), last(r[0]), first(r[1]), last(r[1]), first(r[2]),
        last(r[2]));
  }

  /**
   * The box of a face, edge or node field's boundary, for all its elements at once, made in place
   * from {@code cellBox} ({@code is, ie, js, je, ks, ke}), the same boundary's cell box: one
   * longer at the top along every active axis.
   * Parthenon's {@code CalcIndices} ends each range of element {@code el} at the cell range's end
   * plus the element's offset along that axis, and starts it where the cell range starts, on
   * every level and in coarse space alike; the node box holds every element's.
   * Along an axis on which an element does not sit on cell boundaries the box ends one index past
   * the element's own range; the receiver does not write that layer (ElementRows'
   * masks).
   */
  static void forElements(int[] cellBox, MeshBlock block) {
    for (int axis = 0; axis < 3; axis++) {
      cellBox[2 * axis + 1] += block.region().isSymmetry(axis) ? 0 : 1;
    }
  }

  /** The range {@code s..e} along one axis: {@code s} in the high half, {@code e} in the low. */
  private static long axisRange(boolean active, int nx, int nghost, int myLevel, long myL,
      int nbLevel, long nbL, int offset, Range range, boolean prores, int fluxAxis, int axis) {
    if (!active) {
      return 0L; // s = e = 0: inactive axes have one cell and no ghosts
    }
    boolean coarseSpace = prores || nbLevel < myLevel;
    int interiorOffset = range == Range.SEND ? nghost : 0;
    int exteriorOffset = range == Range.RECEIVE ? nghost : 0;
    if (prores) {
      exteriorOffset /= 2;
    }
    int cells = coarseSpace ? Math.max(1, nx / 2) : nx;
    int start = nghost;
    int end = nghost + cells - 1;
    if (fluxAxis == axis + 1) {
      end++; // faces of the interior run one past the last cell
    }
    boolean flux = fluxAxis != 0;
    int s;
    int e;
    if (offset == 0) {
      s = start;
      e = end;
      if (myLevel < nbLevel) {
        // The finer neighbour covers only half of this axis.
        int extra = cells - nx / 2;
        s += isOdd(nbL) ? extra - interiorOffset : 0;
        e -= isOdd(nbL) ? 0 : extra - interiorOffset;
      }
      if (myLevel > nbLevel) {
        s -= isOdd(myL) ? exteriorOffset : 0;
        e += isOdd(myL) ? 0 : exteriorOffset;
      }
    } else if (offset > 0) {
      s = end + (flux ? 0 : 1 - interiorOffset);
      e = end + (flux ? 0 : exteriorOffset);
    } else {
      s = start - (flux ? 0 : exteriorOffset);
      e = start + (flux ? 0 : interiorOffset - 1);
    }
    return ((long) s << 32) | (e & 0xffffffffL);
  }

  private static int first(long range) {
    return (int) (range >> 32);
  }

  private static int last(long range) {
    return (int) range;
  }

  /** Parity that is right for negative logical coordinates too (periodic images). */
  private static boolean isOdd(long l) {
    return (l & 1L) == 1L;
  }
}
