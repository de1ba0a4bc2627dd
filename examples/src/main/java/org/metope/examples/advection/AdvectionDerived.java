package org.metope.examples.advection;

import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.ResolvedState;

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

  /** {@code out = op(in)} on every cell of every component both fields have. */
  private static void apply(MeshData md, int in, int out, Op op) {
    double[] a = md.data();
    int components = Math.min(md.layout().numComponents(instance(md, in)),
        md.layout().numComponents(instance(md, out)));
    int stride = md.layout().componentStride(instance(md, in));
    for (int b = 0; b < md.numBlocks(); b++) {
      if (!md.isAllocated(in, b) || !md.isAllocated(out, b)) {
        continue;
      }
      int from = md.dataOffset(in, b);
      int to = md.dataOffset(out, b);
      int length = components * stride;
      switch (op) {
        case ONE_MINUS -> {
          for (int n = 0; n < length; n++) {
            a[to + n] = 1.0 - a[from + n];
          }
        }
        case SQUARE -> {
          for (int n = 0; n < length; n++) {
            a[to + n] = a[from + n] * a[from + n];
          }
        }
        case ONE_MINUS_SQRT -> {
          for (int n = 0; n < length; n++) {
            a[to + n] = 1.0 - Math.sqrt(a[from + n]);
          }
        }
      }
    }
  }

  private static int instance(MeshData md, int field) {
    return md.layout().dataInstance(field, md.container());
  }

  private static void requireNonZero(MeshData md, int field) {
    double[] a = md.data();
    int length = md.layout().blockLength(instance(md, field));
    for (int b = 0; b < md.numBlocks(); b++) {
      int from = md.dataOffset(field, b);
      for (int n = 0; n < length; n++) {
        if (a[from + n] == 0.0) {
          throw new IllegalStateException("Advected not properly initialized: advected is 0 on"
              + " block gid=" + md.block(b).gid() + " at arena offset=" + n
              + " though the smooth_gaussian profile is nowhere 0; some ghost cell was not filled");
        }
      }
    }
  }
}
