package org.metope.solvers;

import org.metope.mesh.field.MeshData;

/**
 * A {@link LinearOperator} that multigrid can smooth with: it also gives the diagonal of its
 * matrix (Parthenon's {@code SetDiagonal}), which the Jacobi smoother divides by. The operator is
 * applied on every multigrid level, so it reads its coefficients and cell sizes from the
 * partition it is given.
 */
public interface MultigridOperator extends LinearOperator {
  /** Writes the (possibly approximate) diagonal of {@code A} into field {@code d} on the interior. */
  void diagonal(MeshData md, int d);
}
