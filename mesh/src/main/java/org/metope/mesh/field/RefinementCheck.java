package org.metope.mesh.field;

/**
 * A package's refinement criterion over one partition (Parthenon's {@code CheckRefinementMesh}).
 */
@FunctionalInterface
public interface RefinementCheck {
  /**
   * Writes one {@link AmrTag} value per block of {@code md}: {@code tags[b]} for block {@code b}
   * of the partition. The array arrives filled with {@link AmrTag#DEREFINE_VALUE}, so a package
   * need only write the blocks it wants kept or refined.
   */
  void check(MeshData md, int[] tags);
}
