package org.metope.kernels.table;

/**
 * An inclusive range of cell indices in one block, as Parthenon writes index ranges
 * ({@code is..ie}, {@code js..je}, {@code ks..ke}). Indices count ghost cells, so the first
 * interior cell of a block with two ghost layers is 2.
 *
 * @param is first i
 * @param ie last i
 * @param js first j
 * @param je last j
 * @param ks first k
 * @param ke last k
 */
public record IndexBox(int is, int ie, int js, int je, int ks, int ke) {

  /** Checks that the box is not empty. */
  public IndexBox {
    if (ie < is || je < js || ke < ks) {
      throw new IllegalArgumentException("empty index box: is=" + is + " ie=" + ie + " js=" + js
          + " je=" + je + " ks=" + ks + " ke=" + ke);
    }
  }

  /** Cells along i. */
  public int ni() {
    return ie - is + 1;
  }

  /** Cells along j. */
  public int nj() {
    return je - js + 1;
  }

  /** Cells along k. */
  public int nk() {
    return ke - ks + 1;
  }

  /** Number of cells in the box. */
  public int cells() {
    return ni() * nj() * nk();
  }
}
