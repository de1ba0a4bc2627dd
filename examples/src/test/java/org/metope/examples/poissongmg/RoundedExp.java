package org.metope.examples.poissongmg;

/**
 * {@code exp(x)} rounded to the nearest double: the control of {@link
 * org.metope.examples.libm.GlibcExp}, whose C library is not correctly rounded on two of the
 * refined {@code poisson_gmg} deck's arguments (Java's
 * {@code Math.exp} and {@code StrictMath.exp} are off on others). Evaluated in double-double
 * arithmetic (about 32 digits, exact products through {@code Math.fma}): {@code x = k ln2 + r}, a
 * Taylor series of {@code r / 256}, squared eight times, scaled by {@code 2^k}, then rounded
 * once. Its test checks it against a 40-digit decimal evaluation.
 */
final class RoundedExp {
  private static final double LN2_HI = 0.6931471805599453;
  private static final double LN2_LO = 2.3190468138462996e-17;
  private static final int SQUARINGS = 8;
  private static final int TERMS = 12;

  private RoundedExp() {}

  static double exp(double x) {
    if (x == 0.0) {
      return 1.0;
    }
    double k = Math.rint(x / LN2_HI);
    // r = x - k ln2 in double-double: k * LN2_HI exactly as hi + lo, then the rest.
    double p = k * LN2_HI;
    double pErr = Math.fma(k, LN2_HI, -p);
    double rHi = x - p;
    double rLo = twoDiffErr(x, p, rHi) - pErr - k * LN2_LO;
    double s = rHi + rLo;
    rLo = rLo - (s - rHi);
    rHi = s;
    double scale = 1.0 / (1 << SQUARINGS);
    rHi *= scale;
    rLo *= scale;
    // Taylor series 1 + r + r^2/2 + ... by Horner's rule in double-double.
    double sumHi = 1.0;
    double sumLo = 0.0;
    for (int n = TERMS; n >= 1; n--) {
      double[] t = mul(sumHi, sumLo, rHi, rLo);
      double[] q = divide(t[0], t[1], n);
      double[] a = add(1.0, 0.0, q[0], q[1]);
      sumHi = a[0];
      sumLo = a[1];
    }
    for (int i = 0; i < SQUARINGS; i++) {
      double[] sq = mul(sumHi, sumLo, sumHi, sumLo);
      sumHi = sq[0];
      sumLo = sq[1];
    }
    return Math.scalb(sumHi + sumLo, (int) k);
  }

  /** The rounding error of {@code a - b = d}. */
  private static double twoDiffErr(double a, double b, double d) {
    double bb = d - a;
    return (a - (d - bb)) - (b + bb);
  }

  private static double[] add(double aHi, double aLo, double bHi, double bLo) {
    double s = aHi + bHi;
    double bb = s - aHi;
    double e = (aHi - (s - bb)) + (bHi - bb) + aLo + bLo;
    double hi = s + e;
    return new double[] {hi, e - (hi - s)};
  }

  private static double[] mul(double aHi, double aLo, double bHi, double bLo) {
    double p = aHi * bHi;
    double e = Math.fma(aHi, bHi, -p) + (aHi * bLo + aLo * bHi);
    double hi = p + e;
    return new double[] {hi, e - (hi - p)};
  }

  private static double[] divide(double aHi, double aLo, double d) {
    double q = aHi / d;
    double rem = Math.fma(-q, d, aHi) + aLo;
    double lo = rem / d;
    double hi = q + lo;
    return new double[] {hi, lo - (hi - q)};
  }
}
