package org.metope.mesh;

/**
 * What lies beyond one face of a block (Parthenon's {@code BoundaryFlag}).
 *
 * <p>{@code BLOCK}: another block, so the ghosts are filled by communication. {@code PERIODIC}:
 * the face is on a periodic mesh boundary; ghosts are also filled by communication, from the
 * block on the other side. {@code USER}: the face is on a physical mesh boundary whose condition
 * is a named function ({@code outflow}, {@code reflecting} or one an application registers).
 */
public enum BoundaryFlag {
  /** Another block lies beyond the face. */
  BLOCK,
  /** A periodic mesh boundary: the block on the opposite side of the mesh lies beyond the face. */
  PERIODIC,
  /** A physical mesh boundary with a named boundary condition. */
  USER;

  /** The flag a mesh boundary gets from its deck name ({@code ix1_bc = ...}). */
  public static BoundaryFlag ofName(String name) {
    return "periodic".equals(name) ? PERIODIC : USER;
  }
}
