package org.metope.examples.diffusion;

import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexShape;

/**
 * The diffusion package's flux function (Parthenon's {@code CalculateFluxes}): on every face of
 * the interior cells, Fick's law with a centred difference ({@link HeatEquation#faceFlux}). The
 * face below cell {@code i} along an axis sits between cells {@code i - 1} and {@code i}, and its
 * flux has the cell's index in the face array, so an axis has faces {@code start .. end + 1}.
 */
final class DiffusionFluxes {
  private DiffusionFluxes() {}

  /** Fills the fluxes of {@code fields} (the field {@code u}) on every block of {@code md}. */
  static void calculateFluxes(MeshData md, int[] fields) {
    if (md.numBlocks() == 0) {
      return;
    }
    double kappa = DiffusionPackage.params(md).getDouble("kappa");
    int ndim = md.block(0).mesh().config().ndim();
    double[] a = md.data();
    for (int f : fields) {
      for (int b = 0; b < md.numBlocks(); b++) {
        for (int dir = 1; dir <= ndim; dir++) {
          axisFluxes(md, a, f, b, dir, kappa);
        }
      }
    }
  }

  /** The fluxes through the faces normal to axis {@code dir} (1, 2 or 3) of block {@code b}. */
  private static void axisFluxes(MeshData md, double[] a, int f, int b, int dir, double kappa) {
    IndexShape cells = md.block(b).cellBounds();
    double dx = md.block(b).coords().dx(dir - 1);
    int q = md.dataOffset(f, b);
    int flux = md.fluxOffset(f, dir, b);
    int origin = md.index(f, b, 0, 0, 0, 0);
    int shift = dir == 1 ? md.index(f, b, 0, 0, 0, 1) - origin
        : dir == 2 ? md.index(f, b, 0, 0, 1, 0) - origin : md.index(f, b, 0, 1, 0, 0) - origin;
    int ie = DiffusionPackage.end(cells, 0) + (dir == 1 ? 1 : 0);
    int je = DiffusionPackage.end(cells, 1) + (dir == 2 ? 1 : 0);
    int ke = DiffusionPackage.end(cells, 2) + (dir == 3 ? 1 : 0);
    for (int k = DiffusionPackage.start(cells, 2); k <= ke; k++) {
      for (int j = DiffusionPackage.start(cells, 1); j <= je; j++) {
        int row = md.index(f, b, 0, k, j, 0) - q;
        for (int i = DiffusionPackage.start(cells, 0); i <= ie; i++) {
          int n = row + i;
          a[flux + n] = HeatEquation.faceFlux(kappa, a[q + n - shift], a[q + n], dx);
        }
      }
    }
  }
}
