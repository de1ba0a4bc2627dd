package org.metope.examples.libm;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * {@code exp(x)} with the bits of the C library's {@code exp} that Parthenon's examples call:
 * glibc's (2.28 and later) table method, {@code x = k ln2 / 128 + r}, {@code exp(x) = 2^(k/128) (1
 * + tail + p(r))} with a degree-5 polynomial, in the variant glibc selects on x86-64 processors
 * with FMA (its products and sums fused as that build fuses them), or, with {@code fused = false},
 * the plain one. It is not correctly rounded, and the examples' initial states use it for that
 * reason: where glibc is one unit off, Parthenon's reference outputs carry glibc's value. On
 * {@code poisson_gmg}'s refined regression deck two arguments ({@code -17.01332092285156} and
 * {@code -15.138626098632812}) come out one unit in the last place below the nearest double, which
 * moves Parthenon's printed residuals from the 11th V-cycle on; on the burgers reference decks one
 * ({@code -0x1.77p-5}) comes out one unit below too. Arguments of magnitude 512 or more (the C
 * library's overflow and underflow paths, which no deck reaches) use {@link StrictMath#exp}.
 */
public final class GlibcExp {
  private static final int TABLE_BITS = 7;
  private static final int N = 1 << TABLE_BITS;
  private static final double INV_LN2_N = 0x1.71547652b82fep0 * N;
  private static final double NEG_LN2_HI_N = -0x1.62e42fefa0000p-8;
  private static final double NEG_LN2_LO_N = -0x1.cf79abc9e3b3ap-47;
  private static final double SHIFT = 0x1.8p52;
  private static final double C2 = 0x1.ffffffffffdbdp-2;
  private static final double C3 = 0x1.555555555543cp-3;
  private static final double C4 = 0x1.55555cf172b91p-5;
  private static final double C5 = 0x1.1111167a4d017p-7;
  /** {@code 2^(k/N) = H (1 + T)}: the bits of T, then those of H less {@code k 2^52 / N}. */
  private static final long[] TABLE = table();

  private GlibcExp() {}

  /** The FMA variant: what glibc returns on the x86-64 machines that made the references. */
  public static double exp(double x) {
    return exp(x, true);
  }

  /** {@code exp(x)} as glibc's FMA ({@code fused}) or plain build computes it. */
  public static double exp(double x, boolean fused) {
    double ax = Math.abs(x);
    if (ax < 0x1p-54) {
      return 1.0 + x;
    }
    if (!(ax < 512.0)) {
      return StrictMath.exp(x);
    }
    double kd = INV_LN2_N * x + SHIFT;
    long ki = Double.doubleToRawLongBits(kd);
    kd -= SHIFT;
    double r = fused ? Math.fma(kd, NEG_LN2_LO_N, Math.fma(kd, NEG_LN2_HI_N, x))
        : x + kd * NEG_LN2_HI_N + kd * NEG_LN2_LO_N;
    int idx = 2 * (int) (ki & (N - 1));
    double tail = Double.longBitsToDouble(TABLE[idx]);
    double scale = Double.longBitsToDouble(TABLE[idx + 1] + (ki << (52 - TABLE_BITS)));
    double r2 = r * r;
    if (fused) {
      double t = Math.fma(r2, Math.fma(r, C3, C2), tail + r);
      t = Math.fma(r2 * r2, Math.fma(r, C5, C4), t);
      return Math.fma(scale, t, scale);
    }
    double t = tail + r + r2 * (C2 + r * C3) + r2 * r2 * (C4 + r * C5);
    return scale + scale * t;
  }

  /**
   * {@code 2^(k/N)} for {@code k < N} in 40 digits ({@code exp(k ln2 / N)} by its Taylor series),
   * H its nearest double and T the rest relative to H, rounded once.
   */
  private static long[] table() {
    MathContext digits = new MathContext(40, RoundingMode.HALF_EVEN);
    BigDecimal ln2 = new BigDecimal("0.693147180559945309417232121458176568075500134360255");
    long[] out = new long[2 * N];
    for (int k = 0; k < N; k++) {
      BigDecimal x = ln2.multiply(BigDecimal.valueOf(k)).divide(BigDecimal.valueOf(N), digits);
      BigDecimal term = BigDecimal.ONE;
      BigDecimal value = BigDecimal.ONE;
      for (int n = 1; n < 40; n++) {
        term = term.multiply(x, digits).divide(BigDecimal.valueOf(n), digits);
        value = value.add(term, digits);
      }
      double h = value.doubleValue();
      BigDecimal hExact = new BigDecimal(h);
      double t = value.subtract(hExact, digits).divide(hExact, digits).doubleValue();
      out[2 * k] = Double.doubleToRawLongBits(t);
      out[2 * k + 1] = Double.doubleToRawLongBits(h) - ((long) k << 52) / N;
    }
    return out;
  }
}
