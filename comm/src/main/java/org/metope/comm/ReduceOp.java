package org.metope.comm;

/**
 * Reductions of {@link Communicator#allreduce}. Every backend folds contributions in rank order,
 * {@code op(op(op(v0, v1), v2), ...)}, with these functions, so results are bit-identical across
 * backends. MIN and MAX follow {@link Math#min}/{@link Math#max}: NaN wins and -0.0 is below 0.0.
 */
public enum ReduceOp {
  /** Sum; for {@code long}, wraps around on overflow like Java arithmetic. */
  SUM,
  /** Minimum. */
  MIN,
  /** Maximum. */
  MAX;

  /** {@code a op b} for doubles. */
  public double apply(double a, double b) {
    return switch (this) {
      case SUM -> a + b;
      case MIN -> Math.min(a, b);
      case MAX -> Math.max(a, b);
    };
  }

  /**
   * {@code value} as a long whose reduction by this op ({@code MIN} or {@code MAX}) over ranks,
   * turned back by {@link #decode}, is the reduction of the doubles by {@link #apply(double,
   * double)}: the order of the longs is that of the doubles, -0.0 below 0.0, and NaN becomes the
   * long that always wins. So the extreme of a double can travel in one long reduction with counts
   * ({@link Communicator#allreduce(long[], ReduceOp[])}).
   *
   * @throws IllegalArgumentException for {@code SUM}, which no long can carry for doubles
   */
  public long encode(double value) {
    if (this == SUM) {
      throw new IllegalArgumentException("a double SUM cannot travel as a long: op=" + this);
    }
    if (Double.isNaN(value)) {
      return this == MIN ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    long bits = Double.doubleToRawLongBits(value);
    return bits ^ ((bits >> 63) & Long.MAX_VALUE);
  }

  /** The double that {@link #encode} turned into {@code encoded} (any NaN comes back as NaN). */
  public static double decode(long encoded) {
    if (encoded == Long.MIN_VALUE || encoded == Long.MAX_VALUE) {
      return Double.NaN;
    }
    return Double.longBitsToDouble(encoded ^ ((encoded >> 63) & Long.MAX_VALUE));
  }

  /** {@code a op b} for longs. */
  public long apply(long a, long b) {
    return switch (this) {
      case SUM -> a + b;
      case MIN -> Math.min(a, b);
      case MAX -> Math.max(a, b);
    };
  }
}
