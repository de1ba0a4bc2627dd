package org.metope.kernels.body;

import org.metope.kernels.table.BoundaryIndex;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;

import static org.metope.kernels.table.BoundaryTable.ELEMENT_0;
import static org.metope.kernels.table.BoundaryTable.FINE_DX1;
import static org.metope.kernels.table.BoundaryTable.FINE_NI;
import static org.metope.kernels.table.BoundaryTable.FINE_NJ;
import static org.metope.kernels.table.BoundaryTable.FINE_NK;
import static org.metope.kernels.table.BoundaryTable.FINE_OFFSET;
import static org.metope.kernels.table.BoundaryTable.IE;
import static org.metope.kernels.table.BoundaryTable.INNER_ELEMENT;
import static org.metope.kernels.table.BoundaryTable.IS;
import static org.metope.kernels.table.BoundaryTable.JE;
import static org.metope.kernels.table.BoundaryTable.JS;
import static org.metope.kernels.table.BoundaryTable.KE;
import static org.metope.kernels.table.BoundaryTable.KS;
import static org.metope.kernels.table.BoundaryTable.NCOMP;
import static org.metope.kernels.table.BoundaryTable.NDIM;
import static org.metope.kernels.table.BoundaryTable.OP;
import static org.metope.kernels.table.BoundaryTable.OWNED_0;
import static org.metope.kernels.table.BoundaryTable.PLANES_PER_ELEMENT;
import static org.metope.kernels.table.BoundaryTable.VAR_NI;
import static org.metope.kernels.table.BoundaryTable.VAR_NJ;

/**
 * Restriction and prolongation of face, edge and node fields across a level boundary, for rows
 * whose planes are topological elements ({@link BoundaryTable#ELEMENT_0}): Parthenon's {@code
 * RestrictAverage}, {@code ProlongateSharedMinMod}, {@code ProlongateInternalAverage} and {@code
 * ProlongateInternalTothAndRoe} (src/prolong_restrict/pr_ops.hpp) on uniform Cartesian
 * coordinates, term by term. An element is "centred" along an axis on which it does not sit on
 * cell boundaries; it averages and spreads only along its centred active axes, and a fine value
 * on a coarse element's position takes that coarse value there.
 *
 * <p>Index mapping as for cells ({@link BoundaryIndex}): coarse {@code (k, j, i)} has its first
 * fine point at {@code (fk, fj, fi)}. Each element's box ends one index before the row's box
 * along a centred active axis. Shared prolongation and internal prolongation write only the box
 * points the row's OWNED mask marks (Parthenon masks its prolongation indexers by ownership); a
 * second pass over the internal rows runs after every shared row, since it reads their values.
 */
public final class ElementRefinementKernels {
  private ElementRefinementKernels() {}

  /** Whether boundary {@code b}'s planes are elements of a face, edge or node field. */
  public static boolean isElementRow(int b, int n, int[] ints) {
    return ints[ELEMENT_0 * n + b] != 0;
  }

  /** The element code of plane {@code c} of boundary {@code b}. */
  static int elementOf(int b, int n, int[] ints, int c) {
    return ints[(ELEMENT_0 + c / ints[PLANES_PER_ELEMENT * n + b]) * n + b];
  }

  /** Bit d set when element {@code code} is centred along active axis d (a restriction mask). */
  static int centred(int code, int ndim) {
    int mask = 0;
    for (int d = 0; d < ndim; d++) {
      mask |= BoundaryTable.onFaces(code, d) ? 0 : 1 << d;
    }
    return mask;
  }

  /**
   * Restricts every element of boundary {@code b}'s box into var: each coarse value is the
   * length, area or volume weighted average of the fine values on it (Parthenon's {@code
   * Volume<el>}: the product of fine widths along the element's centred axes, inactive ones
   * included; 1 for a node).
   */
  public static void restrict(int b, int n, int[] ints, double[] reals, double[] data) {
    final int ndim = ints[NDIM * n + b];
    final int fni = ints[FINE_NI * n + b];
    final int fineK = fni * ints[FINE_NJ * n + b];
    final int ncomp = ints[NCOMP * n + b];
    for (int c = 0; c < ncomp; c++) {
      final int code = elementOf(b, n, ints, c);
      final int mask = centred(code, ndim);
      double weight = 1.0;
      for (int d = 0; d < 3; d++) {
        weight *= BoundaryTable.onFaces(code, d) ? 1.0 : reals[(FINE_DX1 + 2 * d) * n + b];
      }
      final double total = RefinementOps.totalWeight(mask, weight);
      final int count = ints[IE * n + b] - ints[IS * n + b] + 1 - (mask & 1);
      final int je = ints[JE * n + b] - (mask >> 1 & 1);
      final int ke = ints[KE * n + b] - (mask >> 2 & 1);
      for (int k = ints[KS * n + b]; k <= ke; k++) {
        for (int j = ints[JS * n + b]; j <= je; j++) {
          RefinementOps.restrictRow(data, BoundaryIndex.fineRow(b, n, ints, c, k, j), fni, fineK,
              mask, weight, total, data, BoundaryIndex.varRow(b, n, ints, c, k, j), count);
        }
      }
    }
  }

  /**
   * Prolongates boundary {@code b}: a PROLONGATE row spreads the elements of its box from var
   * onto the fine points on them (minmod-limited slopes along the element's centred axes, the
   * coarse value along the others); an internal row ({@link BoundaryOp#INTERNAL_AVERAGE}, {@link
   * BoundaryOp#INTERNAL_TOTH_AND_ROE}) fills the fine values inside its coarse elements from
   * those the shared prolongation set on their boundaries.
   */
  public static void prolongate(int b, int n, int[] ints, double[] reals, double[] data) {
    final int ncomp = ints[NCOMP * n + b];
    final int ndim = ints[NDIM * n + b];
    final int op = ints[OP * n + b];
    final boolean internal = BoundaryOp.isInternal(op);
    final int inner = ints[INNER_ELEMENT * n + b];
    final int is = ints[IS * n + b];
    final int js = ints[JS * n + b];
    final int ks = ints[KS * n + b];
    final int countI = ints[IE * n + b] - is + 1;
    final int countJ = ints[JE * n + b] - js + 1;
    final int countK = ints[KE * n + b] - ks + 1;
    for (int c = 0; c < ncomp; c++) {
      final int code = elementOf(b, n, ints, c);
      if (internal && !isSubmanifold(code, inner, ndim)) {
        continue;
      }
      // A shared row's box holds all elements: each element's own ends one earlier where centred.
      final int shrink = internal ? 0 : centred(code, ndim);
      final int owned = internal ? ints[OWNED_0 * n + b] : BufferKernels.ownedMask(b, n, ints, c);
      for (int k = ks; k < ks + countK - (shrink >> 2 & 1); k++) {
        for (int j = js; j < js + countJ - (shrink >> 1 & 1); j++) {
          final int fine = BoundaryIndex.fineRow(b, n, ints, c, k, j);
          final int coarse = BoundaryIndex.varRow(b, n, ints, c, k, j);
          for (int i = is; i < is + countI - (shrink & 1); i++) {
            if (!isOwned(owned, i - is, countI, j - js, countJ, k - ks, countK)) {
              continue;
            }
            final int f = fine + 2 * (i - is);
            if (!internal) {
              prolongatePoint(b, n, ints, reals, data, coarse + i - is, f, shrink, i, j, k);
            } else if (op == BoundaryOp.INTERNAL_TOTH_AND_ROE) {
              tothAndRoe(b, n, ints, reals, data, c, BoundaryIndex.fineK(b, n, ints, k),
                  BoundaryIndex.fineJ(b, n, ints, j),
                  BoundaryIndex.fineI(b, n, ints) + 2 * (i - is));
            } else {
              average(b, n, ints, data, f, code, inner, ndim);
            }
          }
        }
      }
    }
  }

  private static boolean isOwned(int owned, int i, int ni, int j, int nj, int k, int nk) {
    return (owned >> BoundaryTable.ownedBit(BufferKernels.boxClass(i, ni),
        BufferKernels.boxClass(j, nj), BufferKernels.boxClass(k, nk)) & 1) == 1;
  }

  /**
   * Parthenon's {@code ProlongateSharedGeneral<true, false>::Do} for one coarse point {@code
   * coarse} at index {@code (k, j, i)} whose first fine point is {@code fine}; {@code mask} holds
   * the centred active axes (spacings and slopes of the others are zero).
   */
  private static void prolongatePoint(int b, int n, int[] ints, double[] reals, double[] data,
      int coarse, int fine, int mask, int i, int j, int k) {
    final int vni = ints[VAR_NI * n + b];
    final int vnk = vni * ints[VAR_NJ * n + b];
    final int fni = ints[FINE_NI * n + b];
    final int fnk = fni * ints[FINE_NJ * n + b];
    final boolean x1 = (mask & 1) != 0;
    final boolean x2 = (mask & 2) != 0;
    final boolean x3 = (mask & 4) != 0;
    final double fc = data[coarse];
    final int fi = BoundaryIndex.fineI(b, n, ints) + 2 * (i - ints[IS * n + b]);
    final int fj = BoundaryIndex.fineJ(b, n, ints, j);
    final int fk = BoundaryIndex.fineK(b, n, ints, k);
    final double g1 = x1 ? slope(reals, n, b, 0, i, fc, data[coarse - 1], data[coarse + 1]) : 0.0;
    final double g2 = x2 ? slope(reals, n, b, 1, j, fc, data[coarse - vni], data[coarse + vni])
        : 0.0;
    final double g3 = x3 ? slope(reals, n, b, 2, k, fc, data[coarse - vnk], data[coarse + vnk])
        : 0.0;
    final double d1m = x1 ? RefinementOps.toFirstChild(reals, n, b, 0, i, fi) : 0.0;
    final double d1p = x1 ? RefinementOps.toSecondChild(reals, n, b, 0, i, fi) : 0.0;
    final double d2m = x2 ? RefinementOps.toFirstChild(reals, n, b, 1, j, fj) : 0.0;
    final double d2p = x2 ? RefinementOps.toSecondChild(reals, n, b, 1, j, fj) : 0.0;
    final double d3m = x3 ? RefinementOps.toFirstChild(reals, n, b, 2, k, fk) : 0.0;
    final double d3p = x3 ? RefinementOps.toSecondChild(reals, n, b, 2, k, fk) : 0.0;
    data[fine] = fc - (g1 * d1m + g2 * d2m + g3 * d3m);
    if (x1) {
      data[fine + 1] = fc + (g1 * d1p - g2 * d2m - g3 * d3m);
    }
    if (x2) {
      data[fine + fni] = fc - (g1 * d1m - g2 * d2p + g3 * d3m);
    }
    if (x2 && x1) {
      data[fine + fni + 1] = fc + (g1 * d1p + g2 * d2p - g3 * d3m);
    }
    if (x3) {
      data[fine + fnk] = fc - (g1 * d1m + g2 * d2m - g3 * d3p);
    }
    if (x3 && x1) {
      data[fine + fnk + 1] = fc + (g1 * d1p - g2 * d2m + g3 * d3p);
    }
    if (x3 && x2) {
      data[fine + fnk + fni] = fc - (g1 * d1m - g2 * d2p - g3 * d3p);
    }
    if (x3 && x2 && x1) {
      data[fine + fnk + fni + 1] = fc + (g1 * d1p + g2 * d2p + g3 * d3p);
    }
  }

  /** The minmod slope along axis {@code d} at coarse index {@code idx}. */
  private static double slope(double[] reals, int n, int b, int d, int idx, double fc, double fm,
      double fp) {
    return RefinementOps.minmod(fc, fm, fp, RefinementOps.spacingBelow(reals, n, b, d, idx),
        RefinementOps.spacingAbove(reals, n, b, d, idx));
  }

  /**
   * Whether element {@code fel} lies on the boundary or inside of element {@code cel} and is not
   * it (Parthenon's {@code IsSubmanifold}): centred only where {@code cel} is centred.
   */
  static boolean isSubmanifold(int fel, int cel, int ndim) {
    int fc = centred(fel, ndim);
    return fel != cel && (fc & ~centred(cel, ndim)) == 0 && fc != centred(cel, ndim);
  }

  /**
   * Parthenon's {@code ProlongateInternalAverage::Do} for one coarse element whose first fine
   * point is {@code fine}: every fine {@code fel} value inside it is the average of its two,
   * four or eight neighbours one fine step away along the axes where {@code cel} is centred and
   * {@code fel} is not.
   */
  private static void average(int b, int n, int[] ints, double[] data, int fine, int fel,
      int cel, int ndim) {
    final int sj = ints[FINE_NI * n + b];
    final int sk = sj * ints[FINE_NJ * n + b];
    final int centreF = centred(fel, ndim);
    final int stencil = centred(cel, ndim) & ~centreF;
    final double w = 1.0 / ((1.0 + (stencil >> 2 & 1)) * (1.0 + (stencil >> 1 & 1))
        * (1.0 + (stencil & 1)));
    for (int ok = 0; ok <= (centreF >> 2 & 1); ok++) {
      for (int oj = 0; oj <= (centreF >> 1 & 1); oj++) {
        for (int oi = 0; oi <= (centreF & 1); oi++) {
          final int target = fine + (ok + (stencil >> 2 & 1)) * sk
              + (oj + (stencil >> 1 & 1)) * sj + oi + (stencil & 1);
          double f = 0.0;
          for (int tk = -(stencil >> 2 & 1); tk <= (stencil >> 2 & 1); tk += 2) {
            for (int tj = -(stencil >> 1 & 1); tj <= (stencil >> 1 & 1); tj += 2) {
              for (int ti = -(stencil & 1); ti <= (stencil & 1); ti += 2) {
                f += w * data[target + tk * sk + tj * sj + ti];
              }
            }
          }
          data[target] = f;
        }
      }
    }
  }

  /**
   * Toth and Roe's fill of plane {@code c}'s face element inside the coarse cell whose first fine
   * cell is {@code (fk, fj, fi)} ({@link FaceRefinementOps#tothAndRoe}).
   */
  private static void tothAndRoe(int b, int n, int[] ints, double[] reals, double[] data, int c,
      int fk, int fj, int fi) {
    final int ppe = ints[PLANES_PER_ELEMENT * n + b];
    final int fni = ints[FINE_NI * n + b];
    final int fnj = ints[FINE_NJ * n + b];
    final int plane = fni * fnj * ints[FINE_NK * n + b];
    final int base = ints[FINE_OFFSET * n + b] + (c % ppe) * plane;
    FaceRefinementOps.tothAndRoe(data, base, ppe * plane, fni, fnj, ints[NDIM * n + b], c / ppe,
        fk, fj, fi, RefinementKernels.coarseDx(reals, n, b, 0),
        RefinementKernels.coarseDx(reals, n, b, 1), RefinementKernels.coarseDx(reals, n, b, 2));
  }
}
