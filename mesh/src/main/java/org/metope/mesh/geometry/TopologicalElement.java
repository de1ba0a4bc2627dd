package org.metope.mesh.geometry;

/**
 * Where on a cell a value lives (Parthenon's {@code TopologicalElement}): the cell centre, a face
 * (normal to x1, x2 or x3), an edge (along x1, x2 or x3) or a node. A non-cell-centred value has
 * one more index than cells along each axis in which its element is offset by half a cell.
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

  TopologicalElement(int offsetI, int offsetJ, int offsetK) {
    this.offsetI = offsetI;
    this.offsetJ = offsetJ;
    this.offsetK = offsetK;
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
}
