package org.metope.mesh.input;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Converts deck text to typed values the way Parthenon's {@code ParameterInput} does. Each method
 * returns {@code null} for text that is not a valid value; the caller turns that into an {@link
 * InputError} naming the key.
 *
 * <ul>
 *   <li>integer: decimal digits with an optional sign, or any real that is exactly an integer in
 *       32-bit range ({@code 64.0} and {@code 1e3} are accepted, {@code 2.5} is not);
 *   <li>real: C's {@code strtod} decimal syntax over the whole text ({@code 1}, {@code -2.5e-3},
 *       {@code .5}, {@code inf}, {@code nan}); Java-only suffixes such as {@code 1.0d} are
 *       rejected and values that overflow are rejected rather than becoming infinite;
 *   <li>boolean: {@code true} or {@code false} in any case, or {@code 1} or {@code 0}; like
 *       Parthenon, {@code yes} and {@code no} are not booleans;
 *   <li>list: comma-separated elements, each trimmed; an empty text is an empty list and one
 *       trailing comma is ignored.
 * </ul>
 */
final class ValueParser {
  private static final Pattern DIGITS = Pattern.compile("[+-]?[0-9]+");
  private static final Pattern DECIMAL =
      Pattern.compile("[+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?");
  private static final Pattern SPECIAL = Pattern.compile("[+-]?(?:inf|infinity|nan)");

  private ValueParser() {}

  static Integer parseInteger(String text) {
    String t = text.strip();
    if (DIGITS.matcher(t).matches()) {
      try {
        return Integer.parseInt(t);
      } catch (NumberFormatException outOfRange) {
        return null;
      }
    }
    Double real = parseReal(t);
    if (real == null || real != Math.rint(real)
        || real < Integer.MIN_VALUE || real > Integer.MAX_VALUE) {
      return null;
    }
    return (int) real.doubleValue();
  }

  static Double parseReal(String text) {
    String t = text.strip();
    if (DECIMAL.matcher(t).matches()) {
      double v = Double.parseDouble(t);
      return Double.isInfinite(v) ? null : v;
    }
    String lower = t.toLowerCase(Locale.ROOT);
    if (SPECIAL.matcher(lower).matches()) {
      if (lower.endsWith("nan")) {
        return Double.NaN;
      }
      return lower.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    return null;
  }

  static Boolean parseBoolean(String text) {
    String t = text.strip();
    if (t.equalsIgnoreCase("true") || t.equals("1")) {
      return Boolean.TRUE;
    }
    if (t.equalsIgnoreCase("false") || t.equals("0")) {
      return Boolean.FALSE;
    }
    return null;
  }

  static List<String> splitList(String text) {
    List<String> elements = new ArrayList<>();
    int start = 0;
    int comma;
    while ((comma = text.indexOf(',', start)) >= 0) {
      elements.add(text.substring(start, comma).strip());
      start = comma + 1;
    }
    String last = text.substring(start).strip();
    if (!last.isEmpty()) {
      elements.add(last);
    }
    return elements;
  }

  /**
   * Formats a real so that {@link #parseReal} gives back the same bits: Java's shortest
   * round-trip form, which C's {@code strtod} also reads.
   */
  static String formatReal(double value) {
    if (Double.isNaN(value)) {
      return "nan";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "inf" : "-inf";
    }
    return Double.toString(value);
  }
}
