package org.metope.mesh.view;

import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexRange;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * The cells a loop covers: inclusive ranges along {@code k}, {@code j} and {@code i} (Parthenon's
 * {@code kb, jb, ib} from {@code IndexShape::GetBoundsK/J/I}). Made from a block's {@link
 * IndexShape} and an {@link IndexDomain}, for cell centres or faces; {@link #expand} adds ghost
 * layers, e.g. {@code IndexBox.of(cells, INTERIOR).expand(X1DIR, 1, 1)} for a stencil that needs
 * one ghost on each side along x1. An inactive axis keeps its single index 0.
 *
 * @param k range along x3
 * @param j range along x2
 * @param i range along x1
 */
public record IndexBox(IndexRange k, IndexRange j, IndexRange i) {
  /** The cell-centred {@code domain} of {@code shape}. */
  public static IndexBox of(IndexShape shape, IndexDomain domain) {
    return of(shape, domain, TopologicalElement.CC);
  }

  /**
   * The {@code domain} of {@code shape} for values on {@code element}: {@code F1} gives the x1
   * faces, one more index along {@code i} than cells.
   */
  public static IndexBox of(IndexShape shape, IndexDomain domain, TopologicalElement element) {
    return new IndexBox(shape.bounds(2, domain, element), shape.bounds(1, domain, element),
        shape.bounds(0, domain, element));
  }

  /**
   * This box grown by {@code below} indices at the lower end and {@code above} at the upper end
   * along {@code direction} (1 for {@code i}, 2 for {@code j}, 3 for {@code k}); negative values
   * shrink it.
   */
  public IndexBox expand(int direction, int below, int above) {
    return switch (direction) {
      case CoordinateDirection.X1DIR -> new IndexBox(k, j, grow(i, below, above));
      case CoordinateDirection.X2DIR -> new IndexBox(k, grow(j, below, above), i);
      case CoordinateDirection.X3DIR -> new IndexBox(grow(k, below, above), j, i);
      default -> throw new IllegalArgumentException("direction=" + direction + " must be 1..3");
    };
  }

  private static IndexRange grow(IndexRange r, int below, int above) {
    return new IndexRange(r.s() - below, r.e() + above);
  }

  /** Cells in the box (0 when a range is empty). */
  public long size() {
    return (long) k.size() * j.size() * i.size();
  }
}
