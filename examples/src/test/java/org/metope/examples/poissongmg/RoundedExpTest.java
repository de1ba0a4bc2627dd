package org.metope.examples.poissongmg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RoundedExp} against {@code exp} evaluated in 40 decimal digits and rounded once (an
 * independent oracle: a Taylor series of {@code x / 4096} in {@code BigDecimal}, squared 12
 * times), over the arguments {@code poisson_gmg} uses ({@code -10 r^2}, r up to 3) and random
 * ones; and, as a control, Java's {@code Math.exp} is not correctly rounded on them.
 */
class RoundedExpTest {
  private static final MathContext DIGITS = new MathContext(40, RoundingMode.HALF_EVEN);

  private static double oracle(double x) {
    BigDecimal scaled = new BigDecimal(x).divide(BigDecimal.valueOf(4096), DIGITS);
    BigDecimal term = BigDecimal.ONE;
    BigDecimal sum = BigDecimal.ONE;
    for (int n = 1; n < 30; n++) {
      term = term.multiply(scaled, DIGITS).divide(BigDecimal.valueOf(n), DIGITS);
      sum = sum.add(term, DIGITS);
    }
    for (int s = 0; s < 12; s++) {
      sum = sum.multiply(sum, DIGITS);
    }
    return sum.doubleValue();
  }

  @Test
  void givenTheDecksArgumentsAndRandomOnes_thenTheCorrectlyRoundedValue() {
    Random random = new Random(29);
    int mathExpOff = 0;
    for (int n = 0; n < 20000; n++) {
      double x = n % 2 == 0 ? -10.0 * Math.pow(random.nextDouble() * 3, 2)
          : -90.0 * random.nextDouble();
      double expected = oracle(x);
      assertEquals(expected, RoundedExp.exp(x), 0.0, "x=" + x);
      if (Math.exp(x) != expected) {
        mathExpOff++;
      }
    }
    assertTrue(mathExpOff > 0, "Math.exp was correctly rounded on every argument");
    assertEquals(1.0, RoundedExp.exp(0.0));
  }
}
