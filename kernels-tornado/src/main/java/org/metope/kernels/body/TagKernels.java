package org.metope.kernels.body;

/**
 * The bodies of the refinement measures, over the flat data arena: the range (smallest and
 * largest value) of a run of cells, and the built-in criteria's measure of one component of one
 * block over a box of cells (Parthenon's {@code derivative_order_1}, {@code derivative_order_2}
 * and {@code magnitude}). The JVM path (a package's refinement check, {@code
 * org.metope.amr.RefinementCriterion}) calls them per block on the host; the device launchers of
 * {@code org.metope.kernels.tornado.ResidentTasks} call them per entry of a {@link TagLaunch}: one
 * body, two launchers. Only the measures cross back from a device; the host turns them into tags.
 */
public final class TagKernels {
  /** The box measures: {@link #boxMeasure}'s {@code method}. */
  public static final int DERIVATIVE_1 = 1;
  public static final int DERIVATIVE_2 = 2;
  public static final int MAGNITUDE_GREATER = 3;
  public static final int MAGNITUDE_LESS = 4;
  /** Parthenon's {@code TINY_NUMBER}, which keeps relative differences finite. */
  public static final double TINY_NUMBER = 1.0e-20;

  private TagKernels() {}

  /**
   * The smallest and the largest of {@code a[first..first+length)} into {@code out[at]} and
   * {@code out[at + 1]}, starting from {@code Double.MAX_VALUE} and {@code -Double.MAX_VALUE};
   * NaN is never taken. Ranges of consecutive runs combine with the same comparisons to the
   * range of their concatenation, bit for bit.
   */
  public static void minMaxRun(double[] a, int first, int length, double[] out, int at) {
    double min = Double.MAX_VALUE;
    double max = -Double.MAX_VALUE;
    for (int n = first; n < first + length; n++) {
      min = a[n] < min ? a[n] : min;
      max = a[n] > max ? a[n] : max;
    }
    out[at] = min;
    out[at + 1] = max;
  }

  /**
   * A built-in criterion's measure of one component over cells {@code (k, j, i)} of {@code
   * ks..ke} x {@code js..je} x {@code is..ie}, cell {@code q[base + k kStride + j jStride + i]}:
   * for {@link #DERIVATIVE_1} and {@link #DERIVATIVE_2} the largest relative first or second
   * difference along the {@code ndim} active axes (0 for an empty box), for {@link
   * #MAGNITUDE_GREATER} the largest value, for {@link #MAGNITUDE_LESS} the largest negated value.
   *
   * <p>One loop nest for every method, the method chosen per cell: TornadoVM 5.2.1 compiled a
   * choice between two loop nests (the measure being the merge of their results) into OpenCL that
   * overwrote one nest's result with the other's uninitialised one at the merge.
   */
  public static double boxMeasure(double[] q, int base, int jStride, int kStride, int is,
      int ie, int js, int je, int ks, int ke, int ndim, int method) {
    final boolean magnitude = method == MAGNITUDE_GREATER || method == MAGNITUDE_LESS;
    final double sign = method == MAGNITUDE_LESS ? -1.0 : 1.0;
    final int order = method == DERIVATIVE_1 ? 1 : 2;
    double max = magnitude ? -Double.MAX_VALUE : 0.0;
    for (int k = ks; k <= ke; k++) {
      for (int j = js; j <= je; j++) {
        final int row = base + k * kStride + j * jStride;
        for (int i = is; i <= ie; i++) {
          final int c = row + i;
          if (magnitude) {
            double v = sign * q[c];
            max = v > max ? v : max;
          } else {
            max = larger(max, q, c, 1, order);
            if (ndim > 1) {
              max = larger(max, q, c, jStride, order);
            }
            if (ndim > 2) {
              max = larger(max, q, c, kStride, order);
            }
          }
        }
      }
    }
    return max;
  }

  /** {@code max} or, when larger, the difference at cell {@code c} along {@code stride}. */
  private static double larger(double max, double[] q, int c, int stride, int order) {
    double d = difference(q[c], q[c - stride], q[c + stride], order);
    return d > max ? d : max;
  }

  /**
   * Order 1: {@code 0.5 |qp - qm| / (|qc| + TINY)}; order 2: {@code |qavg - qc| / (|qavg| + |qc|
   * + TINY)} with {@code qavg = (qp + qm) / 2}.
   */
  public static double difference(double qc, double qm, double qp, int order) {
    if (order == 1) {
      double scale = Math.abs(qc);
      return 0.5 * Math.abs(qp - qm) / (scale + TINY_NUMBER);
    }
    double aqt = Math.abs(qc) + TINY_NUMBER;
    double qavg = 0.5 * (qp + qm);
    return Math.abs(qavg - qc) / (Math.abs(qavg) + aqt);
  }
}
