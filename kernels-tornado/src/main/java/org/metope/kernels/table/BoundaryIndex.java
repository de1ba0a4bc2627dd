package org.metope.kernels.table;

import static org.metope.kernels.table.BoundaryTable.FINE_NI;
import static org.metope.kernels.table.BoundaryTable.FINE_NJ;
import static org.metope.kernels.table.BoundaryTable.FINE_NK;
import static org.metope.kernels.table.BoundaryTable.FINE_OFFSET;
import static org.metope.kernels.table.BoundaryTable.FINE_ORIGIN_I;
import static org.metope.kernels.table.BoundaryTable.FINE_ORIGIN_J;
import static org.metope.kernels.table.BoundaryTable.FINE_ORIGIN_K;
import static org.metope.kernels.table.BoundaryTable.IS;
import static org.metope.kernels.table.BoundaryTable.NDIM;
import static org.metope.kernels.table.BoundaryTable.VAR_NI;
import static org.metope.kernels.table.BoundaryTable.VAR_NJ;
import static org.metope.kernels.table.BoundaryTable.VAR_NK;
import static org.metope.kernels.table.BoundaryTable.VAR_OFFSET;

/**
 * The arena indices of one row of a boundary's box, read from the columns of a {@link
 * BoundaryTable}: the only place the kernels number the cells of var ({@link BlockLayout}'s
 * formula) and of the fine layout (the coarse-to-fine mapping the table's javadoc draws). A row
 * is component {@code c}, box plane {@code k} and box row {@code j}; it starts at box column
 * {@code IS}. Both backends reach every index through here: the JVM walks call it once per row or
 * component, a device thread once for its row.
 */
public final class BoundaryIndex {
  private BoundaryIndex() {}

  /** Arena index of var cell {@code (c, k, j, IS)} of boundary {@code b}. */
  public static int varRow(int b, int n, int[] ints, int c, int k, int j) {
    return ints[VAR_OFFSET * n + b]
        + ((c * ints[VAR_NK * n + b] + k) * ints[VAR_NJ * n + b] + j) * ints[VAR_NI * n + b]
        + ints[IS * n + b];
  }

  /** Fine j of the first fine child of box row {@code j} (j itself when x2 is inactive). */
  public static int fineJ(int b, int n, int[] ints, int j) {
    return ints[FINE_ORIGIN_J * n + b] + (ints[NDIM * n + b] >= 2 ? 2 : 1) * j;
  }

  /** Fine k of the first fine child of box plane {@code k} (k itself when x3 is inactive). */
  public static int fineK(int b, int n, int[] ints, int k) {
    return ints[FINE_ORIGIN_K * n + b] + (ints[NDIM * n + b] >= 3 ? 2 : 1) * k;
  }

  /** Fine i of the first fine child of box column {@code IS}, within the fine layout. */
  public static int fineI(int b, int n, int[] ints) {
    return ints[FINE_ORIGIN_I * n + b] + 2 * ints[IS * n + b];
  }

  /**
   * Arena index of the first fine child of box cell {@code (c, k, j, IS)}: a row of {@code 2 *
   * (IE - IS + 1)} fine cells starts there, and as many on the next fine j row (2D, 3D) and the
   * next fine k rows (3D).
   */
  public static int fineRow(int b, int n, int[] ints, int c, int k, int j) {
    final int fni = ints[FINE_NI * n + b];
    return ints[FINE_OFFSET * n + b]
        + ((c * ints[FINE_NK * n + b] + fineK(b, n, ints, k)) * ints[FINE_NJ * n + b]
            + fineJ(b, n, ints, j)) * fni
        + fineI(b, n, ints);
  }
}
