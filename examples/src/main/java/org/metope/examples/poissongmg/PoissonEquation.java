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

  @Override
  public void apply(MeshData md, int x, int y) {
    int d = md.state().fieldId(PoissonGmgPackage.D);
    double[] a = md.data();
    int ndim = md.block(0).mesh().ndim();
    IndexBox box = IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
    for (int b = 0; b < md.numBlocks(); b++) {
      double dx1 = md.block(b).coords().dx(0);
      double dx2 = md.block(b).coords().dx(1);
      double dx3 = md.block(b).coords().dx(2);
      for (int k = box.k().s(); k <= box.k().e(); k++) {
        for (int j = box.j().s(); j <= box.j().e(); j++) {
          for (int i = box.i().s(); i <= box.i().e(); i++) {
            double u = a[md.index(x, b, 0, k, j, i)];
            double lower = a[md.index(d, b, 0, k, j, i)] / dx1
                * (a[md.index(x, b, 0, k, j, i - 1)] - u);
            double upper = a[md.index(d, b, 0, k, j, i + 1)] / dx1
                * (u - a[md.index(x, b, 0, k, j, i + 1)]);
            double out = -alpha * u;
            out += (lower - upper) / dx1;
            if (ndim > 1) {
              lower = a[md.index(d, b, 1, k, j, i)] * (a[md.index(x, b, 0, k, j - 1, i)] - u)
                  / dx2;
              upper = a[md.index(d, b, 1, k, j + 1, i)] * (u - a[md.index(x, b, 0, k, j + 1, i)])
                  / dx2;
              out += (lower - upper) / dx2;
            }
            if (ndim > 2) {
              lower = a[md.index(d, b, 2, k, j, i)] * (a[md.index(x, b, 0, k - 1, j, i)] - u)
                  / dx3;
              upper = zeroTopX3Flux && k == box.k().e() ? 0.0
                  : a[md.index(d, b, 2, k + 1, j, i)] * (u - a[md.index(x, b, 0, k + 1, j, i)])
                      / dx3;
              out += (lower - upper) / dx3;
            }
            a[md.index(y, b, 0, k, j, i)] = out;
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
    for (int b = 0; b < md.numBlocks(); b++) {
      double dx1 = md.block(b).coords().dx(0);
      double dx2 = md.block(b).coords().dx(1);
      double dx3 = md.block(b).coords().dx(2);
      for (int k = box.k().s(); k <= box.k().e(); k++) {
        for (int j = box.j().s(); j <= box.j().e(); j++) {
          for (int i = box.i().s(); i <= box.i().e(); i++) {
            double value = -(a[md.index(d, b, 0, k, j, i)] + a[md.index(d, b, 0, k, j, i + 1)])
                / (dx1 * dx1) - alpha;
            if (ndim > 1) {
              value -= (a[md.index(d, b, 1, k, j, i)] + a[md.index(d, b, 1, k, j + 1, i)])
                  / (dx2 * dx2);
            }
            if (ndim > 2) {
              value -= (a[md.index(d, b, 2, k, j, i)] + a[md.index(d, b, 2, k + 1, j, i)])
                  / (dx3 * dx3);
            }
            a[md.index(diag, b, 0, k, j, i)] = value;
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
    for (int k = axis == 2 ? lo : all.k().s(); k <= (axis == 2 ? hi : all.k().e()); k++) {
      for (int j = axis == 1 ? lo : all.j().s(); j <= (axis == 1 ? hi : all.j().e()); j++) {
        for (int i = axis == 0 ? lo : all.i().s(); i <= (axis == 0 ? hi : all.i().e()); i++) {
          int mk = axis == 2 ? mirrorSum - k : k;
          int mj = axis == 1 ? mirrorSum - j : j;
          int mi = axis == 0 ? mirrorSum - i : i;
          a[md.index(x, b, 0, k, j, i)] = 2.0 * 0.0 - a[md.index(x, b, 0, mk, mj, mi)];
        }
      }
    }
  }
}
