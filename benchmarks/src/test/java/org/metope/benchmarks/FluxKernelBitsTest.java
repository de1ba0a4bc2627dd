package org.metope.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.view.FieldView;
import org.metope.mesh.view.FluxView;
import org.metope.mesh.view.IndexBox;

/**
 * The view kernel and the hand-written one write the same bits on every face the flux divergence
 * reads (interior faces of every direction), in 1D, 2D and 3D, with constant and field velocity.
 */
class FluxKernelBitsTest {

  /** Faces whose bits differ between a run of the hand-written kernel and one of the views. */
  private static long differingFaces(int ndim, boolean vConst, boolean perturbOneCell) {
    FluxMeshes.Case c = FluxMeshes.build(ndim, 8, 2, vConst, true, 42);
    MeshData md = c.md();
    double[] start = md.data().clone();
    HandWrittenFluxes.calculateFluxes(md, c.fluxFields());
    double[] hand = md.data().clone();
    System.arraycopy(start, 0, md.data(), 0, start.length);
    if (perturbOneCell) {
      FieldView advected = FieldView.of(md, "advected");
      advected.set(0, 0, ndim == 3 ? 6 : 0, ndim >= 2 ? 6 : 0, 6, 0.5 + advected.get(0, 0,
          ndim == 3 ? 6 : 0, ndim >= 2 ? 6 : 0, 6));
    }
    c.viewKernel().calculateFluxes(md, c.fluxFields());
    double[] views = md.data();
    long differing = 0;
    long compared = 0;
    IndexShape cells = md.block(0).cellBounds();
    for (int f : c.fluxFields()) {
      FieldView field = FieldView.withFluxes(md, md.state().field(f).name());
      for (int dir = 1; dir <= ndim; dir++) {
        FluxView flux = field.fluxes(dir);
        IndexBox faces = IndexBox.of(cells, IndexDomain.INTERIOR).expand(dir, 0, 1);
        for (int b = 0; b < md.numBlocks(); b++) {
          for (int n = 0; n < field.numComponents(); n++) {
            for (int k = faces.k().s(); k <= faces.k().e(); k++) {
              for (int j = faces.j().s(); j <= faces.j().e(); j++) {
                for (int i = faces.i().s(); i <= faces.i().e(); i++) {
                  int at = flux.index(b, n, k, j, i);
                  compared++;
                  if (Double.doubleToRawLongBits(hand[at])
                      != Double.doubleToRawLongBits(views[at])) {
                    differing++;
                  }
                }
              }
            }
          }
        }
      }
    }
    assertTrue(compared > 0);
    return differing;
  }

  @Test
  void givenTheSameData_thenBothKernelsWriteTheSameBits() {
    for (int ndim = 1; ndim <= 3; ndim++) {
      assertEquals(0, differingFaces(ndim, true, false), "constant velocity, ndim=" + ndim);
      assertEquals(0, differingFaces(ndim, false, false), "field velocity, ndim=" + ndim);
    }
  }

  /**
   * Negative control: one interior cell of {@code advected} changed before the view kernel runs.
   * With constant velocity a cell is the donor of exactly one face per direction (the face above
   * it where the velocity is positive, vx and vz here, the one below it where negative, vy), so
   * exactly {@code ndim} faces must differ.
   */
  @Test
  void givenOneCellChanged_thenExactlyItsDonatedFacesDiffer() {
    for (int ndim = 1; ndim <= 3; ndim++) {
      assertEquals(ndim, differingFaces(ndim, true, true), "ndim=" + ndim);
    }
  }
}
