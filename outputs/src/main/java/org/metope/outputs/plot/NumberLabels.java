package org.metope.outputs.plot;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Tick positions at 1, 2 or 5 times a power of ten, and short labels for numbers. */
final class NumberLabels {
  private NumberLabels() {}

  /** Ticks at a "nice" step inside {@code [lo, hi]}, about {@code count} of them. */
  static List<Double> ticks(double lo, double hi, int count) {
    List<Double> ticks = new ArrayList<>();
    if (!(hi > lo) || !Double.isFinite(hi - lo)) {
      return ticks;
    }
    double step = niceStep((hi - lo) / count);
    long first = (long) Math.ceil(lo / step - 1e-9);
    for (long n = first; n * step <= hi + step * 1e-9; n++) {
      ticks.add(n == 0 ? 0.0 : n * step);
    }
    return ticks;
  }

  private static double niceStep(double raw) {
    double power = Math.pow(10, Math.floor(Math.log10(raw)));
    double mantissa = raw / power;
    double nice = mantissa < 1.5 ? 1 : mantissa < 3.5 ? 2 : mantissa < 7.5 ? 5 : 10;
    return nice * power;
  }

  /** A tick label: as few digits as show the value, e.g. {@code 0.25}, {@code -1}, {@code 2e-05}. */
  static String tick(double value) {
    if (value == 0) {
      return "0";
    }
    double magnitude = Math.abs(value);
    if (magnitude >= 1e-3 && magnitude < 1e5) {
      String s = new BigDecimal(String.format(Locale.ROOT, "%.6g", value)).stripTrailingZeros()
          .toPlainString();
      return s.equals("-0") ? "0" : s;
    }
    return scientific(value, 3);
  }

  /** A value with {@code digits} significant digits, e.g. the ends of a colour bar. */
  static String precise(double value, int digits) {
    if (value == 0 || !Double.isFinite(value)) {
      return value == 0 ? "0" : Double.toString(value);
    }
    double magnitude = Math.abs(value);
    if (magnitude >= 1e-3 && magnitude < 1e5) {
      return new BigDecimal(String.format(Locale.ROOT, "%." + digits + "g", value))
          .stripTrailingZeros().toPlainString();
    }
    return scientific(value, digits);
  }

  private static String scientific(double value, int digits) {
    String s = String.format(Locale.ROOT, "%." + (digits - 1) + "e", value);
    int e = s.indexOf('e');
    String mantissa = s.substring(0, e);
    if (mantissa.contains(".")) {
      mantissa = mantissa.replaceAll("0+$", "").replaceAll("\\.$", "");
    }
    int exponent = Integer.parseInt(s.substring(e + 1));
    return mantissa + "e" + exponent;
  }
}
