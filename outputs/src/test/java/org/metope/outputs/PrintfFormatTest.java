package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Expected strings are C's: produced by CPython's {@code %} operator, which formats from the exact
 * binary value with ties to even, as glibc's printf does.
 */
class PrintfFormatTest {
  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
      "%.16e; 0.00703125; 7.0312500000000002e-03",
      "%.16e; 0.1; 1.0000000000000001e-01",
      "%.2e; 5250000.0; 5.25e+06",
      "%.1e; 0.125; 1.2e-01",
      "%.1e; 0.375; 3.8e-01",
      "%12.5e; 0.013916015625; ' 1.39160e-02'",
      "%12.5e; -7847.5109073548; -7.84751e+03",
      "%12.5e; -0.0; -0.00000e+00",
      "%.0f; 2.5; 2",
      "%.0f; 3.5; 4",
      "%.3f; 1.0005; 1.000",
      "%g; 1e-05; 1e-05",
      "%g; 123456789.0; 1.23457e+08",
      "%g; 0.0001; 0.0001",
      "%g; 100000.0; 100000",
      "%g; 1000000.0; 1e+06",
      "%g; 0.140625; 0.140625",
      "%g; 0.0; 0",
      "%-10.2e|; 1.5; '1.50e+00  |'",
      "%+.3e; 1.5; +1.500e+00",
      "%010.3f; -1.5; -00001.500",
      "%#.0e; 1.0; 1.e+00",
      "% .2E; 12345.678; ' 1.23E+04'",
      "%.3G; 1.234e-05; 1.23E-05",
      "%e; 0.2123709; 2.123709e-01",
      "%.17e; 1e300; 1.00000000000000005e+300",
      "%.2e; 9.995; 9.99e+00",
      "%.2e; 9.996; 1.00e+01"})
  void givenACFormat_thenTheTextIsGlibcs(String format, double value, String expected) {
    assertEquals(expected, PrintfFormat.parse(format).format(value));
  }

  @Test
  void givenNonFiniteValues_thenCsSpellingsPaddedWithBlanks() {
    assertEquals("         inf", PrintfFormat.parse("%12.5e").format(Double.POSITIVE_INFINITY));
    assertEquals("        -inf", PrintfFormat.parse("%012.5e").format(Double.NEGATIVE_INFINITY));
    assertEquals("NAN", PrintfFormat.parse("%E").format(Double.NaN));
  }

  @Test
  void givenTheScientificShortcut_thenItEqualsTheParsedFormat() {
    assertEquals("7.0312500000000002e-03", PrintfFormat.scientific(0.45 / 64, 16));
    assertEquals("-1.41e-01", PrintfFormat.scientific(-0.140625, 2));
    assertEquals("0.00e+00", PrintfFormat.scientific(0.0, 2));
  }

  /**
   * {@code %.Nf} and {@code %g}, which take {@link DecimalDigits}' integer path where it reaches,
   * against BigDecimal's exact rounding of the binary value (C's rule) over 40 decades, zero,
   * subnormals and precisions past what a {@code long} holds.
   */
  @Test
  void givenRandomValues_thenFixedAndGeneralEqualBigDecimalsExactRounding() {
    SplittableRandom random = new SplittableRandom(36);
    for (int n = 0; n < 20_000; n++) {
      double v = Math.scalb(1.0 + random.nextDouble(), random.nextInt(-66, 66));
      if (n % 7 == 0) {
        v = Math.rint(v * 1000) / 1000; // short decimals, where ties come from
      }
      checkFixedAndGeneral(v, random.nextInt(0, 24), random.nextInt(1, 20));
    }
    for (double v : new double[] {0.0, Double.MIN_VALUE, 0.5, 2.5, 0.05, 9.5, 99.5, 1e22,
        4.9e-324, 1.7976931348623157e308}) {
      for (int digits = 0; digits < 30; digits++) {
        checkFixedAndGeneral(v, digits, Math.max(1, digits));
      }
    }
  }

  private static void checkFixedAndGeneral(double v, int afterPoint, int significant) {
    String fixed = new BigDecimal(v).setScale(afterPoint, RoundingMode.HALF_EVEN)
        .toPlainString();
    assertEquals(fixed, PrintfFormat.parse("%." + afterPoint + "f").format(v),
        "v=" + v + ", %." + afterPoint + "f");
    assertEquals(generalByBigDecimal(v, significant),
        PrintfFormat.parse("%." + significant + "g").format(v), "v=" + v + ", %." + significant
        + "g");
  }

  /** C's {@code %.Pg} from BigDecimal alone: the rule of C11 7.21.6.1, trailing zeros removed. */
  private static String generalByBigDecimal(double v, int p) {
    int exponent = 0;
    if (v != 0) {
      BigDecimal rounded = new BigDecimal(v).round(new MathContext(p, RoundingMode.HALF_EVEN));
      exponent = rounded.precision() - 1 - rounded.scale();
    }
    if (exponent < p && exponent >= -4) {
      String text = new BigDecimal(v).setScale(p - 1 - exponent, RoundingMode.HALF_EVEN)
          .toPlainString();
      return text.indexOf('.') < 0 ? text : text.replaceAll("0+$", "").replaceAll("\\.$", "");
    }
    String digits = new BigDecimal(v).round(new MathContext(p, RoundingMode.HALF_EVEN))
        .unscaledValue().toString().replaceAll("0+$", "");
    String mantissa = digits.length() == 1 ? digits
        : digits.charAt(0) + "." + digits.substring(1);
    return mantissa + (exponent < 0 ? "e-" : "e+") + (Math.abs(exponent) < 10 ? "0" : "")
        + Math.abs(exponent);
  }

  /**
   * The times an XDMF file prints ({@code %g}) take the integer path, so a run need not start
   * BigDecimal: a fast path that always fell back would pass the test above and fail this one.
   */
  @Test
  void givenOutputTimes_thenTheIntegerPathServesFixed() {
    for (double t : new double[] {0.05, 0.15000000000000002, 1.0, 2.7182818, 1234.5}) {
      int exponent = DecimalDigits.exponent(t, 6);
      assertNotEquals(DecimalDigits.UNSUPPORTED_EXPONENT, exponent, "t=" + t);
      assertNotEquals(DecimalDigits.UNSUPPORTED, DecimalDigits.roundScaled(t, 5 - exponent),
          "t=" + t);
    }
    assertEquals("0.15", PrintfFormat.parse("%g").format(0.15000000000000002));
  }

  @Test
  void givenIntegers_thenCsPercentD() {
    // Expected strings from bash's printf (C's): "%12d" 42, "%05d" 7, "%05d" -42, "%3d" 12345,
    // "%05d" 123456, "%1d" 0, "%05d" -2147483648.
    assertEquals("          42", PrintfFormat.decimal(42, 12, false));
    assertEquals("00007", PrintfFormat.decimal(7, 5, true));
    assertEquals("-0042", PrintfFormat.decimal(-42, 5, true));
    assertEquals("12345", PrintfFormat.decimal(12345, 3, false));
    assertEquals("123456", PrintfFormat.decimal(123456, 5, true));
    assertEquals("0", PrintfFormat.decimal(0, 1, false));
    assertEquals("-2147483648", PrintfFormat.decimal(Integer.MIN_VALUE, 5, true));
  }

  @Test
  void givenADefaultLocaleWithOtherDigits_thenIntegersStayAscii() {
    java.util.Locale saved = java.util.Locale.getDefault();
    try {
      java.util.Locale.setDefault(java.util.Locale.forLanguageTag("ar-EG-u-nu-arab"));
      assertEquals("00042", PrintfFormat.decimal(42, 5, true));
    } finally {
      java.util.Locale.setDefault(saved);
    }
  }

  @Test
  void givenLiteralTextAroundTheConversion_thenItIsKept() {
    assertEquals("t = 1.50 s, 100%", PrintfFormat.parse("t = %.2f s, 100%%").format(1.5));
  }

  @Test
  void givenFormatsWithoutExactlyOneFloatConversion_thenMisuseNamesTheFormat() {
    for (String bad : new String[] {"%d", "no conversion", "%e %e", "%12.5", "%s"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> PrintfFormat.parse(bad));
      assertTrue(e.getMessage().startsWith("format=\"" + bad + "\""), e.getMessage());
    }
  }
}
