package org.metope.mesh.view;

/**
 * An {@link IndexBox} in a view's cell numbering, for {@link ParFor#flat}: cell {@code (k, j, i)}
 * is number {@code c = k * kStride + j * jStride + i} (the same for every component, block and
 * field of one shape, and for their fluxes), and the range is, per k plane, the consecutive
 * numbers from cell {@code (k, j.s, i.s)} to cell {@code (k, j.e, i.e)}. It therefore covers the
 * box <b>and the cells between its rows</b> (those with {@code i} outside the box, e.g. ghost
 * columns): a kernel run on it must be one whose results there are never read, and whose
 * neighbours stay inside the block, like a face flux whose divergence reads interior faces only.
 * Where that does not hold, loop over the box with {@link ParFor#cells}.
 *
 * <p>Made by a view ({@link VariablePack#flatRange}, {@link FieldView#flatRange}), which knows the
 * strides.
 *
 * @param ks first k plane
 * @param ke last k plane (inclusive)
 * @param kStride distance between k planes
 * @param first number of the first cell of plane 0, {@code j.s * jStride + i.s}
 * @param length cell numbers per plane, {@code (j.e - j.s) * jStride + i.e - i.s + 1}
 */
public record FlatRange(int ks, int ke, int kStride, int first, int length) {
  /**
   * The range of {@code box} in a numbering with strides {@code jStride}, {@code kStride} of
   * blocks of {@code nk x nj x ni} cells; an empty box gives an empty range.
   *
   * @throws IllegalArgumentException when the box leaves the block or a row is wider than
   *     {@code jStride}
   */
  static FlatRange of(IndexBox box, int nk, int nj, int ni, int jStride, int kStride) {
    if (box.size() == 0) {
      return new FlatRange(0, -1, kStride, 0, 0);
    }
    require("k", box.k().s(), box.k().e(), nk);
    require("j", box.j().s(), box.j().e(), nj);
    require("i", box.i().s(), box.i().e(), ni);
    if (ni > jStride) {
      throw new IllegalArgumentException("rows of ni=" + ni + " overlap at jStride=" + jStride);
    }
    return new FlatRange(box.k().s(), box.k().e(), kStride,
        box.j().s() * jStride + box.i().s(),
        (box.j().e() - box.j().s()) * jStride + box.i().e() - box.i().s() + 1);
  }

  /** The distance between neighbouring cell numbers along {@code direction} (1..3). */
  static int stride(int direction, int jStride, int kStride) {
    return switch (direction) {
      case CoordinateDirection.X1DIR -> 1;
      case CoordinateDirection.X2DIR -> jStride;
      case CoordinateDirection.X3DIR -> kStride;
      default -> throw new IllegalArgumentException("direction=" + direction + " must be 1..3");
    };
  }

  private static void require(String axis, int start, int end, int extent) {
    if (start < 0 || end >= extent) {
      throw new IllegalArgumentException("box " + axis + "=" + start + ".." + end
          + " leaves the block's [0, " + extent + ")");
    }
  }

  /** Cell numbers the range visits per block, the cells between rows included. */
  public long count() {
    return (long) (ke - ks + 1) * length;
  }
}
