package org.metope.amr;

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
  double measure(double[] q, int base, int jStride, int kStride, Bounds bnds) {
    double maxd = 0.0;
    final int ndim = bnds.ndim;
    for (int k = bnds.ks; k <= bnds.ke; k++) {
      for (int j = bnds.js; j <= bnds.je; j++) {
        final int row = base + k * kStride + j * jStride;
        for (int i = bnds.is; i <= bnds.ie; i++) {
          final int c = row + i;
          double d = difference(q[c], q[c - 1], q[c + 1]);
          maxd = d > maxd ? d : maxd;
          if (ndim > 1) {
            d = difference(q[c], q[c - jStride], q[c + jStride]);
            maxd = d > maxd ? d : maxd;
          }
          if (ndim > 2) {
            d = difference(q[c], q[c - kStride], q[c + kStride]);
            maxd = d > maxd ? d : maxd;
          }
        }
      }
    }
    return maxd;
  }

  private double difference(double qc, double qm, double qp) {
    if (order == 1) {
      double scale = Math.abs(qc);
      return 0.5 * Math.abs(qp - qm) / (scale + TINY_NUMBER);
    }
    double aqt = Math.abs(qc) + TINY_NUMBER;
    double qavg = 0.5 * (qp + qm);
    return Math.abs(qavg - qc) / (Math.abs(qavg) + aqt);
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
