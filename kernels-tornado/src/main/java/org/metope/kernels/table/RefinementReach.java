package org.metope.kernels.table;

/**
 * Checks, at build time, that a refinement boundary's kernels stay inside their blocks: the fine
 * children of every box cell (of every element's box, on a face, edge or node field's row) lie in
 * the fine layout, and prolongation's one-cell stencil around the box lies in var.
 */
final class RefinementReach {
  private static final String[] AXES = {"i", "j", "k"};

  private RefinementReach() {}

  /** Checks boundary {@code b} whose int columns start at {@code row[at]}. */
  static void check(int b, int[] row, int at) {
    int op = row[at + BoundaryTable.OP];
    int ndim = row[at + BoundaryTable.NDIM];
    // Columns run i, j, k: box bounds two apart (IS, IE, JS, ...), extents and origins one apart.
    for (int d = 0; d < 3; d++) {
      boolean active = d < ndim;
      int factor = active ? 2 : 1;
      int boxStart = row[at + BoundaryTable.IS + 2 * d];
      int boxEnd = row[at + BoundaryTable.IE + 2 * d];
      int varExtent = row[at + BoundaryTable.VAR_NI + d];
      int fineExtent = row[at + BoundaryTable.FINE_NI + d];
      int origin = row[at + BoundaryTable.FINE_ORIGIN_I + d];
      int fineFirst = origin + factor * boxStart;
      if (BoundaryOp.isInternal(op)) {
        // Fine values inside the coarse element reach its far side: two fine steps on.
        boolean across = active && !BoundaryTable.onFaces(row[at + BoundaryTable.INNER_ELEMENT], d);
        checkFine(b, d, fineFirst, origin + factor * boxEnd + (across ? 2 : 0),
            fineExtent);
        continue;
      }
      for (int e = 0; e < 3; e++) {
        int code = row[at + BoundaryTable.ELEMENT_0 + e];
        if (e > 0 && code == 0) {
          break;
        }
        // A cell row averages or spreads along every active axis but a flux's normal; an
        // element only along the active axes on which it does not sit on cell boundaries, and
        // its own box ends one before the box of all elements there.
        boolean spread = code == 0
            ? active && (op == BoundaryOp.PROLONGATE || op != BoundaryOp.FLUX_X1 + d)
            : active && !BoundaryTable.onFaces(code, d);
        int end = boxEnd - (code != 0 && spread ? 1 : 0);
        checkFine(b, d, fineFirst, origin + factor * end + (spread ? 1 : 0), fineExtent);
        if (op == BoundaryOp.PROLONGATE && spread
            && (boxStart < 1 || end + 1 >= varExtent)) {
          throw outside(b, "prolongation stencil along " + AXES[d] + " needs var cells "
              + (boxStart - 1) + ".." + (end + 1) + " inside extent " + varExtent);
        }
      }
    }
  }

  private static void checkFine(int b, int d, int fineFirst, int fineLast, int extent) {
    if (fineFirst < 0 || fineLast >= extent) {
      throw outside(b, "fine children along " + AXES[d] + " span " + fineFirst + ".."
          + fineLast + " outside fine extent " + extent);
    }
  }

  /** The error, built only when a check fails: cache builds call this for every boundary. */
  private static IllegalArgumentException outside(int b, String what) {
    return new IllegalArgumentException("refinement boundary reaches outside its block: b=" + b
        + " " + what);
  }
}
