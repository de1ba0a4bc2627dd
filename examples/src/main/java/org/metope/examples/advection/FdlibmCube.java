package org.metope.examples.advection;

/**
 * {@code StrictMath.pow(x, 3)} to the bit, without the per-call scratch that the JDK's {@code
 * pow} allocates.
 *
 * <p>The JDK's fdlibm {@code pow} builds three two-element arrays on every call that reaches its
 * logarithm. C2 cannot remove them, because they are indexed by a computed interval. That is
 * about 100 bytes a call, and the advection history cubes every interior cell at every record:
 * 25 MB a record on a 64^3 mesh.
 *
 * <p>This is fdlibm's method (Sun Microsystems, {@code e_pow.c}; permission to use, copy, modify
 * and distribute is granted provided the notice is kept) with the exponent fixed at 3:
 *
 * <ol>
 *   <li>log2|x| in extra precision, as {@code n + t1 + t2};
 *   <li>3 times that, as {@code pH + pL};
 *   <li>2 to that power, with the sign of x.
 * </ol>
 *
 * <p>The floating-point operations are the same and in the same order, so every rounding is the
 * same as in the library. Only the branches that cannot be taken for an exponent of 3 are gone,
 * and the intervals' constants are picked by a branch instead of an array. {@code
 * FdlibmCubeTest} compares the two on random values of every kind, the edges included.
 */
final class FdlibmCube {
  private static final double TWO53 = bits(0x43400000_00000000L);
  private static final double DP_H = bits(0x3FE2B803_40000000L);
  private static final double DP_L = bits(0x3E4CFDEB_43CFD006L);
  // log((1 + s) / (1 - s)) series for log2, in s^2
  private static final double L1 = bits(0x3FE33333_33333303L);
  private static final double L2 = bits(0x3FDB6DB6_DB6FABFFL);
  private static final double L3 = bits(0x3FD55555_518F264DL);
  private static final double L4 = bits(0x3FD17460_A91D4101L);
  private static final double L5 = bits(0x3FCD864A_93C9DB65L);
  private static final double L6 = bits(0x3FCA7E28_4A454EEFL);
  // 2 / (3 ln 2), whole and split in a 24-bit head and a tail
  private static final double CP = bits(0x3FEEC709_DC3A03FDL);
  private static final double CP_H = bits(0x3FEEC709_E0000000L);
  private static final double CP_L = bits(0xBE3E2FE0_145B01F5L);
  // exp series on [-ln2/2, ln2/2]
  private static final double P1 = bits(0x3FC55555_5555553EL);
  private static final double P2 = bits(0xBF66C16C_16BEBD93L);
  private static final double P3 = bits(0x3F11566A_AF25DE2CL);
  private static final double P4 = bits(0xBEBBBD41_C5D26BF1L);
  private static final double P5 = bits(0x3E663769_72BEA4D0L);
  // ln 2, whole and split in a 21-bit head and a tail
  private static final double LG2 = bits(0x3FE62E42_FEFA39EFL);
  private static final double LG2_H = bits(0x3FE62E43_00000000L);
  private static final double LG2_L = bits(0xBE205C61_0CA86C39L);
  // -(1024 - log2(largest double + half an ulp))
  private static final double OVT = 8.0085662595372944372e-17;

  private FdlibmCube() {}

  /** {@code StrictMath.pow(x, 3)}, bit for bit. */
  static double cube(double x) {
    long xb = Double.doubleToRawLongBits(x);
    int hx = (int) (xb >>> 32);
    int lx = (int) xb;
    int ix = hx & 0x7fffffff;
    if (ix > 0x7ff00000 || (ix == 0x7ff00000 && lx != 0)) {
      return x + 3.0; // NaN
    }
    if (lx == 0 && (ix == 0 || ix == 0x3ff00000 || ix == 0x7ff00000)) {
      return x; // +-0, +-1 and +-infinity are their own cubes
    }
    double sign = hx < 0 ? -1.0 : 1.0;
    double ax = Math.abs(x);
    int n = 0;
    if (ix < 0x00100000) { // subnormal
      ax *= TWO53;
      n -= 53;
      ix = hi(ax);
    }
    n += (ix >> 20) - 0x3ff;
    int j = ix & 0x000fffff;
    ix = j | 0x3ff00000;
    int k;
    if (j <= 0x3988E) { // the mantissa below sqrt(3/2)
      k = 0;
    } else if (j < 0xBB67A) { // below sqrt(3)
      k = 1;
    } else {
      k = 0;
      n += 1;
      ix -= 0x00100000;
    }
    ax = withHi(ax, ix);
    double bp = k == 0 ? 1.0 : 1.5;
    double dpH = k == 0 ? 0.0 : DP_H;
    double dpL = k == 0 ? 0.0 : DP_L;

    // s = (ax - bp) / (ax + bp) = sH + sL, and log2(ax) = n + dpH + zH + zL
    double u = ax - bp;
    double v = 1.0 / (ax + bp);
    double ss = u * v;
    double sH = withoutLo(ss);
    double tH = fromHi(((ix >> 1) | 0x20000000) + 0x00080000 + (k << 18));
    double tL = ax - (tH - bp);
    double sL = v * ((u - sH * tH) - sH * tL);
    double s2 = ss * ss;
    double r = s2 * s2 * (L1 + s2 * (L2 + s2 * (L3 + s2 * (L4 + s2 * (L5 + s2 * L6)))));
    r += sL * (sH + ss);
    s2 = sH * sH;
    tH = withoutLo(3.0 + s2 + r);
    tL = r - ((tH - 3.0) - s2);
    u = sH * tH;
    v = sL * tH + tL * ss;
    double pH = withoutLo(u + v);
    double pL = v - (pH - u);
    double zH = CP_H * pH;
    double zL = CP_L * pH + pL * CP + dpL;
    double t = n;
    double t1 = withoutLo(((zH + zL) + dpH) + t);
    double t2 = zL - (((t1 - t) - dpH) - zH);

    // 3 * log2(ax) = pH + pL; 3 has no low word, so fdlibm's (y - y1) is +0
    pL = 0.0 * t1 + 3.0 * t2;
    pH = 3.0 * t1;
    return sign * exp2(pH, pL);
  }

  /** 2^(pH + pL): infinity above the largest double, zero below half the least one. */
  private static double exp2(double pH, double pL) {
    double z = pL + pH;
    long zb = Double.doubleToRawLongBits(z);
    int j = (int) (zb >>> 32);
    int i = (int) zb;
    if (j >= 0x40900000) { // z >= 1024
      if (((j - 0x40900000) | i) != 0 || pL + OVT > z - pH) {
        return Double.POSITIVE_INFINITY;
      }
    } else if ((j & 0x7fffffff) >= 0x4090cc00) { // z <= -1075
      if (((j - 0xc090cc00) | i) != 0 || pL <= z - pH) {
        return 0.0;
      }
    }
    i = j & 0x7fffffff;
    int k = (i >> 20) - 0x3ff;
    int n = 0;
    if (i > 0x3fe00000) { // |z| > 0.5: n = the integer nearest z
      n = j + (0x00100000 >> (k + 1));
      k = ((n & 0x7fffffff) >> 20) - 0x3ff;
      double t = fromHi(n & ~(0x000fffff >> k));
      n = ((n & 0x000fffff) | 0x00100000) >> (20 - k);
      if (j < 0) {
        n = -n;
      }
      pH -= t;
    }
    double t = withoutLo(pL + pH);
    double u = t * LG2_H;
    double v = (pL - (t - pH)) * LG2 + t * LG2_L;
    z = u + v;
    double w = v - (z - u);
    t = z * z;
    double t1 = z - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    double r = (z * t1) / (t1 - 2.0) - (w + z * w);
    z = 1.0 - (r - z);
    int scaled = hi(z) + (n << 20);
    if ((scaled >> 20) <= 0) {
      return Math.scalb(z, n); // a subnormal result
    }
    return withHi(z, scaled);
  }

  private static double bits(long b) {
    return Double.longBitsToDouble(b);
  }

  private static int hi(double d) {
    return (int) (Double.doubleToRawLongBits(d) >>> 32);
  }

  private static double fromHi(int high) {
    return Double.longBitsToDouble((long) high << 32);
  }

  private static double withHi(double d, int high) {
    return Double.longBitsToDouble(((long) high << 32)
        | (Double.doubleToRawLongBits(d) & 0xffffffffL));
  }

  private static double withoutLo(double d) {
    return Double.longBitsToDouble(Double.doubleToRawLongBits(d) & 0xffffffff00000000L);
  }
}
