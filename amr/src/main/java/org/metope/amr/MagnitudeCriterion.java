package org.metope.amr;

import org.metope.kernels.body.TagKernels;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.geometry.IndexShape;

/**
 * Parthenon's {@code magnitude} criterion (added to Parthenon after the reference commit; the
 * semantics are those of its later {@code Refinement::Magnitude}): with {@code comparator =
 * greater_than} (the default) a block whose largest value over the bounds exceeds {@code
 * refine_tol} refines, and one whose largest value is below {@code derefine_tol} derefines; with
 * {@code less_than} the signs flip, so small values refine.
 */
final class MagnitudeCriterion extends RefinementCriterion {
  private final double sign;

  /**
   * @param greaterThan whether large values refine ({@code greater_than}) or small ones
   *     ({@code less_than})
   */
  MagnitudeCriterion(Settings settings, IndexShape cells, boolean greaterThan) {
    super(settings, cells);
    this.sign = greaterThan ? 1.0 : -1.0;
  }

  @Override
  int method() {
    return sign > 0.0 ? TagKernels.MAGNITUDE_GREATER : TagKernels.MAGNITUDE_LESS;
  }

  @Override
  int classify(double measure) {
    if (measure < sign * settings().derefineTol()) {
      return AmrTag.DEREFINE_VALUE;
    }
    if (measure > sign * settings().refineTol()) {
      return AmrTag.REFINE_VALUE;
    }
    return AmrTag.SAME_VALUE;
  }
}
