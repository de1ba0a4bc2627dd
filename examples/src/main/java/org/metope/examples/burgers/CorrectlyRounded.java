package org.metope.examples.burgers;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * {@code sin} and {@code cos} rounded correctly (to the double nearest the exact value), so that
 * the same arguments give the same bits as any other correctly rounded library. Parthenon's
 * initial state calls glibc's, which round correctly but for rare arguments within a few
 * thousandths of an ulp of a midpoint; {@link StrictMath}'s (fdlibm) are only within an ulp.
 * ({@code exp} is glibc's own algorithm, {@link org.metope.examples.libm.GlibcExp}.)
 *
 * <p>Each function first evaluates the value as a double-double (about 100 bits) and returns its
 * rounding when the error bound cannot straddle a midpoint between doubles (Ziv's test); otherwise,
 * or for arguments out of the fast range, it evaluates the value in {@link BigDecimal} to 110
 * digits, far more than the hardest cases of these functions on doubles need (about 120 bits, as
 * tabulated by Lefèvre and Muller), and rounds that.
 */
final class CorrectlyRounded {
  private static final MathContext WIDE = new MathContext(110, RoundingMode.HALF_EVEN);
  /** Series terms below this, relative to the first, are left out. */
  private static final BigDecimal NEGLIGIBLE = BigDecimal.ONE.movePointLeft(115);
  private static final double[] HALF_PI_PARTS = parts(piTo(80).divide(BigDecimal.valueOf(2)));
  /** {@code 1/n!} as double-doubles, {@code n = 0 .. 31}. */
  private static final DoubleDouble[] INVERSE_FACTORIAL = inverseFactorials(31);
  /** Relative error bound of the fast paths, well above their analysed ~2^-95. */
  private static final double FAST_RELATIVE_ERROR = 0x1p-90;
  /** Absolute error bound from reducing a sin/cos argument up to 2^20 by pi / 2 in three parts. */
  private static final double REDUCTION_ERROR = 0x1p-130;

  private CorrectlyRounded() {}

  /** sin x, correctly rounded. */
  static double sin(double x) {
    return sinCos(x, 0);
  }

  /** cos x, correctly rounded. */
  static double cos(double x) {
    return sinCos(x, 1);
  }

  /** sin x for {@code shift = 0}, cos x (sin of x + pi/2) for {@code shift = 1}. */
  private static double sinCos(double x, int shift) {
    if (x == 0.0) {
      return shift == 0 ? x : 1.0;
    }
    if (Math.abs(x) <= 0x1p20) {
      double k = Math.rint(x * (1.0 / HALF_PI_PARTS[0]));
      DoubleDouble r = DoubleDouble.of(x).minusProduct(k, HALF_PI_PARTS[0])
          .minusProduct(k, HALF_PI_PARTS[1]).plus(DoubleDouble.of(-k * HALF_PI_PARTS[2]));
      int quadrant = (int) (((long) k + shift) & 3);
      DoubleDouble z = r.times(r);
      DoubleDouble y = quadrant % 2 == 0 ? r.times(taylor(z.negated(), 1, 2, 29))
          : taylor(z.negated(), 0, 2, 30);
      y = quadrant >= 2 ? y.negated() : y;
      double error = FAST_RELATIVE_ERROR * Math.abs(y.hi()) + (k == 0 ? 0.0 : REDUCTION_ERROR);
      double rounded = round(y, error);
      if (!Double.isNaN(rounded)) {
        return rounded;
      }
    }
    return sinCosWide(x, shift);
  }

  /**
   * {@code sum_{m} t^m / (first + step m)!} over {@code first + step m <= last}, by Horner's rule:
   * {@code sin(r)/r} (first 1) and {@code cos r} (first 0) for {@code t = -r^2}, step 2.
   */
  private static DoubleDouble taylor(DoubleDouble t, int first, int step, int last) {
    int n = last - (last - first) % step;
    DoubleDouble sum = INVERSE_FACTORIAL[n];
    for (n -= step; n >= first; n -= step) {
      sum = sum.times(t).plus(INVERSE_FACTORIAL[n]);
    }
    return sum;
  }

  /**
   * The double nearest {@code y}'s exact value when every value within {@code error} of {@code
   * y.hi() + y.lo()} rounds to it; NaN when the bound reaches a midpoint between doubles.
   */
  private static double round(DoubleDouble y, double error) {
    double hi = y.hi();
    double up = Math.nextUp(hi) - hi;
    double down = hi - Math.nextDown(hi);
    return y.lo() + error < 0.5 * up && y.lo() - error > -0.5 * down ? hi : Double.NaN;
  }

  /** sin x ({@code shift = 0}) or cos x ({@code shift = 1}) from 110 digits. */
  static double sinCosWide(double x, int shift) {
    if (Double.isNaN(x) || Double.isInfinite(x)) {
      return Double.NaN;
    }
    BigDecimal exact = new BigDecimal(x);
    BigInteger k = exact.divide(Wide.HALF_PI, new MathContext(Math.max(1,
        exact.precision() - exact.scale()) + 10)).setScale(0, RoundingMode.HALF_EVEN)
        .toBigIntegerExact();
    BigDecimal r = exact.subtract(Wide.HALF_PI.multiply(new BigDecimal(k))).round(WIDE);
    int quadrant = k.add(BigInteger.valueOf(shift)).intValue() & 3;
    // sin r = sum (-1)^m r^(2m+1) / (2m+1)!, cos r = sum (-1)^m r^(2m) / (2m)!
    BigDecimal minusSquare = r.multiply(r, WIDE).negate();
    BigDecimal term = quadrant % 2 == 0 ? r : BigDecimal.ONE;
    BigDecimal sum = term;
    BigDecimal negligible = term.abs().multiply(NEGLIGIBLE);
    for (int n = quadrant % 2 == 0 ? 2 : 1; term.abs().compareTo(negligible) > 0; n += 2) {
      term = term.multiply(minusSquare).divide(BigDecimal.valueOf((long) n * (n + 1)), WIDE);
      sum = sum.add(term, WIDE);
    }
    return (quadrant >= 2 ? sum.negate() : sum).doubleValue();
  }

  /** Constants of the wide evaluation, computed on its first use. */
  private static final class Wide {
    /** pi / 2 to 450 digits: enough to reduce any double's argument. */
    static final BigDecimal HALF_PI = piTo(450).divide(BigDecimal.valueOf(2));
  }

  /** pi to {@code digits} digits by Machin's formula, 16 atan(1/5) - 4 atan(1/239). */
  private static BigDecimal piTo(int digits) {
    MathContext mc = new MathContext(digits + 10);
    BigDecimal pi = atanInverse(5, mc).multiply(BigDecimal.valueOf(16))
        .subtract(atanInverse(239, mc).multiply(BigDecimal.valueOf(4)));
    return pi.round(new MathContext(digits));
  }

  /** atan(1/n) = sum (-1)^m / ((2m+1) n^(2m+1)). */
  private static BigDecimal atanInverse(int n, MathContext mc) {
    BigDecimal power = BigDecimal.ONE.divide(BigDecimal.valueOf(n), mc);
    BigDecimal square = BigDecimal.valueOf((long) n * n);
    BigDecimal sum = power;
    BigDecimal threshold = BigDecimal.ONE.movePointLeft(mc.getPrecision() + 2);
    for (int m = 1; power.compareTo(threshold) > 0; m++) {
      power = power.divide(square, mc);
      BigDecimal term = power.divide(BigDecimal.valueOf(2L * m + 1), mc);
      sum = m % 2 == 1 ? sum.subtract(term, mc) : sum.add(term, mc);
    }
    return sum;
  }

  /** Three doubles whose exact sum is {@code v} to about 159 bits. */
  private static double[] parts(BigDecimal v) {
    double[] p = new double[3];
    BigDecimal rest = v;
    for (int n = 0; n < 3; n++) {
      p[n] = rest.doubleValue();
      rest = rest.subtract(new BigDecimal(p[n]));
    }
    return p;
  }

  private static DoubleDouble[] inverseFactorials(int last) {
    DoubleDouble[] table = new DoubleDouble[last + 1];
    BigDecimal factorial = BigDecimal.ONE;
    MathContext mc = new MathContext(60);
    for (int n = 0; n <= last; n++) {
      factorial = n == 0 ? factorial : factorial.multiply(BigDecimal.valueOf(n));
      BigDecimal inverse = BigDecimal.ONE.divide(factorial, mc);
      double hi = inverse.doubleValue();
      table[n] = new DoubleDouble(hi, inverse.subtract(new BigDecimal(hi)).doubleValue());
    }
    return table;
  }

  /**
   * An unevaluated sum {@code hi + lo} with {@code |lo| <= ulp(hi) / 2}: about 106 bits. The
   * operations are the classical error-free transformations (Knuth's two-sum, the product's error
   * by fused multiply-add).
   */
  record DoubleDouble(double hi, double lo) {
    static DoubleDouble of(double x) {
      return new DoubleDouble(x, 0.0);
    }

    DoubleDouble plus(DoubleDouble o) {
      double s = hi + o.hi;
      double v = s - hi;
      double e = (hi - (s - v)) + (o.hi - v);
      return normalized(s, e + lo + o.lo);
    }

    DoubleDouble times(DoubleDouble o) {
      double p = hi * o.hi;
      double e = Math.fma(hi, o.hi, -p);
      return normalized(p, e + (hi * o.lo + lo * o.hi));
    }

    /** This minus {@code a * b} (doubles), the product taken exactly. */
    DoubleDouble minusProduct(double a, double b) {
      double p = a * b;
      return plus(new DoubleDouble(-p, -Math.fma(a, b, -p)));
    }

    DoubleDouble negated() {
      return new DoubleDouble(-hi, -lo);
    }

    private static DoubleDouble normalized(double hi, double lo) {
      double s = hi + lo;
      return new DoubleDouble(s, lo - (s - hi));
    }
  }
}
