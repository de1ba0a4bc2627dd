package org.metope.examples.advection;

import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Params;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.tasking.TaskStatus;

/**
 * Donor-cell upwind fluxes of every field with fluxes (Parthenon's {@code CalculateFluxes} with
 * {@code DonorCellX1..X3}): on the face below cell {@code i} the left state is cell {@code i - 1}
 * and the right state cell {@code i}, and the flux is {@code left * vx} when {@code vx > 0}, else
 * {@code right * vx}. Faces covered: x1 faces {@code is .. ie + 1} of interior rows, x2 faces
 * {@code js .. je + 1} in 2D and 3D, x3 faces {@code ks .. ke + 1} in 3D.
 *
 * <p>With {@code v_const = false} the velocity is the cell field {@code v}, and the flux through a
 * face is {@code (vl > 0 ? ql vl : 0) + (vr < 0 ? qr vr : 0)} with {@code vl}, {@code vr} the left
 * and right values of the velocity component normal to the face.
 *
 * <p>Loops run on the flat arena with {@code i} innermost and the multiplications of Parthenon's
 * code.
 */
public final class AdvectionFluxes {
  private AdvectionFluxes() {}

  /** Computes the fluxes of every field with fluxes on every block of {@code md}. */
  public static TaskStatus calculateFluxes(MeshData md, int[] fields) {
    if (md.numBlocks() == 0) {
      return TaskStatus.COMPLETE;
    }
    Params params = md.block(0).mesh().packages().get(AdvectionPackage.NAME).params();
    double[] v = {params.getDouble("vx"), params.getDouble("vy"), params.getDouble("vz")};
    boolean vConst = params.getBoolean("v_const");
    int velocity = vConst ? -1 : md.state().fieldId("v");
    double[] a = md.data();
    int[] data = md.dataOffsets();
    int[] fluxes = md.fluxOffsets();
    ArenaLayout layout = md.layout();
    int ndim = layout.fluxDirections();
    int nb = md.numBlocks();
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
      int vOffset = vConst ? -1 : data[ArenaLayout.tableSlot(velocity, b, nb)];
      for (int f : fields) {
        int q = data[ArenaLayout.tableSlot(f, b, nb)];
        if (q < 0) {
          continue;
        }
        int ncomp = layout.numComponents(layout.dataInstance(f, md.container()));
        for (int dir = 1; dir <= ndim; dir++) {
          int flux = fluxes[ArenaLayout.fluxTableSlot(f, dir, b, nb)];
          for (int c = 0; c < ncomp; c++) {
            if (vConst) {
              constantVelocity(a, q + c * cs, flux + c * cs, v[dir - 1], dir, box, strides);
            } else {
              fieldVelocity(a, q + c * cs, flux + c * cs, vOffset + (dir - 1) * cs, dir, box,
                  strides);
            }
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
   * 1): component data at {@code q}, fluxes at {@code flux}. Shared with the sparse_advection
   * example, whose fields each have a velocity of their own.
   *
   * <p>For each k plane, one loop over the index range from the first face of the first row to
   * the last face of the last row, so that the JIT gets loops of hundreds of iterations instead
   * of rows of 16. The range also covers the faces of ghost columns between rows; their values
   * are never read (the divergence reads interior faces only).
   */
  public static void constantVelocity(double[] a, int q, int flux, double vel, int dir,
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
      scaledRange(a, flux + first, donor + first, last - first + 1, vel);
    }
  }

  /** {@code a[to + n] = a[from + n] * vel} for {@code n = 0 .. length - 1}. */
  private static void scaledRange(double[] a, int to, int from, int length, double vel) {
    for (int n = 0; n < length; n++) {
      a[to + n] = a[from + n] * vel;
    }
  }

  private static void fieldVelocity(double[] a, int q, int flux, int vel, int dir, int[] box,
      int[] strides) {
    final int js = strides[1];
    final int ks = strides[2];
    final int shift = strides[dir - 1];
    final int is = box[0];
    final int ie = dir == 1 ? box[1] + 1 : box[1];
    final int je = dir == 2 ? box[3] + 1 : box[3];
    final int ke = dir == 3 ? box[5] + 1 : box[5];
    for (int k = box[4]; k <= ke; k++) {
      for (int j = box[2]; j <= je; j++) {
        final int row = k * ks + j * js;
        for (int i = is; i <= ie; i++) {
          int right = row + i;
          int left = right - shift;
          double vl = a[vel + left];
          double vr = a[vel + right];
          double f = vl > 0.0 ? a[q + left] * vl : 0.0;
          f += vr < 0.0 ? a[q + right] * vr : 0.0;
          a[flux + right] = f;
        }
      }
    }
  }
}
