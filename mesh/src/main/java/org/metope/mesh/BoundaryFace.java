package org.metope.mesh;

/** The six faces of a block or of the mesh, in Parthenon's order (inner x1 first). */
public enum BoundaryFace {
  /** The face at the lower end of x1. */
  INNER_X1,
  /** The face at the upper end of x1. */
  OUTER_X1,
  /** The face at the lower end of x2. */
  INNER_X2,
  /** The face at the upper end of x2. */
  OUTER_X2,
  /** The face at the lower end of x3. */
  INNER_X3,
  /** The face at the upper end of x3. */
  OUTER_X3;

  /** The faces in order, kept: {@code values()} copies its array at every call. */
  private static final BoundaryFace[] FACES = values();

  /** The axis normal to this face: 0 for x1, 1 for x2, 2 for x3. */
  public int axis() {
    return ordinal() / 2;
  }

  /** Whether this is the upper face of its axis. */
  public boolean isOuter() {
    return ordinal() % 2 == 1;
  }

  /** The face of {@code axis} at its lower ({@code outer = false}) or upper end. */
  public static BoundaryFace of(int axis, boolean outer) {
    return FACES[2 * axis + (outer ? 1 : 0)];
  }

  /** The deck key naming this face's condition, e.g. {@code ix1_bc} or {@code ox3_bc}. */
  public String deckKey() {
    return (isOuter() ? "o" : "i") + "x" + (axis() + 1) + "_bc";
  }
}
