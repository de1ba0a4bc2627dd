package org.metope.examples.burgers;

/**
 * The HLL fluxes of {@link BurgersFluxes} as loops C2 can vectorise: a row of faces (a whole k
 * plane of a block, see {@link BurgersFluxes}) goes through {@link #speeds}, the one loop with
 * selects, then through one select-free loop per component ({@link #velocity}, {@link #scalar}).
 *
 * <p><b>Why the selects stay in a loop of their own.</b> The wave speeds are Parthenon's {@code
 * sl = min(upl, upr, 0)} and {@code sr = max(upl, upr, 0)} written as comparisons ({@code upr <
 * upl ? upr : upl}, ...), which on equal operands of different sign return the left one, and {@code
 * sr} keeps a {@code -0.0} that {@code Math.max(0.0, -0.0)} would turn into {@code +0.0}: on such
 * faces {@code Math.min}/{@code Math.max} give other signs of zero and, through the products, other
 * signs of zero fluxes ({@code HllBitsTest}'s negative control). JDK 17's SuperWord does not
 * vectorise a loop with selects, so the selects and the denominator's guard (also a select) run
 * once per face here, and the flux loops read their results from rows. Every flux is the
 * expression it was in the per-face loop, operation for operation (no reassociation, no FMA), so
 * the bits are those of the per-face loop ({@code HllBitsTest}).
 *
 * <p>The flux loops read and write only rows indexed by the face number {@code m} (C2 does not
 * vectorise them when they read or write a block at a run-time offset): the normal velocity's
 * states, copied into rows by {@link #speeds}, and each component's states, copied in by the
 * caller with {@link System#arraycopy} ({@code left}, {@code right}); the caller copies {@code
 * out} to the fluxes.
 */
public final class HllRows {
  private HllRows() {}

  /**
   * For faces {@code m = 0 .. count - 1} with normal velocity states {@code ql[at + m]}, {@code
   * qr[at + m]}: copies them into {@code upl[m]}, {@code upr[m]} and writes the speeds {@code
   * sl[m]}, {@code sr[m]}, the denominator {@code den[m] = sr - sl + (sl sr == 0 ? 1 : 0)} and its
   * reciprocal {@code inv[m]}.
   */
  public static void speeds(double[] ql, double[] qr, int at, int count, double[] upl,
      double[] upr, double[] sl, double[] sr, double[] den, double[] inv) {
    for (int m = 0; m < count; m++) {
      final double left = ql[at + m];
      final double right = qr[at + m];
      final double lo = right < left ? right : left;
      final double hi = left < right ? right : left;
      final double l = 0.0 < lo ? 0.0 : lo;
      final double r = hi < 0.0 ? 0.0 : hi;
      upl[m] = left;
      upr[m] = right;
      sl[m] = l;
      sr[m] = r;
      den[m] = r - l + (l * r == 0.0 ? 1.0 : 0.0);
    }
    for (int m = 0; m < count; m++) {
      inv[m] = 1.0 / den[m];
    }
  }

  /**
   * The flux {@code out[m] = 0.5 (sr ul upl - sl ur upr + sl sr (ur - ul)) / den} of a velocity
   * component with states {@code left[m]} ({@code ul}) and {@code right[m]} ({@code ur}), computed
   * as Parthenon does, with the reciprocal of the denominator.
   */
  public static void velocity(double[] left, double[] right, double[] upl, double[] upr,
      double[] sl, double[] sr, double[] inv, double[] out, int count) {
    for (int m = 0; m < count; m++) {
      final double l = sl[m];
      final double r = sr[m];
      final double ul = left[m];
      final double ur = right[m];
      out[m] = 0.5 * (r * ul * upl[m] - l * ur * upr[m] + l * r * (ur - ul)) * inv[m];
    }
  }

  /**
   * The flux {@code out[m] = (sr upl ql - sl upr qr + sl sr (qr - ql)) / den} of a scalar with
   * states {@code left[m]} ({@code ql}) and {@code right[m]} ({@code qr}).
   */
  public static void scalar(double[] left, double[] right, double[] upl, double[] upr,
      double[] sl, double[] sr, double[] den, double[] out, int count) {
    for (int m = 0; m < count; m++) {
      final double l = sl[m];
      final double r = sr[m];
      final double ql = left[m];
      final double qr = right[m];
      out[m] = (r * upl[m] * ql - l * upr[m] * qr + l * r * (qr - ql)) / den[m];
    }
  }
}
