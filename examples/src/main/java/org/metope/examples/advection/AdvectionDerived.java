package org.metope.examples.advection;

import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.ResolvedState;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.view.FieldView;
import org.metope.mesh.view.IndexBox;
import org.metope.mesh.view.ParFor;

/**
 * The derived fields of the advection example, filled on every cell, ghosts included, when {@code
 * fill_derived} is set (Parthenon's {@code PreFill}, {@code SquareIt} and {@code PostFill}):
 *
 * <ul>
 *   <li>pre-fill (package {@code advection_app}): {@code one_minus_advected = 1 - advected};
 *   <li>fill ({@code advection_package}): {@code one_minus_advected_sq = one_minus_advected^2};
 *       with the {@code smooth_gaussian} profile, which is nowhere zero, it also fails the run if
 *       any cell of {@code advected}, ghosts included, is still zero, a check that every ghost
 *       cell was filled;
 *   <li>post-fill ({@code advection_app}): allocates the sparse fields 12 and 37 of {@code
 *       one_minus_sqrt_one_minus_advected_sq} and sets {@code _12 = 1 -
 *       sqrt(one_minus_advected_sq)} and {@code _37 = 1 - _12}.
 * </ul>
 *
 * Component {@code n} of each derived field follows component {@code n} of {@code advected}, for
 * the components both have (Parthenon loops over {@code advected}'s {@code vec_size} components
 * and indexes the derived fields, of {@code num_vars} components, with the same {@code n}).
 */
final class AdvectionDerived {
  private AdvectionDerived() {}

  /**
   * The example's {@code advection_app} package: no fields, and with {@code fillDerived} the pre-
   * and post-fill of the derived fields (what Parthenon's example registers in its {@code
   * ProcessPackages}; Parthenon registers them always, and they do nothing without {@code
   * fill_derived}, so a package without them is the same run, one that a device-resident backend
   * need not bring to the host for).
   */
  static StateDescriptor appPackage(boolean fillDerived) {
    StateDescriptor app = new StateDescriptor("advection_app");
    if (fillDerived) {
      app.setPreFillDerived(AdvectionDerived::preFill);
      app.setPostFillDerived(AdvectionDerived::postFill);
    }
    return app;
  }

  private static Params params(MeshData md) {
    return md.block(0).mesh().packages().get(AdvectionPackage.NAME).params();
  }

  static void preFill(MeshData md) {
    if (md.numBlocks() == 0 || !params(md).getBoolean("fill_derived")) {
      return;
    }
    ResolvedState s = md.state();
    apply(md, s.fieldId("advected"), s.fieldId("one_minus_advected"), Op.ONE_MINUS);
  }

  static void squareIt(MeshData md) {
    if (md.numBlocks() == 0) {
      return;
    }
    ResolvedState s = md.state();
    apply(md, s.fieldId("one_minus_advected"), s.fieldId("one_minus_advected_sq"), Op.SQUARE);
    if (params(md).getString("profile").equals("smooth_gaussian")) {
      requireNonZero(md, s.fieldId("advected"));
    }
  }

  static void postFill(MeshData md) {
    if (md.numBlocks() == 0 || !params(md).getBoolean("fill_derived")) {
      return;
    }
    ResolvedState s = md.state();
    int field12 = s.fieldId("one_minus_sqrt_one_minus_advected_sq_12");
    int field37 = s.fieldId("one_minus_sqrt_one_minus_advected_sq_37");
    FieldStorage storage = md.storage();
    for (int b = 0; b < md.numBlocks(); b++) {
      storage.allocateSparse(field12, md.blockIndex(b));
      storage.allocateSparse(field37, md.blockIndex(b));
    }
    apply(md, s.fieldId("one_minus_advected_sq"), field12, Op.ONE_MINUS_SQRT);
    apply(md, field12, field37, Op.ONE_MINUS);
  }

  /** What {@link #apply} computes from each input value. */
  private enum Op {
    ONE_MINUS, SQUARE, ONE_MINUS_SQRT
  }

  /** {@code out = op(in)} on every cell, ghosts included, of every component both fields have. */
  private static void apply(MeshData md, int in, int out, Op op) {
    FieldView from = FieldView.sparse(md, md.state().field(in).name());
    FieldView to = FieldView.sparse(md, md.state().field(out).name());
    int components = Math.min(from.numComponents(), to.numComponents());
    IndexBox cells = IndexBox.of(md.block(0).cellBounds(), IndexDomain.ENTIRE);
    for (int b = 0; b < md.numBlocks(); b++) {
      if (!from.isAllocated(b) || !to.isAllocated(b)) {
        continue;
      }
      for (int component = 0; component < components; component++) {
        final int n = component;
        switch (op) {
          case ONE_MINUS -> ParFor.cells(b, b, cells, (bb, k, j, i) ->
              to.set(bb, n, k, j, i, 1.0 - from.get(bb, n, k, j, i)));
          case SQUARE -> ParFor.cells(b, b, cells, (bb, k, j, i) ->
              to.set(bb, n, k, j, i, from.get(bb, n, k, j, i) * from.get(bb, n, k, j, i)));
          case ONE_MINUS_SQRT -> ParFor.cells(b, b, cells, (bb, k, j, i) ->
              to.set(bb, n, k, j, i, 1.0 - Math.sqrt(from.get(bb, n, k, j, i))));
        }
      }
    }
  }

  private static void requireNonZero(MeshData md, int field) {
    FieldView q = FieldView.of(md, md.state().field(field).name());
    IndexBox cells = IndexBox.of(md.block(0).cellBounds(), IndexDomain.ENTIRE);
    for (int b = 0; b < md.numBlocks(); b++) {
      for (int n = 0; n < q.numComponents(); n++) {
        for (int k = cells.k().s(); k <= cells.k().e(); k++) {
          for (int j = cells.j().s(); j <= cells.j().e(); j++) {
            for (int i = cells.i().s(); i <= cells.i().e(); i++) {
              if (q.get(b, n, k, j, i) == 0.0) {
                throw new IllegalStateException("Advected not properly initialized: advected is 0"
                    + " on block gid=" + md.block(b).gid() + " at (n, k, j, i)=(" + n + ", " + k
                    + ", " + j + ", " + i + ") though the smooth_gaussian profile is nowhere 0;"
                    + " some ghost cell was not filled");
              }
            }
          }
        }
      }
    }
  }
}
