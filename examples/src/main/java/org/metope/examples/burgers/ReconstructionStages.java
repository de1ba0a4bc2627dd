package org.metope.examples.burgers;

import static org.metope.examples.burgers.Reconstruction.A00;
import static org.metope.examples.burgers.Reconstruction.A01;
import static org.metope.examples.burgers.Reconstruction.A02;
import static org.metope.examples.burgers.Reconstruction.A10;
import static org.metope.examples.burgers.Reconstruction.A11;
import static org.metope.examples.burgers.Reconstruction.A12;
import static org.metope.examples.burgers.Reconstruction.A20;
import static org.metope.examples.burgers.Reconstruction.A21;
import static org.metope.examples.burgers.Reconstruction.A22;
import static org.metope.examples.burgers.Reconstruction.EPS;
import static org.metope.examples.burgers.Reconstruction.G0;
import static org.metope.examples.burgers.Reconstruction.G1;
import static org.metope.examples.burgers.Reconstruction.G2;
import static org.metope.examples.burgers.Reconstruction.THIRTEEN_THIRDS;

import java.util.Arrays;

/**
 * The reconstructions of {@link Reconstruction} as sequences of short loops over one chunk of at
 * most {@link #CHUNK} cells, written so that C2 (JDK 17) compiles each loop to SIMD instructions.
 * The arithmetic of every face state is Parthenon's, operation for operation and in the same
 * order; only where the intermediate values live changes (scratch rows instead of registers),
 * which does not change a bit.
 *
 * <p><b>Why it is written this way.</b> JDK 17's loop vectoriser (SuperWord) gives up on a loop
 * <ul>
 *   <li>whose stores and loads use array indices that differ by a run-time value (the stencil
 *       stride {@code s} of a row of the block): it cannot prove them independent. So the stencil
 *       rows are first copied into rows of their own ({@code q0 .. q4}, cells {@code c - 2s .. c +
 *       2s}), and the face states are copied out at the end ({@link System#arraycopy} is itself
 *       vectorised);
 *   <li>that repeats one expression shape over shared inputs (WENO5's three smoothness indicators,
 *       its three weighted stencils, the products of weights in {@code alpha}). Each such
 *       expression gets its own loop here; partial sums are carried in a scratch row in
 *       Parthenon's order;
 *   <li>that contains a conditional select. Parthenon's limiter ({@link Reconstruction#mc}) is
 *       written with {@link Math#min} and {@link Math#max}, which give the same bits for every
 *       input that is not NaN (see {@link #limitedSlopes}).
 * </ul>
 *
 * One instance per thread holds the scratch rows (18 rows of {@link #CHUNK} doubles and a few more,
 * 37 KiB), allocated by {@link ScratchRows} so that they share one alignment to the cache line.
 */
final class ReconstructionStages {
  /** Cells per pass: long enough for the vector loops, small enough to stay in the L1 cache. */
  static final int CHUNK = 256;
  private static final double TWO_600 = Reconstruction.TWO_600;

  private static final ThreadLocal<ReconstructionStages> PER_THREAD =
      ThreadLocal.withInitial(ReconstructionStages::new);

  private final double[] q0;
  private final double[] q1;
  private final double[] q2;
  private final double[] q3;
  private final double[] q4;
  private final double[] beta0;
  private final double[] beta1;
  private final double[] beta2;
  private final double[] wsum;
  private final double[] partial;
  private final double[] alphaL;
  private final double[] alphaR;
  private final double[] left;
  private final double[] right;
  private final double[] dq;
  private final double[] alphaLin;
  private final double[] ql;
  private final double[] qr;

  private ReconstructionStages() {
    final double[][] rows = ScratchRows.allocate(18, CHUNK);
    q0 = rows[0];
    q1 = rows[1];
    q2 = rows[2];
    q3 = rows[3];
    q4 = rows[4];
    beta0 = rows[5];
    beta1 = rows[6];
    beta2 = rows[7];
    wsum = rows[8];
    partial = rows[9];
    alphaL = rows[10];
    alphaR = rows[11];
    left = rows[12];
    right = rows[13];
    dq = rows[14];
    alphaLin = rows[15];
    ql = rows[16];
    qr = rows[17];
  }

  /**
   * The contract of {@link Reconstruction#weno5Row} (with {@code weno5}) or of {@link
   * Reconstruction#linearRow} (without), chunk by chunk.
   */
  static void row(boolean weno5, double[] a, int from, int s, int count, double[] ql, int qlAt,
      double[] qr, int qrAt) {
    final ReconstructionStages w = PER_THREAD.get();
    for (int done = 0; done < count; done += CHUNK) {
      final int n = Math.min(CHUNK, count - done);
      final int c = from + done;
      System.arraycopy(a, c - s, w.q1, 0, n);
      System.arraycopy(a, c, w.q2, 0, n);
      System.arraycopy(a, c + s, w.q3, 0, n);
      if (weno5) {
        System.arraycopy(a, c - 2 * s, w.q0, 0, n);
        System.arraycopy(a, c + 2 * s, w.q4, 0, n);
        w.weno5(n);
      } else {
        w.linear(n);
      }
      System.arraycopy(w.ql, 0, ql, qlAt + done, n);
      System.arraycopy(w.qr, 0, qr, qrAt + done, n);
    }
  }

  /** Linear face states of the first {@code n} cells of {@code q1 .. q3}: {@code q2 +- dq}. */
  private void linear(int n) {
    limitedSlopes(q1, q2, q3, dq, n);
    for (int m = 0; m < n; m++) {
      ql[m] = q2[m] + dq[m];
    }
    for (int m = 0; m < n; m++) {
      qr[m] = q2[m] - dq[m];
    }
  }

  /** WENO5 face states {@code ql}, {@code qr} of the first {@code n} cells of {@code q0 .. q4}. */
  private void weno5(int n) {
    smoothness0(q0, q1, q2, beta0, n);
    smoothness1(q1, q2, q3, beta1, n);
    smoothness2(q2, q3, q4, beta2, n);
    relativeSmoothness(beta0, beta1, beta2, n);
    // The left state weighs (beta0, beta1, beta2) on the stencils towards q0, the right state
    // (beta2, beta1, beta0) on the mirrored stencils.
    side(q0, q1, q2, q3, q4, beta0, beta1, beta2, left, alphaL, n);
    side(q4, q3, q2, q1, q0, beta2, beta1, beta0, right, alphaR, n);
    limitedSlopes(q1, q2, q3, dq, n);
    for (int m = 0; m < n; m++) {
      alphaLin[m] = 2.0 * alphaL[m] * alphaR[m] / (alphaL[m] + alphaR[m]);
    }
    upperState(q2, dq, alphaLin, left, ql, n);
    lowerState(q2, dq, alphaLin, right, qr, n);
  }

  /** Smoothness indicator of the stencil {@code (q0, q1, q2)}. */
  private static void smoothness0(double[] q0, double[] q1, double[] q2, double[] beta, int n) {
    for (int m = 0; m < n; m++) {
      final double x = q0[m] - 2.0 * q1[m] + q2[m];
      final double y = q0[m] - 4.0 * q1[m] + 3.0 * q2[m];
      beta[m] = THIRTEEN_THIRDS * x * x + y * y + EPS;
    }
  }

  /** Smoothness indicator of the centred stencil {@code (q1, q2, q3)}. */
  private static void smoothness1(double[] q1, double[] q2, double[] q3, double[] beta, int n) {
    for (int m = 0; m < n; m++) {
      final double x = q1[m] - 2.0 * q2[m] + q3[m];
      final double y = q3[m] - q1[m];
      beta[m] = THIRTEEN_THIRDS * x * x + y * y + EPS;
    }
  }

  /** Smoothness indicator of the stencil {@code (q2, q3, q4)}. */
  private static void smoothness2(double[] q2, double[] q3, double[] q4, double[] beta, int n) {
    for (int m = 0; m < n; m++) {
      final double x = q2[m] - 2.0 * q3[m] + q4[m];
      final double y = q4[m] - 4.0 * q3[m] + 3.0 * q2[m];
      beta[m] = THIRTEEN_THIRDS * x * x + y * y + EPS;
    }
  }

  /** WENO-Z: {@code beta = (beta + tau5) / beta} with {@code tau5 = |beta2 - beta0|}, in place. */
  private static void relativeSmoothness(double[] beta0, double[] beta1, double[] beta2, int n) {
    for (int m = 0; m < n; m++) {
      final double b0 = beta0[m];
      final double b2 = beta2[m];
      final double tau5 = Math.abs(b2 - b0);
      beta0[m] = (b0 + tau5) / b0;
      beta1[m] = (beta1[m] + tau5) / beta1[m];
      beta2[m] = (b2 + tau5) / b2;
    }
  }

  /**
   * One side's state (before the blend) and nonlinearity measure, from the weights {@code w0 = G0
   * b0 + EPS}, {@code w1 = G1 b1 + EPS}, {@code w2 = G2 b2 + EPS}: {@code state = (w0 (A00 p0 +
   * A01 p1 + A02 p2) + w1 (A10 p1 + A11 p2 + A12 p3) + w2 (A20 p2 + A21 p3 + A22 p4)) wsum} and
   * {@code alpha = 3 wsum w0 w1 w2 / (G2 w0 w1 + G1 w0 w2 + G0 w1 w2) + EPS}, {@code wsum = 1 /
   * (w0 + w1 + w2)}. The weights are recomputed where they are used (the same bits each time).
   * Sums start from -0.0, which adds to any value without changing a bit.
   */
  private void side(double[] p0, double[] p1, double[] p2, double[] p3, double[] p4, double[] b0,
      double[] b1, double[] b2, double[] state, double[] alpha, int n) {
    for (int m = 0; m < n; m++) {
      wsum[m] = 1.0 / ((G0 * b0[m] + EPS) + (G1 * b1[m] + EPS) + (G2 * b2[m] + EPS));
    }
    for (int m = 0; m < n; m++) {
      alpha[m] = 3.0 * wsum[m] * (G0 * b0[m] + EPS) * (G1 * b1[m] + EPS) * (G2 * b2[m] + EPS);
    }
    Arrays.fill(partial, 0, n, -0.0);
    addWeightProduct(G2, G0, b0, G1, b1, partial, n);
    addWeightProduct(G1, G0, b0, G2, b2, partial, n);
    addWeightProduct(G0, G1, b1, G2, b2, partial, n);
    for (int m = 0; m < n; m++) {
      alpha[m] = alpha[m] / partial[m] + EPS;
    }
    Arrays.fill(state, 0, n, -0.0);
    addWeightedStencil(G0, b0, A00, p0, A01, p1, A02, p2, state, n);
    addWeightedStencil(G1, b1, A10, p1, A11, p2, A12, p3, state, n);
    addWeightedStencil(G2, b2, A20, p2, A21, p3, A22, p4, state, n);
    for (int m = 0; m < n; m++) {
      state[m] *= wsum[m];
    }
  }

  /** {@code sum += g wa wb} with the weights {@code wa = ga ba + EPS}, {@code wb = gb bb + EPS}. */
  private static void addWeightProduct(double g, double ga, double[] ba, double gb, double[] bb,
      double[] sum, int n) {
    for (int m = 0; m < n; m++) {
      sum[m] += g * (ga * ba[m] + EPS) * (gb * bb[m] + EPS);
    }
  }

  /** {@code sum += (g b + EPS) (ca pa + cb pb + cc pc)}: one weighted candidate stencil. */
  private static void addWeightedStencil(double g, double[] b, double ca, double[] pa, double cb,
      double[] pb, double cc, double[] pc, double[] sum, int n) {
    for (int m = 0; m < n; m++) {
      sum[m] += (g * b[m] + EPS) * (ca * pa[m] + cb * pb[m] + cc * pc[m]);
    }
  }

  /**
   * Half of {@link Reconstruction#mc}{@code (q2 - q1, q3 - q2)}, without selects. Its factor
   * {@code dm dp > 0 ? 0.5 : 0} is {@code min(max(dm dp 2^600 2^600, 0), 0.5)} (a positive product
   * scales to at least 2^126, zero or negative ones clamp to +0); its {@code copySign(min(limit,
   * |dc|), dc)} with {@code limit >= 0} is {@code max(-limit, min(limit, dc))}, signed zeros
   * included; {@code adp < adm ? adp : adm} is {@code min(adp, adm)} for values from {@code abs}.
   * Where an input is NaN the slope is NaN in both forms.
   */
  private static void limitedSlopes(double[] q1, double[] q2, double[] q3, double[] dq, int n) {
    for (int m = 0; m < n; m++) {
      final double dm = q2[m] - q1[m];
      final double dp = q3[m] - q2[m];
      dq[m] = Math.min(Math.max(dm * dp * TWO_600 * TWO_600, 0.0), 0.5) * (dm + dp);
    }
    for (int m = 0; m < n; m++) {
      final double limit = 2.0 * Math.min(Math.abs(q3[m] - q2[m]), Math.abs(q2[m] - q1[m]));
      dq[m] = 0.5 * Math.max(-limit, Math.min(limit, dq[m]));
    }
  }

  /** The state on the cell's upper face: the blend towards {@code q2 + dq}. */
  private static void upperState(double[] q2, double[] dq, double[] alphaLin, double[] side,
      double[] out, int n) {
    for (int m = 0; m < n; m++) {
      out[m] = alphaLin[m] * side[m] + (1.0 - alphaLin[m]) * (q2[m] + dq[m]);
    }
  }

  /** The state on the cell's lower face: the blend towards {@code q2 - dq}. */
  private static void lowerState(double[] q2, double[] dq, double[] alphaLin, double[] side,
      double[] out, int n) {
    for (int m = 0; m < n; m++) {
      out[m] = alphaLin[m] * side[m] + (1.0 - alphaLin[m]) * (q2[m] - dq[m]);
    }
  }
}
