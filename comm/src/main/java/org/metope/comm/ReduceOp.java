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

  /** {@code a op b} for longs. */
  public long apply(long a, long b) {
    return switch (this) {
      case SUM -> a + b;
      case MIN -> Math.min(a, b);
      case MAX -> Math.max(a, b);
    };
  }
}
