package org.metope.solvers;

import org.metope.mesh.field.MeshData;

/**
 * A matrix-free linear operator a package supplies to a solver (Parthenon's equations class with
 * its {@code Ax}, as {@code PoissonEquation} in {@code example/poisson_gmg}): {@code y = A x} on
 * the interior cells of every block of a partition. The solver fills {@code x}'s ghosts before
 * the call; the operator reads them as its boundary values. Solvers that need a symmetric
 * positive definite operator (conjugate gradients) say so.
 */
@FunctionalInterface
public interface LinearOperator {
  /**
   * Writes {@code A x} into field {@code y} on the interior of every block of {@code md}.
   *
   * @param x the field id of the input (ghosts filled)
   * @param y the field id of the output
   */
  void apply(MeshData md, int x, int y);

  /**
   * Fills the ghosts of field {@code x} beyond the mesh's physical faces, after the solver's ghost
   * exchange and before {@code A} reads them (Parthenon's package boundary functions, such as the
   * {@code FixedFace} conditions of {@code poisson_gmg}). By default it leaves them as they are.
   */
  default void boundary(MeshData md, int x) {}
}
