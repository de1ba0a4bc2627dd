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
    double[] a = md.data();
    int ndim = md.block(0).mesh().ndim();
    IndexBox all = IndexBox.of(md.block(0).cellBounds(), IndexDomain.ENTIRE);
    IndexBox in = IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
    for (int b = 0; b < md.numBlocks(); b++) {
      MeshBlock block = md.block(b);
      for (int axis = 0; axis < ndim; axis++) {
        for (boolean outer : new boolean[] {false, true}) {
          if (block.boundaryFlag(BoundaryFace.of(axis, outer)) == BoundaryFlag.USER) {
            fixedFace(md, a, x, b, all, in, axis, outer);
          }
        }
      }
    }
  }

  /** Ghost {@code g} layers beyond the face mirrors interior layer {@code g - 1} inside it. */
  private static void fixedFace(MeshData md, double[] a, int x, int b, IndexBox all,
      IndexBox in, int axis, boolean outer) {
    int first = axis == 0 ? in.i().s() : axis == 1 ? in.j().s() : in.k().s();
    int last = axis == 0 ? in.i().e() : axis == 1 ? in.j().e() : in.k().e();
    int[] lo = {all.i().s(), all.j().s(), all.k().s()};
    int[] hi = {all.i().e(), all.j().e(), all.k().e()};
    if (outer) {
      lo[axis] = last + 1;
    } else {
      hi[axis] = first - 1;
    }
    int[] at = new int[3];
    for (int k = lo[2]; k <= hi[2]; k++) {
      for (int j = lo[1]; j <= hi[1]; j++) {
        for (int i = lo[0]; i <= hi[0]; i++) {
          at[0] = i;
          at[1] = j;
          at[2] = k;
          at[axis] = outer ? 2 * last + 1 - at[axis] : 2 * first - 1 - at[axis];
          a[md.index(x, b, 0, k, j, i)] = 2.0 * 0.0 - a[md.index(x, b, 0, at[2], at[1], at[0])];
        }
      }
    }
  }
}
