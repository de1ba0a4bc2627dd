package org.metope.solvers;

import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.view.IndexBox;

/**
 * Restriction and prolongation of a cell field between a partition of one multigrid level and
 * the same partition one level coarser (the same blocks with half the cells per active axis), as
 * Parthenon's GMG transfers do with {@code RestrictAverage} and {@code ProlongateSharedLinear}
 * (src/prolong_restrict/pr_ops.hpp), term for term:
 *
 * <ul>
 *   <li>restriction: the volume-weighted terms of the {@code 2^ndim} children and their volumes
 *       summed in Parthenon's pairing {@code ((000 + 010) + (001 + 011)) + ((100 + 110) + (101 +
 *       111))} (absent children zero), then divided;
 *   <li>prolongation: one-sided slopes {@code (c - c[-1]) / (xc - xm)} and {@code (c[+1] - c) /
 *       (xp - xc)}, no limiter, each child {@code c -/+ (slope terms)} with Parthenon's signs and
 *       bracketing. It reads the coarse field's first ghost layer.
 * </ul>
 *
 * Cell centres are computed as Parthenon's computes them, for blocks with the leaf mesh's ghost
 * count (Parthenon's GMG blocks keep it; Metope's coarse levels have one ghost layer): the fine
 * block's own centres and those of its coarse buffer, into which Parthenon receives the coarser
 * level's values, so the spacings have Parthenon's bits.
 */
final class GridTransfer {
  private GridTransfer() {}

  /** Restricts the interior of {@code field} of {@code fine} into the interior of {@code coarse}. */
  static void restrict(MeshData fine, int fineField, MeshData coarse, int coarseField) {
    double[] f = fine.data();
    double[] c = coarse.data();
    int ndim = fine.block(0).mesh().ndim();
    IndexBox box = IndexBox.of(coarse.block(0).cellBounds(), IndexDomain.INTERIOR);
    IndexBox fineBox = IndexBox.of(fine.block(0).cellBounds(), IndexDomain.INTERIOR);
    int fis = fineBox.i().s();
    int fjs = fineBox.j().s();
    int fks = fineBox.k().s();
    int cis = box.i().s();
    int cjs = box.j().s();
    int cks = box.k().s();
    for (int b = 0; b < coarse.numBlocks(); b++) {
      double v = fine.block(b).coords().cellVolume();
      double v001 = v;
      double v010 = ndim > 1 ? v : 0.0;
      double v011 = ndim > 1 ? v : 0.0;
      double v1 = ndim > 2 ? v : 0.0;
      double total = ((v + v010) + (v001 + v011)) + ((v1 + v1) + (v1 + v1));
      for (int k = cks; k <= box.k().e(); k++) {
        int fk = ndim > 2 ? (k - cks) * 2 + fks : fks;
        for (int j = cjs; j <= box.j().e(); j++) {
          int fj = ndim > 1 ? (j - cjs) * 2 + fjs : fjs;
          for (int i = cis; i <= box.i().e(); i++) {
            int fi = (i - cis) * 2 + fis;
            double t000 = v * f[fine.index(fineField, b, 0, fk, fj, fi)];
            double t001 = v * f[fine.index(fineField, b, 0, fk, fj, fi + 1)];
            double t010 = ndim > 1 ? v * f[fine.index(fineField, b, 0, fk, fj + 1, fi)] : 0.0;
            double t011 = ndim > 1 ? v * f[fine.index(fineField, b, 0, fk, fj + 1, fi + 1)]
                : 0.0;
            double t100 = 0.0;
            double t101 = 0.0;
            double t110 = 0.0;
            double t111 = 0.0;
            if (ndim > 2) {
              t100 = v * f[fine.index(fineField, b, 0, fk + 1, fj, fi)];
              t101 = v * f[fine.index(fineField, b, 0, fk + 1, fj, fi + 1)];
              t110 = v * f[fine.index(fineField, b, 0, fk + 1, fj + 1, fi)];
              t111 = v * f[fine.index(fineField, b, 0, fk + 1, fj + 1, fi + 1)];
            }
            c[coarse.index(coarseField, b, 0, k, j, i)] =
                (((t000 + t010) + (t001 + t011)) + ((t100 + t110) + (t101 + t111))) / total;
          }
        }
      }
    }
  }

  /**
   * Prolongates the interior of {@code coarseField} of {@code coarse} (its first ghost layer
   * filled) into the interior of {@code fineField} of {@code fine}.
   *
   * @param nghost the ghost count of the leaf mesh, which fixes how Parthenon computes centres
   */
  static void prolongate(MeshData coarse, int coarseField, MeshData fine, int fineField,
      int nghost) {
    double[] c = coarse.data();
    double[] f = fine.data();
    int ndim = fine.block(0).mesh().ndim();
    IndexBox box = IndexBox.of(coarse.block(0).cellBounds(), IndexDomain.INTERIOR);
    IndexBox fineBox = IndexBox.of(fine.block(0).cellBounds(), IndexDomain.INTERIOR);
    double[] gm = new double[3];
    double[] gp = new double[3];
    double[] dfm = new double[3];
    double[] dfp = new double[3];
    int[] cs = {box.i().s(), box.j().s(), box.k().s()};
    int[] fs = {fineBox.i().s(), fineBox.j().s(), fineBox.k().s()};
    int[] at = new int[3];
    int[] fat = new int[3];
    for (int b = 0; b < coarse.numBlocks(); b++) {
      Centres cc = new Centres(fine.block(b), true, nghost, cs);
      Centres fc = new Centres(fine.block(b), false, nghost, fs);
      for (int k = cs[2]; k <= box.k().e(); k++) {
        for (int j = cs[1]; j <= box.j().e(); j++) {
          for (int i = cs[0]; i <= box.i().e(); i++) {
            at[0] = i;
            at[1] = j;
            at[2] = k;
            double centre = c[coarse.index(coarseField, b, 0, k, j, i)];
            for (int d = 0; d < 3; d++) {
              fat[d] = d < ndim ? (at[d] - cs[d]) * 2 + fs[d] : fs[d];
              gm[d] = 0.0;
              gp[d] = 0.0;
              dfm[d] = 0.0;
              dfp[d] = 0.0;
              if (d < ndim) {
                int step = d == 0 ? 1 : 0;
                double below = c[coarse.index(coarseField, b, 0, k - (d == 2 ? 1 : 0),
                    j - (d == 1 ? 1 : 0), i - step)];
                double above = c[coarse.index(coarseField, b, 0, k + (d == 2 ? 1 : 0),
                    j + (d == 1 ? 1 : 0), i + step)];
                double xc = cc.x(d, at[d]);
                gm[d] = (centre - below) / (xc - cc.x(d, at[d] - 1));
                gp[d] = (above - centre) / (cc.x(d, at[d] + 1) - xc);
                dfm[d] = xc - fc.x(d, fat[d]);
                dfp[d] = fc.x(d, fat[d] + 1) - xc;
              }
            }
            writeChildren(f, fine, fineField, b, fat, ndim, centre, gm, gp, dfm, dfp);
          }
        }
      }
    }
  }

  /** The children of one coarse cell, Parthenon's eight expressions (absent ones skipped). */
  private static void writeChildren(double[] f, MeshData fine, int field, int b, int[] at,
      int ndim, double fc, double[] gm, double[] gp, double[] dm, double[] dp) {
    int i = at[0];
    int j = at[1];
    int k = at[2];
    f[fine.index(field, b, 0, k, j, i)] = fc - (gm[0] * dm[0] + gm[1] * dm[1] + gm[2] * dm[2]);
    f[fine.index(field, b, 0, k, j, i + 1)] =
        fc + (gp[0] * dp[0] - gm[1] * dm[1] - gm[2] * dm[2]);
    if (ndim > 1) {
      f[fine.index(field, b, 0, k, j + 1, i)] =
          fc - (gm[0] * dm[0] - gp[1] * dp[1] + gm[2] * dm[2]);
      f[fine.index(field, b, 0, k, j + 1, i + 1)] =
          fc + (gp[0] * dp[0] + gp[1] * dp[1] - gm[2] * dm[2]);
    }
    if (ndim > 2) {
      f[fine.index(field, b, 0, k + 1, j, i)] =
          fc - (gm[0] * dm[0] + gm[1] * dm[1] - gp[2] * dp[2]);
      f[fine.index(field, b, 0, k + 1, j, i + 1)] =
          fc + (gp[0] * dp[0] - gm[1] * dm[1] + gp[2] * dp[2]);
      f[fine.index(field, b, 0, k + 1, j + 1, i)] =
          fc - (gm[0] * dm[0] - gp[1] * dp[1] - gp[2] * dp[2]);
      f[fine.index(field, b, 0, k + 1, j + 1, i + 1)] =
          fc + (gp[0] * dp[0] + gp[1] * dp[1] + gp[2] * dp[2]);
    }
  }

  /**
   * Cell centres of a block as Parthenon's {@code UniformCartesian} gives them for a block with
   * {@code nghost} ghost cells: {@code x0 + (p + 0.5) dx} at Parthenon index {@code p}, with
   * {@code x0 = xmin - nghost dx}; for the coarse buffer of a fine block (which Parthenon's GMG
   * prolongation reads) {@code x0 + nghost dx (1 - 2)} and {@code 2 dx} from the fine block's.
   */
  private static final class Centres {
    private final double[] origin = new double[3];
    private final double[] dx = new double[3];
    private final int[] shift = new int[3];

    /**
     * @param block the fine block
     * @param coarse whether the centres are those of its coarse buffer
     * @param start this side's first interior index per axis (Parthenon's is {@code nghost})
     */
    Centres(MeshBlock block, boolean coarse, int nghost, int[] start) {
      for (int d = 0; d < 3; d++) {
        boolean active = d < block.mesh().ndim();
        int ng = active ? nghost : 0;
        double fineDx = block.coords().dx(d);
        double fineOrigin = block.region().xmin(d) - ng * fineDx;
        dx[d] = coarse && active ? fineDx * 2 : fineDx;
        origin[d] = coarse ? fineOrigin + ng * fineDx * (1 - 2) : fineOrigin;
        shift[d] = ng - start[d];
      }
    }

    double x(int d, int idx) {
      return origin[d] + (idx + shift[d] + 0.5) * dx[d];
    }
  }
}
