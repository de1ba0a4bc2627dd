package org.metope.benchmarks;

/**
 * The burgers example's HLL rows as they were before they were split into vector loops ({@code
 * BurgersFluxes.velocityRow} and {@code scalarRow} up to the change that moved them onto {@code
 * HllRows}): one plain loop per face, with the wave speeds' selects inside. Kept unchanged as the
 * reference the new loops are measured against ({@link HllBenchmark}) and checked bit for bit
 * against ({@code HllBitsTest}). For faces {@code f = face + m}, {@code m = 0 .. count - 1}, the
 * states of component {@code c} are {@code ql[c * cs + f]}, {@code qr[c * cs + f]}; the normal
 * velocity is component {@code normal / cs}.
 */
public final class HllReference {
  private HllReference() {}

  /**
   * Velocity fluxes of one row of faces (components 0, 1, 2 at {@code out}, {@code out + cs},
   * {@code out + 2 cs}); leaves the wave speeds of each face in {@code sl[m]}, {@code sr[m]}.
   */
  public static void velocityRow(double[] a, int out, double[] ql, double[] qr, int face,
      int normal, int cs, int count, double[] sl, double[] sr) {
    final int cy = cs;
    final int cz = 2 * cs;
    for (int m = 0; m < count; m++) {
      final int f = face + m;
      final double upl = ql[normal + f];
      final double upr = qr[normal + f];
      final double uxl = ql[f];
      final double uxr = qr[f];
      final double uyl = ql[cy + f];
      final double uyr = qr[cy + f];
      final double uzl = ql[cz + f];
      final double uzr = qr[cz + f];
      final double lo = upr < upl ? upr : upl;
      final double hi = upl < upr ? upr : upl;
      final double l = 0.0 < lo ? 0.0 : lo;
      final double r = hi < 0.0 ? 0.0 : hi;
      final double inverse = 1.0 / (r - l + (l * r == 0.0 ? 1.0 : 0.0));
      a[out + m] = 0.5 * (r * uxl * upl - l * uxr * upr + l * r * (uxr - uxl)) * inverse;
      a[out + cy + m] = 0.5 * (r * uyl * upl - l * uyr * upr + l * r * (uyr - uyl)) * inverse;
      a[out + cz + m] = 0.5 * (r * uzl * upl - l * uzr * upr + l * r * (uzr - uzl)) * inverse;
      sl[m] = l;
      sr[m] = r;
    }
  }

  /** Fluxes of one scalar through one row of faces, with the speeds {@link #velocityRow} left. */
  public static void scalarRow(double[] a, int out, double[] ql, double[] qr, int face,
      int component, int normal, int count, double[] sl, double[] sr) {
    for (int m = 0; m < count; m++) {
      final int f = face + m;
      final double upl = ql[normal + f];
      final double upr = qr[normal + f];
      final double left = ql[component + f];
      final double right = qr[component + f];
      final double l = sl[m];
      final double r = sr[m];
      a[out + m] = (r * upl * left - l * upr * right + l * r * (right - left))
          / (r - l + (l * r == 0.0 ? 1.0 : 0.0));
    }
  }
}
