package org.metope.mesh;

import org.metope.kernels.table.BlockLayout;
import org.metope.kernels.table.BoundaryTableBuilder;
import org.metope.mesh.geometry.UniformCartesian;

/**
 * The fine side of a refinement row whose fine cells are a block's own (ghost prolongation and
 * restriction, and whole-block refinement in a remesh): the fine layout, where the fine index of
 * coarse index 0 lies ({@code -nghost} along every active axis: Parthenon's {@code ib.s - 2 *
 * cib.s}, both starting at {@code nghost}), and the positions of face 0 and the widths of the fine
 * and coarse cells. A {@code FINE} field's fine cells are the block's fine ones and its coarse
 * cells the block's own, as Parthenon's {@code f_cellbounds} and {@code cellbounds}.
 */
public final class FineSide {
  private FineSide() {}

  /**
   * Gives row {@code row} of {@code table} block {@code block}'s fine side: {@code fine} moved by
   * {@code fineOffset}, the origin and the coordinates. Allocates nothing.
   *
   * @param fineField whether the row's field is a {@code FINE} field
   * @param nghost the mesh's ghost cells
   */
  public static void place(BoundaryTableBuilder table, int row, MeshBlock block,
      boolean fineField, int nghost, BlockLayout fine, int fineOffset) {
    UniformCartesian coords = fineField ? block.fineCoords() : block.coords();
    UniformCartesian coarse = fineField ? block.coords() : coords.coarsened(2);
    table.fine(row, fine, fineOffset, origin(block, 0, nghost), origin(block, 1, nghost),
        origin(block, 2, nghost));
    for (int axis = 0; axis < 3; axis++) {
      table.coordinates(row, axis, coords.xf(axis, 0), coords.dx(axis), coarse.xf(axis, 0),
          coarse.dx(axis));
    }
  }

  private static int origin(MeshBlock block, int axis, int nghost) {
    return block.region().isSymmetry(axis) ? 0 : -nghost;
  }
}
