package org.metope.examples.fieldloop;

import static org.metope.mesh.geometry.TopologicalElement.E1;
import static org.metope.mesh.geometry.TopologicalElement.E2;
import static org.metope.mesh.geometry.TopologicalElement.E3;
import static org.metope.mesh.geometry.TopologicalElement.F1;
import static org.metope.mesh.geometry.TopologicalElement.F2;
import static org.metope.mesh.geometry.TopologicalElement.F3;

import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.view.FieldView;

/**
 * The field loop's edge fluxes {@code v x B} (first-order upwind constrained transport, the
 * emf of Evans and Hawley with upwinded face values): on the edge along x3 at the lower corner of
 * cell {@code (k, j, i)}, {@code E3 = vx B2 - vy B1} with {@code B2} taken from the x2 face
 * upwind along x1 and {@code B1} from the x1 face upwind along x2; cyclically {@code E1 = vy B3 -
 * vz B2} and {@code E2 = vz B1 - vx B3}. The flux driver's Stokes update turns them into
 * {@code dB/dt = curl(E)}; on every edge of the interior, the block's surface included.
 */
final class FieldLoopFluxes {
  private FieldLoopFluxes() {}

  /** Fills the edge fluxes of {@code B} on every block of {@code md}. */
  static void calculateFluxes(MeshData md, int[] fields) {
    if (md.numBlocks() == 0) {
      return;
    }
    if (md.block(0).mesh().config().ndim() < 2) {
      throw new IllegalStateException("field_loop needs two or three dimensions (nx2 > 1)");
    }
    FieldLoopViews views = FieldLoopViews.of(md);
    double[] v = views.velocity();
    boolean threeD = md.block(0).mesh().config().ndim() == 3;
    int ux = v[0] > 0 ? 1 : 0;
    int uy = v[1] > 0 ? 1 : 0;
    int uz = threeD && v[2] > 0 ? 1 : 0;
    FieldView field = views.field();
    for (int b = 0; b < md.numBlocks(); b++) {
      IndexShape cells = md.block(b).cellBounds();
      int ke = FieldLoopPackage.end(cells, 2) + (threeD ? 1 : 0);
      for (int k = FieldLoopPackage.start(cells, 2); k <= ke; k++) {
        for (int j = FieldLoopPackage.start(cells, 1); j <= FieldLoopPackage.end(cells, 1) + 1;
            j++) {
          for (int i = FieldLoopPackage.start(cells, 0);
              i <= FieldLoopPackage.end(cells, 0) + 1; i++) {
            field.setFlux(E1, b, 0, k, j, i, v[1] * field.get(F3, b, 0, k, j - uy, i)
                - v[2] * field.get(F2, b, 0, k - uz, j, i));
            field.setFlux(E2, b, 0, k, j, i, v[2] * field.get(F1, b, 0, k - uz, j, i)
                - v[0] * field.get(F3, b, 0, k, j, i - ux));
            field.setFlux(E3, b, 0, k, j, i, v[0] * field.get(F2, b, 0, k, j, i - ux)
                - v[1] * field.get(F1, b, 0, k, j - uy, i));
          }
        }
      }
    }
  }
}
