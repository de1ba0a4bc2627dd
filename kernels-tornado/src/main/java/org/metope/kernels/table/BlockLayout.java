package org.metope.kernels.table;

/**
 * Where one (field instance, block) lives in a flat data arena, and the only place that says how
 * its cells are numbered. Ghost cells are included; components come first, then k, j and i, with i
 * fastest:
 *
 * <pre>
 *   arena: ... | block A of field f | block B of field f | ... | coarse copy of A | ...
 *              ^ offset
 *   inside a block:
 *     index(c, k, j, i) = offset + ((c * nk + k) * nj + j) * ni + i
 *
 *        c = 0                         c = 1
 *   +--------------------+       +--------------------+
 *   | k = 0: nj rows of  |  ...  | k = 0 ...          |
 *   |        ni cells    |       |                    |
 *   | k = 1 ...          |       |                    |
 *   +--------------------+       +--------------------+
 *   strides: i -> 1, j -> ni, k -> ni*nj, c -> ni*nj*nk
 * </pre>
 *
 * Inactive dimensions have extent 1 (a 2D block has {@code nk == 1}). A coarse copy of a block (the
 * "coarse buffer" that prolongation reads) is laid out the same way at its own offset.
 *
 * @param offset index of cell (0, 0, 0, 0) in the arena
 * @param ncomp number of components
 * @param nk cells along x3, ghosts included
 * @param nj cells along x2, ghosts included
 * @param ni cells along x1, ghosts included
 */
public record BlockLayout(int offset, int ncomp, int nk, int nj, int ni) {

  /** Checks that every extent is positive and the offset is not negative. */
  public BlockLayout {
    if (offset < 0 || ncomp < 1 || nk < 1 || nj < 1 || ni < 1) {
      throw new IllegalArgumentException("bad block layout: offset=" + offset + " ncomp=" + ncomp
          + " nk=" + nk + " nj=" + nj + " ni=" + ni);
    }
  }

  /** Arena index of cell (c, k, j, i). */
  public int index(int c, int k, int j, int i) {
    return offset + ((c * nk + k) * nj + j) * ni + i;
  }

  /** Number of doubles the block occupies: ncomp * nk * nj * ni. */
  public int size() {
    return ncomp * nk * nj * ni;
  }

  /** Arena index one past the last cell. */
  public int end() {
    return offset + size();
  }

  /** Whether (k, j, i) lies inside the block, ghosts included. */
  public boolean contains(int k, int j, int i) {
    return k >= 0 && k < nk && j >= 0 && j < nj && i >= 0 && i < ni;
  }
}
