package org.metope.mesh.geometry;

/**
 * Where on a cell a value lives (Parthenon's {@code TopologicalElement}): the cell centre, a face
 * (normal to x1, x2 or x3), an edge (along x1, x2 or x3) or a node. A non-cell-centred value has
 * one more index than cells along each axis in which its element is offset by half a cell.
 *
 * <p>A field's topology has one element ({@code CC}, {@code NN}) or three (the faces {@code
 * F1..F3}, the edges {@code E1..E3}); {@link #elementIndex} numbers an element within its
 * topology, as Parthenon's {@code static_cast<int>(el) % 3}, and is where its values sit in the
 * field's storage.
 */
public enum TopologicalElement {
  /** Cell centre. */
  CC(0, 0, 0),
  /** Face normal to x1. */
  F1(1, 0, 0),
  /** Face normal to x2. */
  F2(0, 1, 0),
  /** Face normal to x3. */
  F3(0, 0, 1),
  /** Edge along x1. */
  E1(0, 1, 1),
  /** Edge along x2. */
  E2(1, 0, 1),
  /** Edge along x3. */
  E3(1, 1, 0),
  /** Node (cell corner). */
  NN(1, 1, 1);

  private final int offsetI;
  private final int offsetJ;
  private final int offsetK;
  /** From the declaration order CC, F1..F3, E1..E3, NN: the place after CC, modulo 3. */
  private final int elementIndex = ordinal() == 0 ? 0 : (ordinal() - 1) % 3;

  TopologicalElement(int offsetI, int offsetJ, int offsetK) {
    this.offsetI = offsetI;
    this.offsetJ = offsetJ;
    this.offsetK = offsetK;
  }

  /**
   * The element's place within its topology: 0, 1, 2 for {@code F1..F3} and {@code E1..E3}, 0 for
   * {@code CC} and {@code NN}.
   */
  public int elementIndex() {
    return elementIndex;
  }

  /** 1 when the element sits on a cell boundary along x1 (one more index along i), else 0. */
  public int offsetI() {
    return offsetI;
  }

  /** 1 when the element sits on a cell boundary along x2, else 0. */
  public int offsetJ() {
    return offsetJ;
  }

  /** 1 when the element sits on a cell boundary along x3, else 0. */
  public int offsetK() {
    return offsetK;
  }

  /** 1 when the element sits on a cell boundary along {@code axis} (0, 1, 2), else 0. */
  public int offset(int axis) {
    return axis == 0 ? offsetI : axis == 1 ? offsetJ : offsetK;
  }

  /**
   * The coarse elements whose insides prolongation fills, in Parthenon's order ({@code
   * IterateInnerProlongationRestrictionLoop}): nodes, edges, faces, the cell.
   */
  public static final java.util.List<TopologicalElement> FILL_ORDER =
      java.util.List.of(NN, E3, E2, E1, F1, F2, F3, CC);

  /**
   * Whether this element lies on the boundary or inside of {@code outer} along the first {@code
   * ndim} axes and differs from it there (Parthenon's {@code IsSubmanifold}, less the pairs that
   * differ only along inactive axes, whose internal averages change nothing).
   */
  public boolean liesIn(TopologicalElement outer, int ndim) {
    boolean inside = true;
    boolean differs = false;
    for (int axis = 0; axis < ndim; axis++) {
      inside &= offset(axis) >= outer.offset(axis);
      differs |= offset(axis) != outer.offset(axis);
    }
    return inside && differs;
  }

  /** Whether some of {@code elements} {@link #liesIn} {@code outer} along the first ndim axes. */
  public static boolean anyLiesIn(java.util.List<TopologicalElement> elements,
      TopologicalElement outer, int ndim) {
    for (TopologicalElement el : elements) {
      if (el.liesIn(outer, ndim)) {
        return true;
      }
    }
    return false;
  }
}
