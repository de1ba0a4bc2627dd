package org.metope.solvers;

import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.field.MeshData;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;

/**
 * A solver of {@code A u = rhs} on the mesh that runs as tasks of a package's lists, one list per
 * partition of a region: {@link ConjugateGradientSolver}, {@link BiCGStabSolver}.
 */
public interface LinearSolver {
  /**
   * Adds the solve of list {@code list} (of {@code lists}) over partition {@code md} after
   * {@code dependency}: {@code u} becomes the solution of {@code A u = rhs}, from {@code u = 0}.
   * Every list of the region adds it, in the same order on every rank.
   *
   * @param u the field id of the solution; its ghosts are not read
   * @param rhs the field id of the right-hand side
   * @return the task after which the solve has ended (converged or at its limit)
   */
  TaskId addTasks(TaskList tl, TaskId dependency, int list, int lists, MeshData md, int u,
      int rhs, BoundaryCommunication boundaries);

  /** Iterations of the last solve. */
  int iterations();

  /** The rms residual after the last iteration of the last solve. */
  double finalResidual();

  /** Whether the last solve reached its tolerance (false: it stopped at max_iterations). */
  boolean converged();
}
