package org.metope.examples.diffusion;

import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.view.FieldView;
import org.metope.mesh.view.FluxView;
import org.metope.mesh.view.IndexBox;
import org.metope.mesh.view.ParFor;

/**
 * The diffusion package's flux function (Parthenon's {@code CalculateFluxes}): on every face of
 * the interior cells, Fick's law with a centred difference ({@link HeatEquation#faceFlux}). The
 * flux through the face below cell {@code i} along an axis sits between cells {@code i - 1} and
 * {@code i}, so an axis has faces {@code start .. end + 1}. Written on views: {@code u(b, 0, k,
 * j, i)} and its {@link FluxView} per direction, one {@link ParFor} per block and direction (the
 * cell width is the block's).
 */
final class DiffusionFluxes {
  private DiffusionFluxes() {}

  /** Fills the fluxes of {@code u} on every block of {@code md}. */
  static void calculateFluxes(MeshData md, int[] fields) {
    if (md.numBlocks() == 0) {
      return;
    }
    double kappa = DiffusionPackage.params(md).getDouble("kappa");
    int ndim = md.block(0).mesh().config().ndim();
    FieldView u = FieldView.withFluxes(md, "u");
    IndexBox interior = IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
    for (int dir = 1; dir <= ndim; dir++) {
      FluxView flux = u.fluxes(dir);
      IndexBox faces = interior.expand(dir, 0, 1);
      int di = dir == 1 ? 1 : 0;
      int dj = dir == 2 ? 1 : 0;
      int dk = dir == 3 ? 1 : 0;
      for (int b = 0; b < md.numBlocks(); b++) {
        double dx = md.block(b).coords().dx(dir - 1);
        ParFor.cells(b, b, faces, (bb, k, j, i) -> flux.set(bb, 0, k, j, i,
            HeatEquation.faceFlux(kappa, u.get(bb, 0, k - dk, j - dj, i - di),
                u.get(bb, 0, k, j, i), dx)));
      }
    }
  }
}
