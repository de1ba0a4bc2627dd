package org.metope.examples.fineadvection;

import static org.metope.examples.fineadvection.FineAdvectionPackage.end;
import static org.metope.examples.fineadvection.FineAdvectionPackage.start;
import static org.metope.mesh.geometry.TopologicalElement.CC;
import static org.metope.mesh.geometry.TopologicalElement.F2;
import static org.metope.mesh.geometry.TopologicalElement.F3;

import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.view.FieldView;

/**
 * The initial state of Parthenon's {@code fine_advection} example (its {@code ProblemGenerator}),
 * on the interior of each block: {@code phi} by {@code profile} ({@code smooth_gaussian}: {@code 1
 * + exp(-100 r^2)}; {@code hard_sphere}: 1 inside {@code r < 0.15}, else 0; {@code block}: 0),
 * {@code r} the distance of the cell centre from the origin, and each of a cell's fine cells of
 * {@code phi_fine} the cell's value. The x2 faces of {@code C} and the x3 faces of {@code D} hold
 * {@code (A(x_lo) - A(x_hi)) / dx1}, {@code A} a tent of half-width {@code 0.2} in x1 and {@code
 * x_lo, x_hi} the x1 edges of the face; their other faces are 0.
 */
final class FineAdvectionProblem {
  private static final double HALF_WIDTH = 0.2;

  private final int profile;

  /** The generator of {@code profile} ({@code smooth_gaussian}, {@code hard_sphere}, {@code block}). */
  FineAdvectionProblem(String profile) {
    this.profile = profile.equals("smooth_gaussian") ? 1 : profile.equals("hard_sphere") ? 2 : 3;
  }

  /** Sets block {@code b}'s interior. */
  void generate(MeshData md, int b) {
    IndexShape cells = md.block(b).cellBounds();
    UniformCartesian x = md.block(b).coords();
    FieldView phi = FieldView.of(md, FineAdvectionPackage.PHI);
    FieldView fine = FieldView.of(md, FineAdvectionPackage.PHI_FINE);
    int ni = FineAdvectionPackage.active(cells, 0);
    int nj = FineAdvectionPackage.active(cells, 1);
    int nk = FineAdvectionPackage.active(cells, 2);
    for (int k = start(cells, 2, CC); k <= end(cells, 2, CC); k++) {
      for (int j = start(cells, 1, CC); j <= end(cells, 1, CC); j++) {
        for (int i = start(cells, 0, CC); i <= end(cells, 0, CC); i++) {
          int kf = FineAdvectionPackage.fine(cells, 2, k);
          int jf = FineAdvectionPackage.fine(cells, 1, j);
          int fi = FineAdvectionPackage.fine(cells, 0, i);
          double rsq = x.xc(0, i) * x.xc(0, i) + x.xc(1, j) * x.xc(1, j)
              + x.xc(2, k) * x.xc(2, k);
          double value = profile == 1 ? 1.0 + Math.exp(-100.0 * rsq)
              : profile == 2 ? (rsq < 0.15 * 0.15 ? 1.0 : 0.0) : 0.0;
          phi.set(b, 0, k, j, i, value);
          for (int ioff = 0; ioff <= ni; ioff++) {
            for (int joff = 0; joff <= nj; joff++) {
              for (int koff = 0; koff <= nk; koff++) {
                fine.set(b, 0, kf + koff, jf + joff, fi + ioff, value);
              }
            }
          }
        }
      }
    }
    tent(md, b, FieldView.of(md, FineAdvectionPackage.C), F2);
    tent(md, b, FieldView.of(md, FineAdvectionPackage.D), F3);
  }

  /** The tent's differences on the interior faces {@code face} of {@code field}. */
  private static void tent(MeshData md, int b, FieldView field, TopologicalElement face) {
    IndexShape cells = md.block(b).cellBounds();
    UniformCartesian x = md.block(b).coords();
    for (int k = start(cells, 2, face); k <= end(cells, 2, face); k++) {
      for (int j = start(cells, 1, face); j <= end(cells, 1, face); j++) {
        for (int i = start(cells, 0, face); i <= end(cells, 0, face); i++) {
          double xlo = x.xf(0, i);
          double xhi = x.xf(0, i + 1);
          double alo = Math.abs(xlo) < HALF_WIDTH
              ? sign(xlo, xhi) * (HALF_WIDTH - Math.abs(xlo)) : 0.0;
          double ahi = Math.abs(xhi) < HALF_WIDTH
              ? sign(xhi, xlo) * (HALF_WIDTH - Math.abs(xhi)) : 0.0;
          field.set(face, b, 0, k, j, i, (alo - ahi) / (xhi - xlo));
        }
      }
    }
  }

  /** The sign of {@code a}, or where {@code a} is 0 the sign of {@code b} (0 counts as negative). */
  private static double sign(double a, double b) {
    if (a == 0.0) {
      return b > 0.0 ? 1.0 : -1.0;
    }
    return a > 0.0 ? 1.0 : -1.0;
  }
}
