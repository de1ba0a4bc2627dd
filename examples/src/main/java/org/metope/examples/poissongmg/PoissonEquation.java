package org.metope.examples.poissongmg;

import org.metope.mesh.BoundaryFace;
import org.metope.mesh.BoundaryFlag;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.view.IndexBox;
import org.metope.solvers.MultigridOperator;

/**
 * The matrix of {@code poisson_gmg} (Parthenon's {@code PoissonEquation}): {@code A u = div(D
 * grad u) - alpha u} as a flux divergence, the flux through a lower face {@code D (u[-1] - u) /
 * dx} (along x1 {@code D / dx * (u[-1] - u)}, Parthenon's bracketing), with {@code D} the face
 * coefficient of field {@code D} (component {@code c} of a cell: its lower face along axis
 * {@code c}). Ghosts beyond the domain take Parthenon's {@code FixedFace} condition with value 0,
 * {@code ghost = 2 * 0 - mirror image}, so that the face value stays 0 on every multigrid level.
 * On a mesh without refinement there is no flux correction to make.
 *
 * <p>With {@code zeroTopX3Flux} the flux through the upper x3 face of a block's last layer of
 * cells is 0, as in Parthenon's {@code CalculateFluxes} (24.08), which writes that flux into the
 * x2 flux array and so leaves the x3 one at its initial zero: its 3D residual histories are
 * those of this operator.
 *
 * @param alpha {@code diagonal_alpha}
 * @param zeroTopX3Flux {@code parthenon_x3_flux}: reproduce Parthenon's 3D operator
 */
record PoissonEquation(double alpha, boolean zeroTopX3Flux) implements MultigridOperator {

  /**
   * Row by row: {@code u} of the row and of the rows beside it, {@code D} of the row's faces, each
   * from the row's first interior cell, {@code i} running along them. The flux through a cell's
   * upper x1 face is the next cell's lower one, the same expression, so it is computed once.
   */
  @Override
  public void apply(MeshData md, int x, int y) {
    int d = md.state().fieldId(PoissonGmgPackage.D);
    double[] a = md.data();
    int ndim = md.block(0).mesh().ndim();
    IndexBox box = IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
    int is = box.i().s();
    int n = box.i().e() - is;
    for (int b = 0; b < md.numBlocks(); b++) {
      double dx1 = md.block(b).coords().dx(0);
      double dx2 = md.block(b).coords().dx(1);
      double dx3 = md.block(b).coords().dx(2);
      for (int k = box.k().s(); k <= box.k().e(); k++) {
        boolean noTop = zeroTopX3Flux && k == box.k().e();
        for (int j = box.j().s(); j <= box.j().e(); j++) {
          int u = md.index(x, b, 0, k, j, is);
          int d1 = md.index(d, b, 0, k, j, is);
          int out = md.index(y, b, 0, k, j, is);
          int uSouth = ndim > 1 ? md.index(x, b, 0, k, j - 1, is) : 0;
          int uNorth = ndim > 1 ? md.index(x, b, 0, k, j + 1, is) : 0;
          int d2 = ndim > 1 ? md.index(d, b, 1, k, j, is) : 0;
          int d2North = ndim > 1 ? md.index(d, b, 1, k, j + 1, is) : 0;
          int uBelow = ndim > 2 ? md.index(x, b, 0, k - 1, j, is) : 0;
          int uAbove = ndim > 2 ? md.index(x, b, 0, k + 1, j, is) : 0;
          int d3 = ndim > 2 ? md.index(d, b, 2, k, j, is) : 0;
          int d3Above = ndim > 2 ? md.index(d, b, 2, k + 1, j, is) : 0;
          double x1Upper = a[d1] / dx1 * (a[u - 1] - a[u]);
          for (int i = 0; i <= n; i++) {
            double uc = a[u + i];
            double lower = x1Upper;
            x1Upper = a[d1 + i + 1] / dx1 * (uc - a[u + i + 1]);
            double value = -alpha * uc;
            value += (lower - x1Upper) / dx1;
            double upper;
            if (ndim > 1) {
              lower = a[d2 + i] * (a[uSouth + i] - uc) / dx2;
              upper = a[d2North + i] * (uc - a[uNorth + i]) / dx2;
              value += (lower - upper) / dx2;
            }
            if (ndim > 2) {
              lower = a[d3 + i] * (a[uBelow + i] - uc) / dx3;
              upper = noTop ? 0.0 : a[d3Above + i] * (uc - a[uAbove + i]) / dx3;
              value += (lower - upper) / dx3;
            }
            a[out + i] = value;
          }
        }
      }
    }
  }

  @Override
  public void diagonal(MeshData md, int diag) {
    int d = md.state().fieldId(PoissonGmgPackage.D);
    double[] a = md.data();
    int ndim = md.block(0).mesh().ndim();
    IndexBox box = IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
    int is = box.i().s();
    int n = box.i().e() - is;
    for (int b = 0; b < md.numBlocks(); b++) {
      double dx1 = md.block(b).coords().dx(0);
      double dx2 = md.block(b).coords().dx(1);
      double dx3 = md.block(b).coords().dx(2);
      for (int k = box.k().s(); k <= box.k().e(); k++) {
        for (int j = box.j().s(); j <= box.j().e(); j++) {
          int d1 = md.index(d, b, 0, k, j, is);
          int d2 = ndim > 1 ? md.index(d, b, 1, k, j, is) : 0;
          int d2North = ndim > 1 ? md.index(d, b, 1, k, j + 1, is) : 0;
          int d3 = ndim > 2 ? md.index(d, b, 2, k, j, is) : 0;
          int d3Above = ndim > 2 ? md.index(d, b, 2, k + 1, j, is) : 0;
          int out = md.index(diag, b, 0, k, j, is);
          for (int i = 0; i <= n; i++) {
            double value = -(a[d1 + i] + a[d1 + i + 1]) / (dx1 * dx1) - alpha;
            if (ndim > 1) {
              value -= (a[d2 + i] + a[d2North + i]) / (dx2 * dx2);
            }
            if (ndim > 2) {
              value -= (a[d3 + i] + a[d3Above + i]) / (dx3 * dx3);
            }
            a[out + i] = value;
          }
        }
      }
    }
  }

  /** Parthenon's {@code FixedFace} with value 0 on every physical face of every block. */
  @Override
  public void boundary(MeshData md, int x) {
    int ndim = md.block(0).mesh().ndim();
    IndexBox all = IndexBox.of(md.block(0).cellBounds(), IndexDomain.ENTIRE);
    IndexBox in = IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
    for (int b = 0; b < md.numBlocks(); b++) {
      MeshBlock block = md.block(b);
      for (int axis = 0; axis < ndim; axis++) {
        for (int side = 0; side < 2; side++) {
          if (block.boundaryFlag(BoundaryFace.of(axis, side == 1)) == BoundaryFlag.USER) {
            fixedFace(md, x, b, all, in, axis, side == 1);
          }
        }
      }
    }
  }

  /**
   * The ghost layers beyond one face: the ghost {@code g} layers out mirrors the interior layer
   * {@code g - 1} in, {@code ghost = 2 * 0 - mirror}, over the whole slab (corners included).
   */
  private static void fixedFace(MeshData md, int x, int b, IndexBox all, IndexBox in, int axis,
      boolean outer) {
    double[] a = md.data();
    int first = axis == 0 ? in.i().s() : axis == 1 ? in.j().s() : in.k().s();
    int last = axis == 0 ? in.i().e() : axis == 1 ? in.j().e() : in.k().e();
    int lo = outer ? last + 1 : (axis == 0 ? all.i().s() : axis == 1 ? all.j().s() : all.k().s());
    int hi = outer ? (axis == 0 ? all.i().e() : axis == 1 ? all.j().e() : all.k().e()) : first - 1;
    int mirrorSum = outer ? 2 * last + 1 : 2 * first - 1;
    int is = all.i().s();
    for (int k = axis == 2 ? lo : all.k().s(); k <= (axis == 2 ? hi : all.k().e()); k++) {
      for (int j = axis == 1 ? lo : all.j().s(); j <= (axis == 1 ? hi : all.j().e()); j++) {
        int row = md.index(x, b, 0, k, j, is) - is;
        int mirror = md.index(x, b, 0, axis == 2 ? mirrorSum - k : k,
            axis == 1 ? mirrorSum - j : j, is) - is;
        for (int i = axis == 0 ? lo : is; i <= (axis == 0 ? hi : all.i().e()); i++) {
          a[row + i] = 2.0 * 0.0 - a[mirror + (axis == 0 ? mirrorSum - i : i)];
        }
      }
    }
  }
}
