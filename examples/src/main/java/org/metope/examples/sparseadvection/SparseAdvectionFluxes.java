package org.metope.examples.sparseadvection;

import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Params;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.update.DonorCell;

/**
 * Donor-cell upwind fluxes of the sparse_advection example (Parthenon's {@code
 * sparse_advection_package::CalculateFluxes}): every allocated field with fluxes moves with the
 * velocity of its sparse id modulo 4 ({@link SparseAdvectionPackage#velocityIndex}); x1 fluxes on
 * faces {@code is .. ie + 1} of interior rows, x2 fluxes on faces {@code js .. je + 1}. Fields
 * that are not allocated on a block have no fluxes there and are skipped, as Parthenon skips
 * them.
 */
final class SparseAdvectionFluxes {
  private SparseAdvectionFluxes() {}

  /**
   * Computes the fluxes of {@code fields} (ids, all with fluxes) on every block of {@code md}
   * (the package's flux function).
   */
  static void calculateFluxes(MeshData md, int[] fields) {
    int nb = md.numBlocks();
    if (nb == 0 || fields.length == 0) {
      return;
    }
    Params params = md.block(0).mesh().packages().get(SparseAdvectionPackage.NAME).params();
    double[][] velocity = {params.get("vx", double[].class), params.get("vy", double[].class)};
    double[] a = md.data();
    int[] data = md.dataOffsets();
    int[] fluxes = md.fluxOffsets();
    ArenaLayout layout = md.layout();
    IndexShape cells = md.block(0).cellBounds();
    int[] box = new int[6];
    for (int axis = 0; axis < 3; axis++) {
      box[2 * axis] = cells.start(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
      box[2 * axis + 1] = cells.end(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
    }
    int inst0 = layout.dataInstance(fields[0], md.container());
    int[] strides = {1, layout.jStride(inst0), layout.kStride(inst0)};
    int cs = layout.componentStride(inst0);
    for (int b = 0; b < nb; b++) {
      for (int f : fields) {
        int q = data[ArenaLayout.tableSlot(f, b, nb)];
        if (q < 0) {
          continue;
        }
        int v = SparseAdvectionPackage.velocityIndex(md.state().field(f));
        int ncomp = layout.numComponents(layout.dataInstance(f, md.container()));
        for (int dir = 1; dir <= 2; dir++) {
          int flux = fluxes[ArenaLayout.fluxTableSlot(f, dir, b, nb)];
          for (int c = 0; c < ncomp; c++) {
            DonorCell.constantVelocity(a, q + c * cs, flux + c * cs, velocity[dir - 1][v],
                dir, box, strides);
          }
        }
      }
    }
  }
}
