package org.metope.kernels.table;

/**
 * Checks, at build time, that a refinement boundary's kernels stay inside their blocks: the fine
 * children of every box cell lie in the fine layout, and prolongation's one-cell stencil around the
 * box lies in var.
 */
final class RefinementReach {
  private static final String[] AXES = {"i", "j", "k"};

  private RefinementReach() {}

  /** Checks boundary {@code b} whose int columns start at {@code row[at]}. */
  static void check(int b, int[] row, int at) {
    int op = row[at + BoundaryTable.OP];
    int ndim = row[at + BoundaryTable.NDIM];
    int[] boxStart = {row[at + BoundaryTable.IS], row[at + BoundaryTable.JS],
        row[at + BoundaryTable.KS]};
    int[] boxEnd = {row[at + BoundaryTable.IE], row[at + BoundaryTable.JE],
        row[at + BoundaryTable.KE]};
    int[] varExtent = {row[at + BoundaryTable.VAR_NI], row[at + BoundaryTable.VAR_NJ],
        row[at + BoundaryTable.VAR_NK]};
    int[] fineExtent = {row[at + BoundaryTable.FINE_NI], row[at + BoundaryTable.FINE_NJ],
        row[at + BoundaryTable.FINE_NK]};
    int[] origin = {row[at + BoundaryTable.FINE_ORIGIN_I], row[at + BoundaryTable.FINE_ORIGIN_J],
        row[at + BoundaryTable.FINE_ORIGIN_K]};
    for (int d = 0; d < 3; d++) {
      boolean active = d < ndim;
      int factor = active ? 2 : 1;
      boolean twoChildren = op == BoundaryOp.PROLONGATE
          ? active
          : active && op != BoundaryOp.FLUX_X1 + d;
      int fineFirst = origin[d] + factor * boxStart[d];
      int fineLast = origin[d] + factor * boxEnd[d] + (twoChildren ? 1 : 0);
      if (fineFirst < 0 || fineLast >= fineExtent[d]) {
        throw outside(b, "fine children along " + AXES[d] + " span " + fineFirst + ".."
            + fineLast + " outside fine extent " + fineExtent[d]);
      }
      if (op == BoundaryOp.PROLONGATE && active
          && (boxStart[d] < 1 || boxEnd[d] + 1 >= varExtent[d])) {
        throw outside(b, "prolongation stencil along " + AXES[d] + " needs var cells "
            + (boxStart[d] - 1) + ".." + (boxEnd[d] + 1) + " inside extent " + varExtent[d]);
      }
    }
  }

  /** The error, built only when a check fails: cache builds call this for every boundary. */
  private static IllegalArgumentException outside(int b, String what) {
    return new IllegalArgumentException("refinement boundary reaches outside its block: b=" + b
        + " " + what);
  }
}
