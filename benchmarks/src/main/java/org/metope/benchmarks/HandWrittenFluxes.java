package org.metope.benchmarks;

import org.metope.examples.advection.AdvectionPackage;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Params;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.update.DonorCell;
import org.metope.tasking.TaskStatus;

/**
 * The advection example's flux kernel as it was written by hand on arena offsets before the views
 * ({@code AdvectionFluxes} up to the change that moved it onto {@link
 * org.metope.mesh.view.VariablePack} and {@link org.metope.mesh.view.ParFor}), kept unchanged as
 * the reference the view kernel is measured against ({@link FluxKernelBenchmark}) and checked bit
 * for bit against ({@code FluxKernelBitsTest}). The constant-velocity loop is {@link
 * DonorCell#constantVelocity}, one index range per k plane, ghost columns between rows included.
 */
public final class HandWrittenFluxes {
  private HandWrittenFluxes() {}

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
              DonorCell.constantVelocity(a, q + c * cs, flux + c * cs, v[dir - 1], dir, box,
                  strides);
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
