package org.metope.outputs;

import java.math.BigInteger;

/**
 * The first {@code p} significant decimal digits of a positive double, rounded half-to-even from
 * its exact binary value, in integer arithmetic: {@code v = m 2^q} with a 53-bit {@code m}, so
 * {@code v 10^s} is {@code m 5^s 2^(q+s)} (a 128-bit product shifted) for {@code s >= 0} and {@code
 * m 2^(q-s') / 5^s'} (a 64-bit division) for {@code s = -s' < 0}, and the bits shifted out or the
 * remainder decide the rounding exactly.
 *
 * <p>This is what {@code BigDecimal}'s exact rounding gives, without its allocations and its
 * long divisions: a status line per cycle formats seven numbers, and in a short run that work
 * stays in the interpreter. Where the shifts or the divisor do not fit in 64 bits (exponents
 * beyond about {@code 10^±22} from the digits kept), {@link #exponent} says so and the caller falls
 * back to the same rounding in {@code BigInteger} arithmetic ({@link #exponentExact}, {@link
 * #roundScaledExact}). Not {@code BigDecimal}: on JDK 25 its class initialisation computes
 * {@code 5^65536}, about 20 ms of one CPU in a cold JVM, the first time a history value needs it.
 */
final class DecimalDigits {
  /** 5^0 .. 5^27: below 2^63. */
  private static final long[] POW5 = new long[28];
  /** 10^0 .. 10^18. */
  private static final long[] POW10 = new long[19];

  static {
    POW5[0] = 1;
    for (int i = 1; i < POW5.length; i++) {
      POW5[i] = 5 * POW5[i - 1];
    }
    POW10[0] = 1;
    for (int i = 1; i < POW10.length; i++) {
      POW10[i] = 10 * POW10[i - 1];
    }
  }

  /** Returned by {@link #roundScaled} when 64-bit arithmetic cannot give the digits. */
  static final long UNSUPPORTED = -1;
  /** Returned by {@link #exponent} when 64-bit arithmetic cannot give the digits. */
  static final int UNSUPPORTED_EXPONENT = Integer.MIN_VALUE;

  private DecimalDigits() {}

  /**
   * The decimal exponent {@code e} of {@code v} rounded to {@code p} significant digits, for which
   * {@code roundScaled(v, p - 1 - e)} gives the {@code p} digits;
   * {@link #UNSUPPORTED_EXPONENT} where the arithmetic does not reach.
   *
   * @param v a finite value {@code > 0}
   * @param p significant digits, 1 to 18
   */
  static int exponent(double v, int p) {
    int e = (int) Math.floor(Math.log10(v));
    for (int attempt = 0; attempt < 3; attempt++) {
      long whole = scaled(v, p - 1 - e, false);
      if (whole == UNSUPPORTED) {
        return UNSUPPORTED_EXPONENT;
      }
      if (whole >= POW10[p]) {
        e++;
      } else if (whole < POW10[p - 1]) {
        e--;
      } else {
        // Rounding up from 99..9.5 carries into one more digit: one decade up.
        return roundScaled(v, p - 1 - e) == POW10[p] ? e + 1 : e;
      }
    }
    return UNSUPPORTED_EXPONENT;
  }

  /**
   * {@link #exponent} for any finite {@code v > 0} and {@code p >= 1}, subnormals included, in
   * {@code BigInteger} arithmetic.
   */
  static int exponentExact(double v, int p) {
    BigInteger low = BigInteger.TEN.pow(p - 1);
    BigInteger high = low.multiply(BigInteger.TEN);
    int e = (int) Math.floor(Math.log10(v));
    while (true) {
      BigInteger whole = exact(v, p - 1 - e, false);
      if (whole.compareTo(high) >= 0) {
        e++;
      } else if (whole.compareTo(low) < 0) {
        e--;
      } else {
        return exact(v, p - 1 - e, true).equals(high) ? e + 1 : e;
      }
    }
  }

  /** {@code v 10^s} rounded half-to-even to an integer, for any finite {@code v >= 0}. */
  static BigInteger roundScaledExact(double v, int s) {
    return exact(v, s, true);
  }

  /** {@code v 10^s} rounded half-to-even ({@code round}) or down: {@code m 5^s 2^(q+s)}. */
  private static BigInteger exact(double v, int s, boolean round) {
    long bits = Double.doubleToRawLongBits(v);
    int biased = (int) (bits >>> 52) & 0x7ff;
    long fraction = bits & ((1L << 52) - 1);
    BigInteger numerator = BigInteger.valueOf(biased == 0 ? fraction : fraction | (1L << 52));
    int twos = (biased == 0 ? -1074 : biased - 1075) + s;
    BigInteger denominator = BigInteger.ONE;
    BigInteger fives = BigInteger.valueOf(5).pow(Math.abs(s));
    if (s >= 0) {
      numerator = numerator.multiply(fives);
    } else {
      denominator = fives;
    }
    if (twos >= 0) {
      numerator = numerator.shiftLeft(twos);
    } else {
      denominator = denominator.shiftLeft(-twos);
    }
    BigInteger[] quotient = numerator.divideAndRemainder(denominator);
    if (!round) {
      return quotient[0];
    }
    int c = quotient[1].shiftLeft(1).compareTo(denominator);
    return c > 0 || (c == 0 && quotient[0].testBit(0)) ? quotient[0].add(BigInteger.ONE)
        : quotient[0];
  }

  /** {@code v 10^s} rounded half-to-even to an integer (below 2^62), or {@link #UNSUPPORTED}. */
  static long roundScaled(double v, int s) {
    return scaled(v, s, true);
  }

  /**
   * {@code v 10^s} rounded half-to-even ({@code round}) or down to an integer (below 2^62), or
   * {@link #UNSUPPORTED}.
   */
  private static long scaled(double v, int s, boolean round) {
    long bits = Double.doubleToRawLongBits(v);
    int biased = (int) (bits >>> 52) & 0x7ff;
    if (biased == 0 || biased == 0x7ff) {
      return UNSUPPORTED;
    }
    long m = (bits & ((1L << 52) - 1)) | (1L << 52);
    int q = biased - 1075;
    if (s >= 0) {
      return s < POW5.length
          ? shiftRound(Math.multiplyHigh(m, POW5[s]), m * POW5[s], q + s, round) : UNSUPPORTED;
    }
    int t = -s;
    if (t >= POW5.length) {
      return UNSUPPORTED;
    }
    int shift = q - t;
    if (shift >= 0) {
      return shift <= 10 ? divideRound(m << shift, POW5[t], round) : UNSUPPORTED;
    }
    return Long.numberOfLeadingZeros(POW5[t]) > -shift + 1
        ? divideRound(m, POW5[t] << -shift, round) : UNSUPPORTED;
  }

  /**
   * The 128-bit {@code hi:lo} times {@code 2^shift}, rounded half-to-even ({@code round}) or
   * down; the result must stay below 2^62.
   */
  private static long shiftRound(long hi, long lo, int shift, boolean round) {
    if (shift >= 0) {
      boolean fits = shift < 62 && hi == 0 && lo >>> (62 - shift) == 0;
      return fits ? lo << shift : UNSUPPORTED;
    }
    int k = -shift;
    if (k >= 126) {
      return UNSUPPORTED;
    }
    long quotient;
    int below;
    if (k < 64) {
      if (hi >>> k != 0 || (hi << (64 - k) | lo >>> k) >>> 62 != 0) {
        return UNSUPPORTED;
      }
      quotient = hi << (64 - k) | lo >>> k;
      below = compareToHalf(0, lo & ((1L << k) - 1), k);
    } else {
      quotient = hi >>> (k - 64);
      below = compareToHalf(hi & ((1L << (k - 64)) - 1), lo, k);
    }
    return round && (below > 0 || (below == 0 && (quotient & 1) != 0)) ? quotient + 1 : quotient;
  }

  /**
   * Compares the bits {@code remHi:remLo} shifted out by a right shift of {@code k} (1 to 125)
   * with half of the last bit kept, {@code 2^(k-1)}: the sign of the difference.
   */
  private static int compareToHalf(long remHi, long remLo, int k) {
    if (k <= 64) {
      long half = 1L << (k - 1);
      return remHi != 0 ? 1 : Long.compareUnsigned(remLo, half);
    }
    int c = Long.compareUnsigned(remHi, 1L << (k - 65));
    return c != 0 ? c : (remLo != 0 ? 1 : 0);
  }

  /** {@code numerator / divisor} rounded half-to-even ({@code round}) or down; both positive. */
  private static long divideRound(long numerator, long divisor, boolean round) {
    long quotient = numerator / divisor;
    if (!round) {
      return quotient;
    }
    long remainder = numerator - quotient * divisor;
    int c = Long.compare(remainder, divisor - remainder);
    return c > 0 || (c == 0 && (quotient & 1) != 0) ? quotient + 1 : quotient;
  }
}
