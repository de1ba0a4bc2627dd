package org.metope.examples.sparseadvection;

import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Params;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.tasking.TaskStatus;

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

  /** Computes the fluxes of {@code fields} (ids, all with fluxes) on every block of {@code md}. */
  static TaskStatus calculateFluxes(MeshData md, int[] fields) {
    int nb = md.numBlocks();
    if (nb == 0 || fields.length == 0) {
      return TaskStatus.COMPLETE;
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
            constantVelocity(a, q + c * cs, flux + c * cs, velocity[dir - 1][v],
                dir, box, strides);
          }
        }
      }
    }
    return TaskStatus.COMPLETE;
  }

  /**
   * Donor-cell fluxes of one component with a constant velocity {@code vel} through the {@code
   * dir} faces of the interior {@code box} ({@code is, ie, js, je, ks, ke}), in the arena {@code
   * a} with row and plane strides {@code strides[1]}, {@code strides[2]} ({@code strides[0]} is
   * 1): component data at {@code q}, fluxes at {@code flux}.
   *
   * <p>For each k plane, one loop over the index range from the first face of the first row to
   * the last face of the last row, so that the JIT gets loops of hundreds of iterations instead
   * of rows of 16. The range also covers the faces of ghost columns between rows; their values
   * are never read (the divergence reads interior faces only).
   */
  private static void constantVelocity(double[] a, int q, int flux, double vel, int dir,
      int[] box, int[] strides) {
    final int js = strides[1];
    final int ks = strides[2];
    final int shift = strides[dir - 1];
    final int ie = dir == 1 ? box[1] + 1 : box[1];
    final int je = dir == 2 ? box[3] + 1 : box[3];
    final int ke = dir == 3 ? box[5] + 1 : box[5];
    // Upwind: the donor is the cell below the face for positive velocity, the cell above else.
    final int donor = vel > 0.0 ? q - shift : q;
    for (int k = box[4]; k <= ke; k++) {
      final int first = k * ks + box[2] * js + box[0];
      final int last = k * ks + je * js + ie;
      for (int n = 0, length = last - first + 1; n < length; n++) {
        a[flux + first + n] = a[donor + first + n] * vel;
      }
    }
  }
}
