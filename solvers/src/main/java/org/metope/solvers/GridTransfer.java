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
 *
 * <p>One instance per level and list: it keeps the spacings of the block being prolongated, so
 * that a transfer allocates nothing. Both loops step through a block row by row, the cells of a
 * row and their neighbours at fixed distances in the arena.
 */
final class GridTransfer {
  /** Per axis and coarse cell of a block: the distances to its neighbours' centres. */
  private final double[][] below = new double[3][];
  private final double[][] above = new double[3][];
  /** Per axis and coarse cell of a block: the distances to its first and second child's face. */
  private final double[][] toLower = new double[3][];
  private final double[][] toUpper = new double[3][];

  /** Transfers between blocks of at most {@code maxCells} interior cells along an axis. */
  GridTransfer(int maxCells) {
    for (int d = 0; d < 3; d++) {
      below[d] = new double[maxCells];
      above[d] = new double[maxCells];
      toLower[d] = new double[maxCells];
      toUpper[d] = new double[maxCells];
    }
  }

  /**
   * Restricts the interior of {@code fineField} of every block of {@code fine} that has a parent
   * ({@code links}) into the part of its parent's interior in {@code coarse} that it covers.
   */
  void restrict(MeshData fine, int fineField, CompositeLevels links, MeshData coarse,
      int coarseField) {
    int ndim = fine.block(0).mesh().ndim();
    IndexBox box = IndexBox.of(coarse.block(0).cellBounds(), IndexDomain.INTERIOR);
    IndexBox fineBox = IndexBox.of(fine.block(0).cellBounds(), IndexDomain.INTERIOR);
    int ni = (fineBox.i().e() - fineBox.i().s() + 1) / 2;
    int nj = ndim > 1 ? (fineBox.j().e() - fineBox.j().s() + 1) / 2 : 1;
    int nk = ndim > 2 ? (fineBox.k().e() - fineBox.k().s() + 1) / 2 : 1;
    for (int b = 0; b < fine.numBlocks(); b++) {
      int p = parent(fine, b, links, coarse);
      if (p < 0) {
        continue;
      }
      int[] child = links.childIndex()[fine.blockIndex(b)];
      int cis = box.i().s() + child[0] * ni;
      int cjs = box.j().s() + child[1] * nj;
      int cks = box.k().s() + child[2] * nk;
      for (int k = cks; k < cks + nk; k++) {
        int fk = ndim > 2 ? (k - cks) * 2 + fineBox.k().s() : fineBox.k().s();
        for (int j = cjs; j < cjs + nj; j++) {
          int fj = ndim > 1 ? (j - cjs) * 2 + fineBox.j().s() : fineBox.j().s();
          restrictRow(fine, fineField, b, coarse.data(),
              coarse.index(coarseField, p, 0, k, j, cis), ni, fk, fj, fineBox.i().s(), ndim);
        }
      }
    }
  }

  /**
   * {@code n} coarse cells from {@code to} on: the average of their children, whose first is at
   * {@code (fk, fj, fi)} of block {@code b}.
   */
  private static void restrictRow(MeshData fine, int field, int b, double[] c, int to, int n,
      int fk, int fj, int fi, int ndim) {
    double[] f = fine.data();
    int at = fine.index(field, b, 0, fk, fj, fi);
    int sj = ndim > 1 ? fine.index(field, b, 0, fk, fj + 1, fi) - at : 0;
    int sk = ndim > 2 ? fine.index(field, b, 0, fk + 1, fj, fi) - at : 0;
    double v = fine.block(b).coords().cellVolume();
    double v010 = ndim > 1 ? v : 0.0;
    double v1 = ndim > 2 ? v : 0.0;
    double total = ((v + v010) + (v + v010)) + ((v1 + v1) + (v1 + v1));
    for (int n0 = 0; n0 < n; n0++, at += 2) {
      double t000 = v * f[at];
      double t001 = v * f[at + 1];
      double t010 = ndim > 1 ? v * f[at + sj] : 0.0;
      double t011 = ndim > 1 ? v * f[at + sj + 1] : 0.0;
      double t100 = 0.0;
      double t101 = 0.0;
      double t110 = 0.0;
      double t111 = 0.0;
      if (ndim > 2) {
        t100 = v * f[at + sk];
        t101 = v * f[at + sk + 1];
        t110 = v * f[at + sk + sj];
        t111 = v * f[at + sk + sj + 1];
      }
      c[to + n0] = (((t000 + t010) + (t001 + t011)) + ((t100 + t110) + (t101 + t111))) / total;
    }
  }

  /**
   * Prolongates, into the interior of {@code fineField} of every block of {@code fine} that has a
   * parent ({@code links}), the part of {@code coarseField} of its parent in {@code coarse} that it
   * covers (the parent's cells around it filled, ghosts included).
   *
   * @param nghost the ghost count of the leaf mesh, which fixes how Parthenon computes centres
   */
  void prolongate(MeshData coarse, int coarseField, CompositeLevels links, MeshData fine,
      int fineField, int nghost) {
    int ndim = fine.block(0).mesh().ndim();
    IndexBox box = IndexBox.of(coarse.block(0).cellBounds(), IndexDomain.INTERIOR);
    IndexBox fineBox = IndexBox.of(fine.block(0).cellBounds(), IndexDomain.INTERIOR);
    int hi = (fineBox.i().e() - fineBox.i().s() + 1) / 2;
    int hj = ndim > 1 ? (fineBox.j().e() - fineBox.j().s() + 1) / 2 : 1;
    int hk = ndim > 2 ? (fineBox.k().e() - fineBox.k().s() + 1) / 2 : 1;
    for (int b = 0; b < fine.numBlocks(); b++) {
      int p = parent(fine, b, links, coarse);
      if (p < 0) {
        continue;
      }
      int[] child = links.childIndex()[fine.blockIndex(b)];
      spacings(fine.block(b), nghost, ndim, box, fineBox, hi, hj, hk);
      for (int k = 0; k < hk; k++) {
        for (int j = 0; j < hj; j++) {
          prolongateRow(coarse, coarseField, p, box.k().s() + child[2] * hk + k,
              box.j().s() + child[1] * hj + j, box.i().s() + child[0] * hi, fine, fineField, b,
              fineBox.k().s() + 2 * k, fineBox.j().s() + 2 * j, fineBox.i().s(), k, j, hi, ndim);
        }
      }
    }
  }

  /**
   * Per axis and coarse cell {@code n} of block {@code b}'s part of its parent: the distances
   * from its centre to its neighbours' and to its children's (Parthenon's {@code dxm}, {@code
   * dxp}, {@code dxfm}, {@code dxfp}).
   */
  private void spacings(MeshBlock block, int nghost, int ndim, IndexBox box, IndexBox fineBox,
      int hi, int hj, int hk) {
    int[] half = {hi, hj, hk};
    int[] cs = {box.i().s(), box.j().s(), box.k().s()};
    int[] fs = {fineBox.i().s(), fineBox.j().s(), fineBox.k().s()};
    for (int d = 0; d < ndim; d++) {
      double fineDx = block.coords().dx(d);
      double fineOrigin = block.region().xmin(d) - nghost * fineDx;
      double coarseOrigin = fineOrigin + nghost * fineDx * (1 - 2);
      double coarseDx = fineDx * 2;
      for (int n = 0; n < half[d]; n++) {
        int at = cs[d] + n;
        int fat = fs[d] + 2 * n;
        double xc = centre(coarseOrigin, coarseDx, nghost - cs[d], at);
        below[d][n] = xc - centre(coarseOrigin, coarseDx, nghost - cs[d], at - 1);
        above[d][n] = centre(coarseOrigin, coarseDx, nghost - cs[d], at + 1) - xc;
        toLower[d][n] = xc - centre(fineOrigin, fineDx, nghost - fs[d], fat);
        toUpper[d][n] = centre(fineOrigin, fineDx, nghost - fs[d], fat + 1) - xc;
      }
    }
  }

  /**
   * Cell centre {@code x0 + (p + 0.5) dx} at Parthenon index {@code p = idx + shift} of a block
   * whose first cell (ghosts included) starts at {@code x0}: for a block's coarse buffer {@code
   * x0} is the fine block's {@code xmin - nghost dx} plus {@code nghost dx (1 - 2)}, and {@code dx}
   * twice the fine one, as Parthenon's GMG prolongation computes them.
   */
  private static double centre(double origin, double dx, int shift, int idx) {
    return origin + (idx + shift + 0.5) * dx;
  }

  /**
   * The children of the {@code n} coarse cells from {@code (pk, pj, pi)} of block {@code p}, whose
   * first child is at {@code (fk, fj, fi)} of block {@code b}: Parthenon's eight expressions
   * (absent ones skipped), with one-sided slopes along each active axis.
   */
  private void prolongateRow(MeshData coarse, int cf, int p, int pk, int pj, int pi,
      MeshData fine, int ff, int b, int fk, int fj, int fi, int k, int j, int n, int ndim) {
    double[] c = coarse.data();
    double[] f = fine.data();
    int at = coarse.index(cf, p, 0, pk, pj, pi);
    int cj = ndim > 1 ? coarse.index(cf, p, 0, pk, pj + 1, pi) - at : 0;
    int ck = ndim > 2 ? coarse.index(cf, p, 0, pk + 1, pj, pi) - at : 0;
    int to = fine.index(ff, b, 0, fk, fj, fi);
    int sj = ndim > 1 ? fine.index(ff, b, 0, fk, fj + 1, fi) - to : 0;
    int sk = ndim > 2 ? fine.index(ff, b, 0, fk + 1, fj, fi) - to : 0;
    double gm1 = 0.0;
    double gp1 = 0.0;
    double dm1 = 0.0;
    double dp1 = 0.0;
    double gm2 = 0.0;
    double gp2 = 0.0;
    double dm2 = 0.0;
    double dp2 = 0.0;
    for (int i = 0; i < n; i++, at++, to += 2) {
      double fc = c[at];
      double gm0 = (fc - c[at - 1]) / below[0][i];
      double gp0 = (c[at + 1] - fc) / above[0][i];
      double dm0 = toLower[0][i];
      double dp0 = toUpper[0][i];
      if (ndim > 1) {
        gm1 = (fc - c[at - cj]) / below[1][j];
        gp1 = (c[at + cj] - fc) / above[1][j];
        dm1 = toLower[1][j];
        dp1 = toUpper[1][j];
      }
      if (ndim > 2) {
        gm2 = (fc - c[at - ck]) / below[2][k];
        gp2 = (c[at + ck] - fc) / above[2][k];
        dm2 = toLower[2][k];
        dp2 = toUpper[2][k];
      }
      f[to] = fc - (gm0 * dm0 + gm1 * dm1 + gm2 * dm2);
      f[to + 1] = fc + (gp0 * dp0 - gm1 * dm1 - gm2 * dm2);
      if (ndim > 1) {
        f[to + sj] = fc - (gm0 * dm0 - gp1 * dp1 + gm2 * dm2);
        f[to + sj + 1] = fc + (gp0 * dp0 + gp1 * dp1 - gm2 * dm2);
      }
      if (ndim > 2) {
        f[to + sk] = fc - (gm0 * dm0 + gm1 * dm1 - gp2 * dp2);
        f[to + sk + 1] = fc + (gp0 * dp0 - gm1 * dm1 + gp2 * dp2);
        f[to + sk + sj] = fc - (gm0 * dm0 - gp1 * dp1 - gp2 * dp2);
        f[to + sk + sj + 1] = fc + (gp0 * dp0 + gp1 * dp1 + gp2 * dp2);
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
}
