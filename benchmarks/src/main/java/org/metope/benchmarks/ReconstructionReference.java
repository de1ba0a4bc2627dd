package org.metope.benchmarks;

/**
 * The burgers example's row kernels as they were before they were split into vector loops
 * ({@code Reconstruction.weno5Row} and {@code linearRow} up to the change that moved them onto
 * {@code ReconstructionStages}): one plain loop per cell, Parthenon's arithmetic operation for
 * operation. Kept unchanged as the reference the new kernels are measured against ({@link
 * Weno5Benchmark}) and checked bit for bit against ({@code ReconstructionBitsTest}). Same
 * contract: for each cell {@code c = from + m}, {@code m = 0 .. count - 1}, the states {@code
 * ql[qlAt + m]} and {@code qr[qrAt + m]} from the cells {@code c - 2s .. c + 2s} (WENO5) or {@code
 * c - s .. c + s} (linear).
 */
public final class ReconstructionReference {
  private static final double EPS = 10 * Math.ulp(1.0);
  private static final double THIRTEEN_THIRDS = 13.0 / 3.0;
  private static final double A00 = 1.0 / 3.0;
  private static final double A01 = -7.0 / 6.0;
  private static final double A02 = 11.0 / 6.0;
  private static final double A10 = -1.0 / 6.0;
  private static final double A11 = 5.0 / 6.0;
  private static final double A12 = 1.0 / 3.0;
  private static final double A20 = 1.0 / 3.0;
  private static final double A21 = 5.0 / 6.0;
  private static final double A22 = -1.0 / 6.0;
  private static final double G0 = 0.1;
  private static final double G1 = 0.6;
  private static final double G2 = 0.3;

  private ReconstructionReference() {}

  /**
   * The monotonised-central limited slope of the one-sided differences {@code dm} and {@code dp}:
   * zero when they differ in sign, else the smallest of the central difference and twice either
   * one-sided difference, with the central difference's sign.
   */
  private static double mc(double dm, double dp) {
    final double dc = (dm * dp > 0.0 ? 0.5 : 0.0) * (dm + dp);
    final double adm = Math.abs(dm);
    final double adp = Math.abs(dp);
    final double limit = 2.0 * (adp < adm ? adp : adm);
    final double adc = Math.abs(dc);
    return Math.copySign(limit < adc ? limit : adc, dc);
  }

  /** Slope-limited linear face states of one row (stencil {@code c - s .. c + s}). */
  public static void linearRow(double[] a, int from, int s, int count, double[] ql, int qlAt,
      double[] qr, int qrAt) {
    for (int m = 0; m < count; m++) {
      final int c = from + m;
      final double qm = a[c - s];
      final double q0 = a[c];
      final double qp = a[c + s];
      final double dq = 0.5 * mc(q0 - qm, qp - q0);
      ql[qlAt + m] = q0 + dq;
      qr[qrAt + m] = q0 - dq;
    }
  }

  /** WENO5-Z face states of one row (stencil {@code c - 2s .. c + 2s}). */
  public static void weno5Row(double[] a, int from, int s, int count, double[] ql, int qlAt,
      double[] qr, int qrAt) {
    final int s2 = 2 * s;
    for (int m = 0; m < count; m++) {
      final int c = from + m;
      final double q0 = a[c - s2];
      final double q1 = a[c - s];
      final double q2 = a[c];
      final double q3 = a[c + s];
      final double q4 = a[c + s2];
      double x = q0 - 2 * q1 + q2;
      double y = q0 - 4.0 * q1 + 3.0 * q2;
      double beta0 = THIRTEEN_THIRDS * x * x + y * y + EPS;
      x = q1 - 2.0 * q2 + q3;
      y = q3 - q1;
      double beta1 = THIRTEEN_THIRDS * x * x + y * y + EPS;
      x = q2 - 2.0 * q3 + q4;
      y = q4 - 4.0 * q3 + 3.0 * q2;
      double beta2 = THIRTEEN_THIRDS * x * x + y * y + EPS;
      final double tau5 = Math.abs(beta2 - beta0);
      beta0 = (beta0 + tau5) / beta0;
      beta1 = (beta1 + tau5) / beta1;
      beta2 = (beta2 + tau5) / beta2;

      double w0 = G0 * beta0 + EPS;
      double w1 = G1 * beta1 + EPS;
      double w2 = G2 * beta2 + EPS;
      double wsum = 1.0 / (w0 + w1 + w2);
      double left = w0 * (A00 * q0 + A01 * q1 + A02 * q2);
      left += w1 * (A10 * q1 + A11 * q2 + A12 * q3);
      left += w2 * (A20 * q2 + A21 * q3 + A22 * q4);
      left *= wsum;
      final double alphaL = 3.0 * wsum * w0 * w1 * w2
          / (G2 * w0 * w1 + G1 * w0 * w2 + G0 * w1 * w2) + EPS;

      w0 = G0 * beta2 + EPS;
      w1 = G1 * beta1 + EPS;
      w2 = G2 * beta0 + EPS;
      wsum = 1.0 / (w0 + w1 + w2);
      double right = w0 * (A00 * q4 + A01 * q3 + A02 * q2);
      right += w1 * (A10 * q3 + A11 * q2 + A12 * q1);
      right += w2 * (A20 * q2 + A21 * q1 + A22 * q0);
      right *= wsum;
      final double alphaR = 3.0 * wsum * w0 * w1 * w2
          / (G2 * w0 * w1 + G1 * w0 * w2 + G0 * w1 * w2) + EPS;

      final double dq = 0.5 * mc(q2 - q1, q3 - q2);
      final double alphaLin = 2.0 * alphaL * alphaR / (alphaL + alphaR);
      ql[qlAt + m] = alphaLin * left + (1.0 - alphaLin) * (q2 + dq);
      qr[qrAt + m] = alphaLin * right + (1.0 - alphaLin) * (q2 - dq);
    }
  }
}
