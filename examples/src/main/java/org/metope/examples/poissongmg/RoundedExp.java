package org.metope.examples.poissongmg;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * {@code exp(x)} rounded to the nearest double, as the C library's {@code exp} returns it
 * (glibc's is correctly rounded in practice); Java's {@code Math.exp} and {@code StrictMath.exp}
 * may be one unit in the last place off, which changed 8 of the 4,096 exact values of the
 * {@code poisson_gmg} deck. Evaluated once per cell at set-up: a Taylor series in 40 digits of
 * {@code x / 2^s}, squared {@code s} times.
 */
final class RoundedExp {
  private static final MathContext DIGITS = new MathContext(40, RoundingMode.HALF_EVEN);
  private static final int HALVINGS = 12;

  private RoundedExp() {}

  static double exp(double x) {
    if (x == 0.0) {
      return 1.0;
    }
    BigDecimal scaled = new BigDecimal(x).divide(BigDecimal.valueOf(1L << HALVINGS), DIGITS);
    BigDecimal term = BigDecimal.ONE;
    BigDecimal sum = BigDecimal.ONE;
    for (int n = 1; n < 40; n++) {
      term = term.multiply(scaled, DIGITS).divide(BigDecimal.valueOf(n), DIGITS);
      sum = sum.add(term, DIGITS);
    }
    for (int s = 0; s < HALVINGS; s++) {
      sum = sum.multiply(sum, DIGITS);
    }
    return sum.doubleValue();
  }
}
