package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link DecimalDigits} against {@code BigDecimal}'s exact rounding (the exact binary value
 * rounded half-to-even, as glibc's printf rounds), for every precision it serves: random values
 * over 60 decades, exact ties (binary fractions whose decimal expansion ends half-way at some
 * digit), and the neighbours of powers of ten where the exponent steps.
 */
class DecimalDigitsTest {

  /** {@code "DIGITS e EXPONENT"} from BigDecimal, or from DecimalDigits; null when unsupported. */
  private static String reference(double v, int p) {
    BigDecimal rounded = new BigDecimal(v).round(new MathContext(p, RoundingMode.HALF_EVEN));
    String unscaled = rounded.unscaledValue().toString();
    StringBuilder digits = new StringBuilder(unscaled);
    while (digits.length() < p) {
      digits.append('0');
    }
    int exponent = unscaled.length() - 1 - rounded.scale();
    return digits.substring(0, p) + "e" + exponent;
  }

  private static String fast(double v, int p) {
    int exponent = DecimalDigits.exponent(v, p);
    if (exponent == DecimalDigits.UNSUPPORTED_EXPONENT) {
      return null;
    }
    return DecimalDigits.roundScaled(v, p - 1 - exponent) + "e" + exponent;
  }

  /** Checks one value at every precision, both the digits and {@code PrintfFormat}'s text. */
  private static void check(double v) {
    for (int p = 1; p <= 18; p++) {
      String fast = fast(v, p);
      if (fast != null) {
        assertEquals(reference(v, p), fast, "v=" + v + " p=" + p);
      }
      String text = PrintfFormat.scientific(v, p - 1);
      String ref = reference(v, p);
      int e = Integer.parseInt(ref.substring(p + 1));
      String expected = ref.charAt(0) + (p > 1 ? "." + ref.substring(1, p) : "")
          + (e < 0 ? "e-" : "e+") + (Math.abs(e) < 10 ? "0" : "") + Math.abs(e);
      assertEquals(expected, text, "scientific v=" + v + " p=" + p);
    }
  }

  @Test
  void givenRandomValuesOverSixtyDecades_thenTheDigitsAreTheExactlyRoundedOnes() {
    SplittableRandom random = new SplittableRandom(36);
    for (int i = 0; i < 5_000; i++) {
      double v = Math.pow(10, random.nextDouble(-30, 30)) * random.nextDouble(1, 2);
      check(v);
    }
  }

  /**
   * The BigInteger path, which serves what 64 bits do not reach (a history's 1e-71, subnormals,
   * 1e308, 30 digits): every binary exponent of the doubles, at precisions 1 to 30.
   */
  @Test
  void givenAnyFiniteValue_thenTheExactPathGivesTheExactlyRoundedDigits() {
    SplittableRandom random = new SplittableRandom(37);
    for (int i = 0; i < 3_000; i++) {
      double v = Math.scalb(1.0 + random.nextDouble(), random.nextInt(-1074, 1024));
      if (i % 5 == 0) {
        v = Double.longBitsToDouble(random.nextLong(1, 1L << 52)); // subnormal
      }
      int p = random.nextInt(1, 31);
      int exponent = DecimalDigits.exponentExact(v, p);
      assertEquals(reference(v, p), DecimalDigits.roundScaledExact(v, p - 1 - exponent)
          + "e" + exponent, "v=" + v + " p=" + p);
    }
    assertEquals("100e1", DecimalDigits.roundScaledExact(9.996, 1) + "e"
        + DecimalDigits.exponentExact(9.996, 3));
    assertEquals("2", DecimalDigits.roundScaledExact(2.5, 0).toString());
    assertEquals("5", DecimalDigits.roundScaledExact(Double.MIN_VALUE, 324).toString());
  }

  @Test
  void givenExactTies_thenTheyRoundToEven() {
    // k / 2^j has a finite decimal expansion; at some precision its last kept digit is followed
    // by exactly 5 (0.125 to two digits: 1.2e-01; 0.375: 3.8e-01).
    for (long k = 1; k < 4096; k += 7) {
      for (int j = 0; j <= 24; j++) {
        check(Math.scalb((double) k, -j));
      }
    }
    assertEquals("12e-1", fast(0.125, 2));
    assertEquals("38e-1", fast(0.375, 2));
    assertEquals("2e0", fast(2.5, 1));
    assertEquals("4e0", fast(3.5, 1));
  }

  @Test
  void givenNeighboursOfPowersOfTen_thenTheExponentStepsWhereRoundingCarries() {
    for (int k = -25; k <= 25; k++) {
      double power = Double.parseDouble("1e" + k);
      for (double v : new double[] {power, Math.nextUp(power), Math.nextDown(power),
          9.5 * power, 9.95 * power, 9.995 * power, 9.9999999999999995 * power}) {
        check(v);
      }
    }
    assertEquals("100e1", fast(9.996, 3));
  }

  /**
   * The values of a status line and a history file (times, steps and rates from 1e-9 to 1e12,
   * 3 and 17 digits) take the integer path: a fast path that always fell back to BigDecimal
   * would pass the tests above and fail this one.
   */
  @Test
  void givenStatusLineValues_thenTheIntegerPathServesThem() {
    for (double v : new double[] {1e-9, 7.46e-4, 1.7578125e-3, 0.45 / 64, 0.98085937499999,
        2.03, 4.26e7, 5.85e6, 1e12}) {
      assertNotEquals(DecimalDigits.UNSUPPORTED_EXPONENT, DecimalDigits.exponent(v, 3), "v=" + v);
      assertNotEquals(DecimalDigits.UNSUPPORTED_EXPONENT, DecimalDigits.exponent(v, 17),
          "v=" + v);
      check(v);
    }
    assertEquals("70312500000000002e-3", fast(0.45 / 64, 17));
  }
}
