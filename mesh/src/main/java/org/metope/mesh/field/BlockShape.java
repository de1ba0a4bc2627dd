package org.metope.mesh.field;

/**
 * Cells of one block along each direction, ghosts included: the array extents of a cell field on
 * one block. A direction that is not used has extent 1 (a 2D mesh has {@code nk = 1}).
 *
 * @param ni cells along x1 (i, fastest)
 * @param nj cells along x2 (j)
 * @param nk cells along x3 (k, slowest)
 */
public record BlockShape(int ni, int nj, int nk) {
  /** Checks that every extent is at least 1 and that a used direction implies the ones before. */
  public BlockShape {
    if (ni < 1 || nj < 1 || nk < 1) {
      throw new IllegalArgumentException("block shape ni=" + ni + " nj=" + nj + " nk=" + nk
          + " must have every extent at least 1");
    }
    if (nj == 1 && nk > 1) {
      throw new IllegalArgumentException("block shape ni=" + ni + " nj=" + nj + " nk=" + nk
          + " uses x3 without x2");
    }
  }

  /** Cells in one block: {@code ni * nj * nk}. */
  public long cells() {
    return (long) ni * nj * nk;
  }

  /** Dimensions in use: 1, 2 or 3 (Parthenon's {@code 1 + (nj > 1) + (nk > 1)}). */
  public int dimensions() {
    return 1 + (nj > 1 ? 1 : 0) + (nk > 1 ? 1 : 0);
  }
}
