package org.metope.mesh.field;

/**
 * A package's refinement criterion on one block (Parthenon's {@code CheckRefinementBlock}). The
 * block's tag is the maximum of this answer, the package's partition-level criterion and every
 * other package's.
 */
@FunctionalInterface
public interface BlockRefinementCheck {
  /**
   * The {@link AmrTag} value partition block {@code b} of {@code md} asks for: -1 (derefine), 0
   * (keep) or 1 (refine).
   */
  int check(MeshData md, int b);
}
