package org.metope.kernels.body;

import org.metope.kernels.table.BoundaryIndex;
import org.metope.kernels.table.BoundaryTable;

import static org.metope.kernels.table.BoundaryTable.BUFFER_OFFSET;
import static org.metope.kernels.table.BoundaryTable.COARSE_DX1;
import static org.metope.kernels.table.BoundaryTable.COARSE_XMIN1;
import static org.metope.kernels.table.BoundaryTable.FINE_DX1;
import static org.metope.kernels.table.BoundaryTable.FINE_NI;
import static org.metope.kernels.table.BoundaryTable.FINE_NJ;
import static org.metope.kernels.table.BoundaryTable.FINE_XMIN1;
import static org.metope.kernels.table.BoundaryTable.IE;
import static org.metope.kernels.table.BoundaryTable.IS;
import static org.metope.kernels.table.BoundaryTable.JE;
import static org.metope.kernels.table.BoundaryTable.JS;
import static org.metope.kernels.table.BoundaryTable.KE;
import static org.metope.kernels.table.BoundaryTable.KS;
import static org.metope.kernels.table.BoundaryTable.NCOMP;
import static org.metope.kernels.table.BoundaryTable.NDIM;
import static org.metope.kernels.table.BoundaryTable.OP;
import static org.metope.kernels.table.BoundaryTable.SLOPES;
import static org.metope.kernels.table.BoundaryTable.SPARSE_THRESHOLD;
import static org.metope.kernels.table.BoundaryTable.VAR_NI;
import static org.metope.kernels.table.BoundaryTable.VAR_NJ;

/**
 * Kernel bodies of the walks over whole boundaries that change resolution: restriction (into a
 * buffer while loading, or into var) and prolongation. The arithmetic of one row lives in {@link
 * RefinementOps} and the arena indices of a row in {@link BoundaryIndex}; a row's parameters are
 * read from the table here, once ({@link #restrictionMask}, {@link #restrictionWeight}, {@link
 * #prolongateBoxRow}). The walks hoist what every row of a boundary shares out of their row
 * loop; {@link RowKernels} reaches the same row bodies one row at a time. Their plane and row
 * loops end at {@code < e + 1}, not {@code <= e}: C2 compiles a {@code <=} loop with a limit check
 * that fails the first time the loop runs once (every k loop of a 2D mesh), and then compiles the
 * whole walk again (docs/PERFORMANCE.md, "What the JIT compiles").
 */
public final class RefinementKernels {
  private RefinementKernels() {}

  /**
   * Restricts the fine children of every cell of boundary {@code b}'s box, writing either the
   * boundary's buffer slice (load) or the box of var (restrictBlocks).
   *
   * @param source the data arena holding the fine layout, and var when writing var
   * @param target the buffer arena when {@code intoBuffer}, else ignored (var is in source)
   * @return when {@code intoBuffer}, 1 if some value reached the sparse threshold; else 0
   */
  public static int restrictBoundary(int b, int n, int[] ints, double[] reals, double[] source,
      double[] target, boolean intoBuffer) {
    if (ElementRefinementKernels.isElementRow(b, n, ints)) {
      // Face, edge and node fields restrict into coarse buffers only, never into a buffer slice.
      ElementRefinementKernels.restrict(b, n, ints, reals, source);
      return 0;
    }
    final int ncomp = ints[NCOMP * n + b];
    final int js = ints[JS * n + b];
    final int je = ints[JE * n + b];
    final int ks = ints[KS * n + b];
    final int ke = ints[KE * n + b];
    final int count = ints[IE * n + b] - ints[IS * n + b] + 1;
    final int fni = ints[FINE_NI * n + b];
    final int fineK = fni * ints[FINE_NJ * n + b];
    final int mask = restrictionMask(b, n, ints);
    final double weight = restrictionWeight(b, n, ints, reals);
    final double total = RefinementOps.totalWeight(mask, weight);
    final double threshold = reals[SPARSE_THRESHOLD * n + b];
    final double[] out = intoBuffer ? target : source;
    int bufferPos = ints[BUFFER_OFFSET * n + b];
    int nonzero = 0;
    for (int c = 0; c < ncomp; c++) {
      for (int k = ks; k < ke + 1; k++) {
        for (int j = js; j < je + 1; j++) {
          final int to = intoBuffer ? bufferPos : BoundaryIndex.varRow(b, n, ints, c, k, j);
          RefinementOps.restrictRow(source, BoundaryIndex.fineRow(b, n, ints, c, k, j), fni,
              fineK, mask, weight, total, out, to, count);
          if (intoBuffer && nonzero == 0) {
            nonzero = BufferKernels.anyAtLeast(out, to, count, threshold);
          }
          bufferPos += count;
        }
      }
    }
    return nonzero;
  }

  /**
   * Prolongates boundary {@code b}: every cell of the box of var (the coarse buffer) is spread over
   * its 2, 4 or 8 fine children with the row's slopes, min-mod limited or linear (a face, edge or node field's row:
   * {@link ElementRefinementKernels#prolongate}).
   */
  public static void prolongateBoundary(int b, int n, int[] ints, double[] reals, double[] data) {
    if (ElementRefinementKernels.isElementRow(b, n, ints)) {
      ElementRefinementKernels.prolongate(b, n, ints, reals, data);
      return;
    }
    final int ncomp = ints[NCOMP * n + b];
    final int js = ints[JS * n + b];
    final int je = ints[JE * n + b];
    final int ks = ints[KS * n + b];
    final int ke = ints[KE * n + b];
    for (int c = 0; c < ncomp; c++) {
      for (int k = ks; k < ke + 1; k++) {
        for (int j = js; j < je + 1; j++) {
          prolongateBoxRow(b, n, ints, reals, data, c, k, j);
        }
      }
    }
  }

  /**
   * Prolongates row {@code (c, k, j)} of boundary {@code b}'s box: the coarse cells of var from
   * {@code IS} to {@code IE} onto their fine children.
   */
  static void prolongateBoxRow(int b, int n, int[] ints, double[] reals, double[] data, int c,
      int k, int j) {
    final int is = ints[IS * n + b];
    final int vni = ints[VAR_NI * n + b];
    final int fni = ints[FINE_NI * n + b];
    RefinementOps.prolongateRow(data, BoundaryIndex.varRow(b, n, ints, c, k, j), vni,
        vni * ints[VAR_NJ * n + b], BoundaryIndex.fineRow(b, n, ints, c, k, j), fni,
        fni * ints[FINE_NJ * n + b], ints[IE * n + b] - is + 1, ints[NDIM * n + b], is,
        BoundaryIndex.fineI(b, n, ints), j, BoundaryIndex.fineJ(b, n, ints, j), k,
        BoundaryIndex.fineK(b, n, ints, k), b, n, reals,
        ints[SLOPES * n + b] == BoundaryTable.SLOPES_LINEAR);
  }

  /** The directions boundary {@code b}'s restriction averages ({@link RefinementOps}). */
  static int restrictionMask(int b, int n, int[] ints) {
    return RefinementOps.restrictionMask(ints[OP * n + b], ints[NDIM * n + b]);
  }

  /** The weight of one fine term of boundary {@code b}'s restriction ({@link RefinementOps}). */
  static double restrictionWeight(int b, int n, int[] ints, double[] reals) {
    return RefinementOps.restrictionWeight(ints[OP * n + b], reals[FINE_DX1 * n + b],
        reals[(FINE_DX1 + 2) * n + b], reals[(FINE_DX1 + 4) * n + b]);
  }

  /** Cell-centre coordinate of index {@code idx}, as Parthenon's uniform Cartesian X(). */
  public static double center(double xmin, double dx, int idx) {
    return xmin + (idx + 0.5) * dx;
  }

  /** Coarse xmin of direction {@code d} (0, 1, 2) of boundary {@code b}. */
  static double coarseXmin(double[] reals, int n, int b, int d) {
    return reals[(COARSE_XMIN1 + 2 * d) * n + b];
  }

  /** Coarse dx of direction {@code d} of boundary {@code b}. */
  static double coarseDx(double[] reals, int n, int b, int d) {
    return reals[(COARSE_DX1 + 2 * d) * n + b];
  }

  /** Fine xmin of direction {@code d} of boundary {@code b}. */
  static double fineXmin(double[] reals, int n, int b, int d) {
    return reals[(FINE_XMIN1 + 2 * d) * n + b];
  }

  /** Fine dx of direction {@code d} of boundary {@code b}. */
  static double fineDx(double[] reals, int n, int b, int d) {
    return reals[(FINE_DX1 + 2 * d) * n + b];
  }
}
