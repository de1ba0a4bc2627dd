package org.metope.examples.burgers;

/**
 * The face states of Parthenon-VIBE's reconstructions, one row of cells at a time: for each cell
 * {@code c} of the row, {@code ql} (the state on the cell's upper face, the left state of that
 * face) and {@code qr} (the state on its lower face, the right state of that face), from the cells
 * {@code c - 2s .. c + 2s} along the stencil stride {@code s}.
 *
 * <ul>
 *   <li>{@link #linearRow}: slope-limited linear with the monotonised-central limiter, {@code dq =
 *       mc(q0 - qm, qp - q0) / 2}, {@code ql = q0 + dq}, {@code qr = q0 - dq};
 *   <li>{@link #weno5Row}: WENO5-Z (Borges et al.) with Parthenon's smoothness indicators, its
 *       {@code eps = 10 * machine epsilon} and its blend towards the linear reconstruction by the
 *       harmonic mean of the two sides' nonlinearity measures.
 * </ul>
 *
 * The arithmetic is Parthenon's ({@code benchmarks/burgers/recon.hpp}) operation for operation and
 * in the same order, so that a build without contracted multiply-adds gets the same bits. Rows are
 * cells {@code from + m}, {@code m = 0 .. count - 1}, contiguous in memory; results go to {@code
 * ql[qlAt + m]} and {@code qr[qrAt + m]}. Both run as the vector loops of {@link
 * ReconstructionStages} (the same bits as the plain per-cell loops they replaced, {@code
 * ReconstructionBitsTest} in the benchmarks module; the per-face device body of {@link
 * BurgersFaceFlux} gives the same bits too, {@code BurgersFaceFluxTest}). Cells whose stencil lies in
 * the array may be computed and thrown away, so a caller may pass a whole plane of a block as one
 * row (the ghost columns between its rows included): the longer the row, the better the vector
 * loops run.
 */
public final class Reconstruction {
  /** Parthenon's {@code robust::EPS()}; these constants are shared with {@link BurgersFaceFlux}. */
  static final double EPS = 10 * Math.ulp(1.0);
  static final double THIRTEEN_THIRDS = 13.0 / 3.0;
  static final double A00 = 1.0 / 3.0;
  static final double A01 = -7.0 / 6.0;
  static final double A02 = 11.0 / 6.0;
  static final double A10 = -1.0 / 6.0;
  static final double A11 = 5.0 / 6.0;
  static final double A12 = 1.0 / 3.0;
  static final double A20 = 1.0 / 3.0;
  static final double A21 = 5.0 / 6.0;
  static final double A22 = -1.0 / 6.0;
  static final double G0 = 0.1;
  static final double G1 = 0.6;
  static final double G2 = 0.3;
  /** 2^600: two factors of it take the smallest positive product (2^-1074) above one half. */
  static final double TWO_600 = 0x1p600;

  private Reconstruction() {}

  /** Slope-limited linear face states of one row (stencil {@code c - s .. c + s}). */
  public static void linearRow(double[] a, int from, int s, int count, double[] ql, int qlAt,
      double[] qr, int qrAt) {
    ReconstructionStages.row(false, a, from, s, count, ql, qlAt, qr, qrAt);
  }

  /** WENO5-Z face states of one row (stencil {@code c - 2s .. c + 2s}). */
  public static void weno5Row(double[] a, int from, int s, int count, double[] ql, int qlAt,
      double[] qr, int qrAt) {
    ReconstructionStages.row(true, a, from, s, count, ql, qlAt, qr, qrAt);
  }
}
