package org.metope.amr;

import org.metope.kernels.body.TagKernels;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.geometry.IndexShape;

/**
 * Parthenon's {@code derivative_order_1} and {@code derivative_order_2} criteria: the largest
 * relative first difference {@code 0.5 |q(i+1) - q(i-1)| / (|q(i)| + TINY)}, or relative second
 * difference {@code |qavg - q(i)| / (|qavg| + |q(i)| + TINY)} with {@code qavg = (q(i+1) +
 * q(i-1)) / 2}, over every active axis and every cell of the bounds. A block refines when it
 * exceeds {@code refine_tol}, else derefines when it is below {@code derefine_tol}.
 */
final class DerivativeCriterion extends RefinementCriterion {
  private final int order;

  /**
   * @param order 1 or 2
   */
  DerivativeCriterion(Settings settings, IndexShape cells, int order) {
    super(settings, cells);
    if (order != 1 && order != 2) {
      throw new IllegalArgumentException("derivative order=" + order + " must be 1 or 2");
    }
    this.order = order;
  }

  @Override
  int method() {
    return order == 1 ? TagKernels.DERIVATIVE_1 : TagKernels.DERIVATIVE_2;
  }

  @Override
  int classify(double measure) {
    if (measure > settings().refineTol()) {
      return AmrTag.REFINE_VALUE;
    }
    if (measure < settings().derefineTol()) {
      return AmrTag.DEREFINE_VALUE;
    }
    return AmrTag.SAME_VALUE;
  }
}
