package org.metope.solvers;

import org.metope.mesh.CompositeLevels;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.view.IndexBox;

/**
 * Restriction and prolongation of a cell field between a partition of one multigrid level and
 * the partition one level coarser: below the root grid the same blocks with half the cells per
 * active axis, above it each block's parent, of which the block covers one half per axis
 * ({@link CompositeLevels}), as
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

  /**
   * Restricts the interior of {@code fineField} of every block of {@code fine} that has a parent
   * ({@code links}) into the part of its parent's interior in {@code coarse} that it covers.
   */
  static void restrict(MeshData fine, int fineField, CompositeLevels links, MeshData coarse,
      int coarseField) {
    double[] f = fine.data();
    double[] c = coarse.data();
    int ndim = fine.block(0).mesh().ndim();
    IndexBox box = IndexBox.of(coarse.block(0).cellBounds(), IndexDomain.INTERIOR);
    IndexBox fineBox = IndexBox.of(fine.block(0).cellBounds(), IndexDomain.INTERIOR);
    int fis = fineBox.i().s();
    int fjs = fineBox.j().s();
    int fks = fineBox.k().s();
    int ni = (fineBox.i().e() - fis + 1) / 2;
    int nj = ndim > 1 ? (fineBox.j().e() - fjs + 1) / 2 : 1;
    int nk = ndim > 2 ? (fineBox.k().e() - fks + 1) / 2 : 1;
    for (int b = 0; b < fine.numBlocks(); b++) {
      int p = parent(fine, b, links, coarse);
      if (p < 0) {
        continue;
      }
      int[] child = links.childIndex()[fine.blockIndex(b)];
      int cis = box.i().s() + child[0] * ni;
      int cjs = box.j().s() + child[1] * nj;
      int cks = box.k().s() + child[2] * nk;
      double v = fine.block(b).coords().cellVolume();
      double v001 = v;
      double v010 = ndim > 1 ? v : 0.0;
      double v011 = ndim > 1 ? v : 0.0;
      double v1 = ndim > 2 ? v : 0.0;
      double total = ((v + v010) + (v001 + v011)) + ((v1 + v1) + (v1 + v1));
      for (int k = cks; k < cks + nk; k++) {
        int fk = ndim > 2 ? (k - cks) * 2 + fks : fks;
        for (int j = cjs; j < cjs + nj; j++) {
          int fj = ndim > 1 ? (j - cjs) * 2 + fjs : fjs;
          for (int i = cis; i < cis + ni; i++) {
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
            c[coarse.index(coarseField, p, 0, k, j, i)] =
                (((t000 + t010) + (t001 + t011)) + ((t100 + t110) + (t101 + t111))) / total;
          }
        }
      }
    }
  }

  /**
   * Prolongates, into the interior of {@code fineField} of every block of {@code fine} that has a
   * parent ({@code links}), the part of {@code coarseField} of its parent in {@code coarse} that it
   * covers (the parent's cells around it filled, ghosts included).
   *
   * @param nghost the ghost count of the leaf mesh, which fixes how Parthenon computes centres
   */
  static void prolongate(MeshData coarse, int coarseField, CompositeLevels links, MeshData fine,
      int fineField, int nghost) {
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
    int[] half = {(fineBox.i().e() - fs[0] + 1) / 2, ndim > 1 ? (fineBox.j().e() - fs[1] + 1) / 2
        : 1, ndim > 2 ? (fineBox.k().e() - fs[2] + 1) / 2 : 1};
    int[] at = new int[3];
    int[] fat = new int[3];
    int[] off = new int[3];
    for (int b = 0; b < fine.numBlocks(); b++) {
      int p = parent(fine, b, links, coarse);
      if (p < 0) {
        continue;
      }
      for (int d = 0; d < 3; d++) {
        off[d] = links.childIndex()[fine.blockIndex(b)][d] * half[d];
      }
      Centres cc = new Centres(fine.block(b), true, nghost, cs);
      Centres fc = new Centres(fine.block(b), false, nghost, fs);
      for (int k = cs[2]; k < cs[2] + half[2]; k++) {
        for (int j = cs[1]; j < cs[1] + half[1]; j++) {
          for (int i = cs[0]; i < cs[0] + half[0]; i++) {
            at[0] = i;
            at[1] = j;
            at[2] = k;
            int pi = i + off[0];
            int pj = j + off[1];
            int pk = k + off[2];
            double centre = c[coarse.index(coarseField, p, 0, pk, pj, pi)];
            for (int d = 0; d < 3; d++) {
              fat[d] = d < ndim ? (at[d] - cs[d]) * 2 + fs[d] : fs[d];
              gm[d] = 0.0;
              gp[d] = 0.0;
              dfm[d] = 0.0;
              dfp[d] = 0.0;
              if (d < ndim) {
                int step = d == 0 ? 1 : 0;
                double below = c[coarse.index(coarseField, p, 0, pk - (d == 2 ? 1 : 0),
                    pj - (d == 1 ? 1 : 0), pi - step)];
                double above = c[coarse.index(coarseField, p, 0, pk + (d == 2 ? 1 : 0),
                    pj + (d == 1 ? 1 : 0), pi + step)];
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

  /**
   * The index in partition {@code coarse} of the parent of block {@code b} of partition {@code
   * fine}, or -1 where it has none (a partition holds the parents of its blocks).
   */
  static int parent(MeshData fine, int b, CompositeLevels links, MeshData coarse) {
    int p = links.parent()[fine.blockIndex(b)];
    return p < 0 ? -1 : p - coarse.blockIndex(0);
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
