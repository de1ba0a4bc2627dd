package org.metope.examples.fineadvection;

import static org.metope.examples.fineadvection.FineAdvectionPackage.active;
import static org.metope.examples.fineadvection.FineAdvectionPackage.end;
import static org.metope.examples.fineadvection.FineAdvectionPackage.fine;
import static org.metope.examples.fineadvection.FineAdvectionPackage.start;
import static org.metope.mesh.geometry.TopologicalElement.CC;
import static org.metope.mesh.geometry.TopologicalElement.F1;
import static org.metope.mesh.geometry.TopologicalElement.F2;
import static org.metope.mesh.geometry.TopologicalElement.F3;

import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.view.FieldView;

/**
 * The derived fields of Parthenon's {@code fine_advection} example (its {@code FillDerived}), on
 * the interior cells: {@code phi_fine_restricted}, the mean of each cell's fine cells; {@code
 * C_cc}, {@code D_cc}, the means of each pair of opposite faces; {@code divC}, {@code divD}, the
 * net flux of each face field out of the cell over its widths. Sums run in Parthenon's order.
 */
final class FineAdvectionDerived {
  private FineAdvectionDerived() {}

  /** Fills every derived field on every block of {@code md}. */
  static void fillDerived(MeshData md) {
    if (md.numBlocks() == 0) {
      return;
    }
    FineAdvectionViews v = FineAdvectionViews.of(md);
    for (int b = 0; b < md.numBlocks(); b++) {
      restrict(md, b, v.phiFine(), v.phiFineRestricted());
      centre(md, b, v.c(), v.cCc(), v.divC());
      centre(md, b, v.d(), v.dCc(), v.divD());
    }
  }

  /** The mean of the 2, 4 or 8 fine cells of each interior cell of block {@code b}. */
  private static void restrict(MeshData md, int b, FieldView phiFine, FieldView out) {
    IndexShape cells = md.block(b).cellBounds();
    int ni = active(cells, 0);
    int nj = active(cells, 1);
    int nk = active(cells, 2);
    for (int k = start(cells, 2, CC); k <= end(cells, 2, CC); k++) {
      for (int j = start(cells, 1, CC); j <= end(cells, 1, CC); j++) {
        for (int i = start(cells, 0, CC); i <= end(cells, 0, CC); i++) {
          int kf = fine(cells, 2, k);
          int jf = fine(cells, 1, j);
          int fi = fine(cells, 0, i);
          double sum = 0.0;
          double n = 0.0;
          for (int ioff = 0; ioff <= ni; ioff++) {
            for (int joff = 0; joff <= nj; joff++) {
              for (int koff = 0; koff <= nk; koff++) {
                n += 1.0;
                sum += phiFine.get(b, 0, kf + koff, jf + joff, fi + ioff);
              }
            }
          }
          out.set(b, 0, k, j, i, sum / n);
        }
      }
    }
  }

  /**
   * The cell-centred mean of face field {@code f} (three components) and its divergence, on the
   * interior cells of block {@code b}.
   */
  private static void centre(MeshData md, int b, FieldView f, FieldView mean, FieldView div) {
    IndexShape cells = md.block(b).cellBounds();
    UniformCartesian x = md.block(b).coords();
    int di = active(cells, 0);
    int dj = active(cells, 1);
    int dk = active(cells, 2);
    for (int k = start(cells, 2, CC); k <= end(cells, 2, CC); k++) {
      for (int j = start(cells, 1, CC); j <= end(cells, 1, CC); j++) {
        for (int i = start(cells, 0, CC); i <= end(cells, 0, CC); i++) {
          double f1 = f.get(F1, b, 0, k, j, i);
          double f1Up = f.get(F1, b, 0, k, j, i + di);
          double f2 = f.get(F2, b, 0, k, j, i);
          double f2Up = f.get(F2, b, 0, k, j + dj, i);
          double f3 = f.get(F3, b, 0, k, j, i);
          double f3Up = f.get(F3, b, 0, k + dk, j, i);
          mean.set(b, 0, k, j, i, 0.5 * (f1 + f1Up));
          mean.set(b, 1, k, j, i, 0.5 * (f2 + f2Up));
          mean.set(b, 2, k, j, i, 0.5 * (f3 + f3Up));
          div.set(b, 0, k, j, i, (f1Up - f1) / x.dx(0) + (f2Up - f2) / x.dx(1)
              + (f3Up - f3) / x.dx(2));
        }
      }
    }
  }
}
