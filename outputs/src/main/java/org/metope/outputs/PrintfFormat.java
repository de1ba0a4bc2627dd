package org.metope.outputs;

/**
 * One C {@code printf} conversion of a {@code double} ({@code %e}, {@code %E}, {@code %f}, {@code
 * %F}, {@code %g}, {@code %G} with flags {@code -+ 0#}, a width and a precision), optionally with
 * literal text around it, formatted exactly as glibc does.
 *
 * <p>Java's {@link String#format} is not usable for this: it rounds the shortest decimal that
 * reads back as the double (so {@code %.16e} of {@code 0.45 / 64} gives {@code
 * 7.0312500000000000e-03} where C gives {@code 7.0312500000000002e-03}) and breaks ties upwards.
 * Here every value is rounded from its exact binary value, ties to even, like glibc, so history
 * files and status lines match Parthenon's character for character.
 *
 * <pre>{@code
 * PrintfFormat f = PrintfFormat.parse(" %12.5e");
 * f.format(0.013916015625);   // "  1.39160e-02"
 * PrintfFormat.scientific(0.45 / 64, 16);   // "7.0312500000000002e-03"
 * }</pre>
 */
public final class PrintfFormat {
  private final String prefix;
  private final String suffix;
  private final boolean leftAlign;
  private final boolean plusSign;
  private final boolean spaceSign;
  private final boolean zeroPad;
  private final boolean alternate;
  private final int width;
  private final int precision;
  private final char conversion;

  private PrintfFormat(String prefix, String suffix, String flags, int width, int precision,
      char conversion) {
    this.prefix = prefix;
    this.suffix = suffix;
    this.leftAlign = flags.indexOf('-') >= 0;
    this.plusSign = flags.indexOf('+') >= 0;
    this.spaceSign = flags.indexOf(' ') >= 0;
    this.zeroPad = flags.indexOf('0') >= 0;
    this.alternate = flags.indexOf('#') >= 0;
    this.width = width;
    this.precision = precision;
    this.conversion = conversion;
  }

  /**
   * Parses a format with exactly one floating-point conversion, e.g. {@code %12.5e} or {@code
   * "t=%.3f s"}; {@code %%} is a literal percent sign.
   *
   * @throws IllegalArgumentException when there is not exactly one supported conversion; the
   *     message says what is accepted
   */
  public static PrintfFormat parse(String format) {
    StringBuilder literal = new StringBuilder();
    String prefix = null;
    int i = 0;
    String flags = "";
    int width = 0;
    int precision = -1;
    char conversion = 0;
    while (i < format.length()) {
      char c = format.charAt(i);
      if (c != '%') {
        literal.append(c);
        i++;
        continue;
      }
      if (i + 1 < format.length() && format.charAt(i + 1) == '%') {
        literal.append('%');
        i += 2;
        continue;
      }
      if (prefix != null) {
        throw unsupported(format);
      }
      prefix = literal.toString();
      literal.setLength(0);
      int j = i + 1;
      while (j < format.length() && "-+ 0#".indexOf(format.charAt(j)) >= 0) {
        j++;
      }
      flags = format.substring(i + 1, j);
      int widthStart = j;
      while (j < format.length() && Character.isDigit(format.charAt(j))) {
        j++;
      }
      width = j > widthStart ? Integer.parseInt(format.substring(widthStart, j)) : 0;
      if (j < format.length() && format.charAt(j) == '.') {
        int precisionStart = ++j;
        while (j < format.length() && Character.isDigit(format.charAt(j))) {
          j++;
        }
        precision = j > precisionStart ? Integer.parseInt(format.substring(precisionStart, j)) : 0;
      }
      if (j >= format.length() || "eEfFgG".indexOf(format.charAt(j)) < 0) {
        throw unsupported(format);
      }
      conversion = format.charAt(j);
      i = j + 1;
    }
    if (prefix == null) {
      throw unsupported(format);
    }
    return new PrintfFormat(prefix, literal.toString(), flags, width, precision < 0 ? 6 : precision,
        conversion);
  }

  private static IllegalArgumentException unsupported(String format) {
    return new IllegalArgumentException("format=\"" + format + "\" must hold exactly one"
        + " conversion %[flags][width][.precision] of e, E, f, F, g or G");
  }

  /** The value formatted with the literal text around it. */
  public String format(double value) {
    String body = body(value);
    StringBuilder s = new StringBuilder(prefix.length() + Math.max(width, body.length() + 1)
        + suffix.length());
    s.append(prefix);
    boolean negative = value < 0 || (value == 0 && 1 / value < 0);
    String sign = negative && !Double.isNaN(value) ? "-" : plusSign ? "+" : spaceSign ? " " : "";
    int pad = width - sign.length() - body.length();
    boolean finite = !Double.isNaN(value) && !Double.isInfinite(value);
    if (pad > 0 && !leftAlign && !(zeroPad && finite)) {
      s.append(" ".repeat(pad));
    }
    s.append(sign);
    if (pad > 0 && !leftAlign && zeroPad && finite) {
      s.append("0".repeat(pad));
    }
    s.append(body);
    if (pad > 0 && leftAlign) {
      s.append(" ".repeat(pad));
    }
    return s.append(suffix).toString();
  }

  /** The digits, point and exponent of {@code |value|}, without sign or padding. */
  private String body(double value) {
    boolean upper = Character.isUpperCase(conversion);
    if (Double.isNaN(value)) {
      return upper ? "NAN" : "nan";
    }
    if (Double.isInfinite(value)) {
      return upper ? "INF" : "inf";
    }
    double magnitude = Math.abs(value);
    String text = switch (Character.toLowerCase(conversion)) {
      case 'e' -> exponential(magnitude, precision, alternate);
      case 'f' -> fixed(magnitude, precision, alternate);
      default -> general(magnitude);
    };
    return upper ? text.toUpperCase(java.util.Locale.ROOT) : text;
  }

  private String general(double magnitude) {
    int p = precision == 0 ? 1 : precision;
    int exponent = magnitude == 0 ? 0 : decimalExponent(magnitude, p);
    String text = (exponent < p && exponent >= -4)
        ? fixed(magnitude, p - 1 - exponent, alternate)
        : exponential(magnitude, p - 1, alternate);
    return alternate ? text : stripZeros(text);
  }

  /** Removes trailing zeros of the fraction (and a bare point), keeping any exponent. */
  private static String stripZeros(String text) {
    int e = text.indexOf('e');
    String mantissa = e < 0 ? text : text.substring(0, e);
    String exponent = e < 0 ? "" : text.substring(e);
    if (mantissa.indexOf('.') >= 0) {
      int end = mantissa.length();
      while (mantissa.charAt(end - 1) == '0') {
        end--;
      }
      if (mantissa.charAt(end - 1) == '.') {
        end--;
      }
      mantissa = mantissa.substring(0, end);
    }
    return mantissa + exponent;
  }

  /** The most significant digits {@link DecimalDigits} gives (in a {@code long}). */
  private static final int MAX_LONG_DIGITS = 18;

  /** The exponent of {@code magnitude} once rounded to {@code digits} significant digits. */
  private static int decimalExponent(double magnitude, int digits) {
    int exponent = digits <= MAX_LONG_DIGITS ? DecimalDigits.exponent(magnitude, digits)
        : DecimalDigits.UNSUPPORTED_EXPONENT;
    return exponent != DecimalDigits.UNSUPPORTED_EXPONENT ? exponent
        : DecimalDigits.exponentExact(magnitude, digits);
  }

  /**
   * C's {@code %Nd} ({@code zeroPad}: {@code %0Nd}) of {@code value}: at least {@code width}
   * characters, padded on the left with spaces or, after any minus sign, with zeros; ASCII digits
   * whatever the default locale. Status lines, history rows and file names call it every cycle or
   * output, where {@link String#format} would parse its pattern each time.
   */
  public static String decimal(long value, int width, boolean zeroPad) {
    String digits = Long.toString(value);
    int pad = width - digits.length();
    if (pad <= 0) {
      return digits;
    }
    StringBuilder s = new StringBuilder(width);
    int at = zeroPad && value < 0 ? 1 : 0;
    s.append(digits, 0, at);
    for (int i = 0; i < pad; i++) {
      s.append(zeroPad ? '0' : ' ');
    }
    return s.append(digits, at, digits.length()).toString();
  }

  /**
   * {@code %.Ne} of a non-negative finite value: {@code d.ddde+XX}, rounded half-to-even from the
   * exact binary value as glibc does.
   *
   * @param magnitude a finite value {@code >= 0}
   * @param digitsAfterPoint the precision N
   */
  public static String scientific(double magnitude, int digitsAfterPoint) {
    if (magnitude < 0 || Double.isNaN(magnitude) || Double.isInfinite(magnitude)) {
      return parse("%." + digitsAfterPoint + "e").format(magnitude);
    }
    return exponential(magnitude, digitsAfterPoint, false);
  }

  private static String exponential(double magnitude, int digitsAfterPoint, boolean point) {
    String digits;
    int exponent;
    if (magnitude == 0) {
      digits = "0".repeat(digitsAfterPoint + 1);
      exponent = 0;
    } else {
      exponent = decimalExponent(magnitude, digitsAfterPoint + 1);
      digits = scaledDigits(magnitude, digitsAfterPoint - exponent);
    }
    StringBuilder s = new StringBuilder(digitsAfterPoint + 8);
    s.append(digits.charAt(0));
    if (digitsAfterPoint > 0 || point) {
      s.append('.');
    }
    s.append(digits, 1, digits.length());
    s.append(exponent < 0 ? "e-" : "e+");
    int absExponent = Math.abs(exponent);
    if (absExponent < 10) {
      s.append('0');
    }
    return s.append(absExponent).toString();
  }

  /**
   * {@code %.Nf} of a non-negative finite value: the integer {@code magnitude 10^N}, rounded
   * half-to-even from the exact binary value ({@link DecimalDigits}), with the point put back.
   */
  private static String fixed(double magnitude, int digitsAfterPoint, boolean point) {
    String text = withPoint(magnitude == 0 ? "0" : scaledDigits(magnitude, digitsAfterPoint),
        digitsAfterPoint);
    return point && digitsAfterPoint == 0 ? text + "." : text;
  }

  /**
   * The digits of {@code magnitude 10^s} rounded half-to-even: in a {@code long} where it fits,
   * else in {@code BigInteger} arithmetic.
   */
  private static String scaledDigits(double magnitude, int s) {
    long scaled = DecimalDigits.roundScaled(magnitude, s);
    return scaled != DecimalDigits.UNSUPPORTED ? Long.toString(scaled)
        : DecimalDigits.roundScaledExact(magnitude, s).toString();
  }

  /** {@code digits / 10^digitsAfterPoint} written out: at least one digit before the point. */
  private static String withPoint(String digits, int digitsAfterPoint) {
    if (digitsAfterPoint == 0) {
      return digits;
    }
    StringBuilder s = new StringBuilder(digitsAfterPoint + 22);
    for (int pad = digitsAfterPoint + 1 - digits.length(); pad > 0; pad--) {
      s.append('0');
    }
    s.append(digits);
    return s.insert(s.length() - digitsAfterPoint, '.').toString();
  }
}
