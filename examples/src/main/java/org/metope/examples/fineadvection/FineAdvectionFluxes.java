package org.metope.examples.fineadvection;

import static org.metope.examples.fineadvection.FineAdvectionPackage.end;
import static org.metope.examples.fineadvection.FineAdvectionPackage.start;

import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.view.FieldView;

/**
 * The fluxes of Parthenon's {@code fine_advection} example, operation for operation (its {@code
 * CalculateFluxes} and {@code CalculateVectorFluxes}):
 *
 * <ul>
 *   <li>{@code phi} and {@code phi_fine}: donor-cell fluxes {@code v u(upwind cell)} through the
 *       faces of their own interior, {@code phi_fine}'s on its fine faces;
 *   <li>{@code C} and {@code D}: on every edge along axis {@code e} of the interior, the average
 *       over the cells around the edge of the other field's {@code e} component at cell centres,
 *       times {@code +1} for {@code C} and {@code -1} for {@code D}, plus a diffusive part from
 *       the field's own transverse faces: half the jump of the x(e+1) face value across x(e+2),
 *       minus half the jump of the x(e+2) face value across x(e+1), each along an active axis
 *       only.
 * </ul>
 *
 * <p>Parthenon keeps the cell-centred reconstructions in scratch fields ({@code recon}, {@code
 * recon_f}); here they are computed where they are used, with the same sums in the same order.
 */
final class FineAdvectionFluxes {
  private static final TopologicalElement[] FACES = {
      TopologicalElement.F1, TopologicalElement.F2, TopologicalElement.F3};
  private static final TopologicalElement[] EDGES = {
      TopologicalElement.E1, TopologicalElement.E2, TopologicalElement.E3};

  private FineAdvectionFluxes() {}

  /**
   * The offsets of an edge flux along axis {@code e}: {@code unit} to the upper cell along {@code
   * e}, {@code around} over the cells around the edge, {@code jump1} and {@code jump2} across the
   * transverse faces; each zero along an inactive axis. {@code npoints} cells lie around an edge.
   */
  record EdgeStencil(int[] unit, int[] around, int[] jump1, int[] jump2, double npoints) {
    static EdgeStencil[] all(IndexShape cells) {
      EdgeStencil[] edges = new EdgeStencil[3];
      for (int e = 0; e < 3; e++) {
        int[] unit = new int[3];
        int[] around = new int[3];
        int[] jump1 = new int[3];
        int[] jump2 = new int[3];
        for (int a = 0; a < 3; a++) {
          int active = cells.isActive(a) ? 1 : 0;
          unit[a] = a == e ? active : 0;
          around[a] = a == e ? 0 : active;
          jump1[a] = a == (e + 2) % 3 ? active : 0;
          jump2[a] = a == (e + 1) % 3 ? active : 0;
        }
        edges[e] = new EdgeStencil(unit, around, jump1, jump2,
            (around[2] + 1) * (around[1] + 1) * (around[0] + 1));
      }
      return edges;
    }
  }

  /** The fluxes of every field of the package on every block of {@code md}. */
  static void calculateFluxes(MeshData md, int[] fields) {
    if (md.numBlocks() == 0) {
      return;
    }
    FineAdvectionViews views = FineAdvectionViews.of(md);
    double[] v = views.velocity();
    int ndim = md.block(0).mesh().config().ndim();
    scalar(md, views.phi(), false, v, ndim);
    scalar(md, views.phiFine(), true, v, ndim);
    for (int edge = 0; edge < 3; edge++) {
      vector(md, views.c(), views.d(), edge, views.edges()[edge], 1.0);
      vector(md, views.d(), views.c(), edge, views.edges()[edge], -1.0);
    }
  }

  /** Donor-cell fluxes of {@code u} through the faces normal to each active axis. */
  private static void scalar(MeshData md, FieldView u, boolean fine, double[] v, int ndim) {
    for (int axis = 0; axis < ndim; axis++) {
      TopologicalElement face = FACES[axis];
      int off = v[axis] > 0 ? -1 : 0;
      int ioff = axis == 0 ? off : 0;
      int joff = axis == 1 ? off : 0;
      int koff = axis == 2 ? off : 0;
      for (int b = 0; b < md.numBlocks(); b++) {
        IndexShape shape = fine ? md.block(b).fineCellBounds() : md.block(b).cellBounds();
        for (int k = start(shape, 2, face); k <= end(shape, 2, face); k++) {
          for (int j = start(shape, 1, face); j <= end(shape, 1, face); j++) {
            for (int i = start(shape, 0, face); i <= end(shape, 0, face); i++) {
              u.setFlux(b, axis + 1, 0, k, j, i,
                  v[axis] * u.get(b, 0, k + koff, j + joff, i + ioff));
            }
          }
        }
      }
    }
  }

  /**
   * The edge fluxes along axis {@code e} of face field {@code var}: {@code fac} times the average
   * of {@code other}'s cell-centred {@code e} component over the cells around each edge, plus the
   * diffusive jumps of {@code var}'s transverse faces.
   */
  private static void vector(MeshData md, FieldView var, FieldView other, int e,
      EdgeStencil stencil, double fac) {
    TopologicalElement edge = EDGES[e];
    TopologicalElement along = FACES[e];
    TopologicalElement f1 = FACES[(e + 1) % 3];
    TopologicalElement f2 = FACES[(e + 2) % 3];
    int[] unit = stencil.unit();
    int[] around = stencil.around();
    int[] jump1 = stencil.jump1();
    int[] jump2 = stencil.jump2();
    double npoints = stencil.npoints();
    for (int b = 0; b < md.numBlocks(); b++) {
      IndexShape shape = md.block(b).cellBounds();
      for (int k = start(shape, 2, edge); k <= end(shape, 2, edge); k++) {
        for (int j = start(shape, 1, edge); j <= end(shape, 1, edge); j++) {
          for (int i = start(shape, 0, edge); i <= end(shape, 0, edge); i++) {
            double flux = 0.0;
            for (int dk = -around[2]; dk < 1; dk++) {
              for (int dj = -around[1]; dj < 1; dj++) {
                for (int di = -around[0]; di < 1; di++) {
                  flux += 0.5 * (other.get(along, b, 0, k + dk, j + dj, i + di)
                      + other.get(along, b, 0, k + dk + unit[2], j + dj + unit[1],
                          i + di + unit[0]));
                }
              }
            }
            flux /= npoints;
            flux *= fac;
            flux += 0.5 * (var.get(f1, b, 0, k, j, i)
                - var.get(f1, b, 0, k - jump1[2], j - jump1[1], i - jump1[0]));
            flux -= 0.5 * (var.get(f2, b, 0, k, j, i)
                - var.get(f2, b, 0, k - jump2[2], j - jump2[1], i - jump2[0]));
            var.setFlux(edge, b, 0, k, j, i, flux);
          }
        }
      }
    }
  }
}
