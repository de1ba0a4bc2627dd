package org.metope.solvers;

import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.view.IndexBox;
import org.metope.tasking.IterativeTasks;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskStatus;

/**
 * {@code out = M in}, an approximate inverse of the operator that a Krylov solver applies before
 * each application of {@code A} (Parthenon's BiCGSTAB with {@code precondition = true} applies
 * one multigrid V-cycle: {@link MultigridSolver#preconditioner}). {@link #IDENTITY} copies.
 */
@FunctionalInterface
public interface Preconditioner {
  /** No preconditioning: {@code out = in} on the interior. */
  Preconditioner IDENTITY = (group, dependency, list, md, in, out) ->
      group.addTask(dependency, "copy_unpreconditioned", () -> {
        FieldOps.copy(md, IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR), in, out);
        return TaskStatus.COMPLETE;
      });

  /**
   * Adds the tasks writing {@code M in} into field {@code out} on the interior of partition
   * {@code md} (list {@code list} of its region) after {@code dependency}; returns the last.
   */
  TaskId add(IterativeTasks group, TaskId dependency, int list, MeshData md, int in, int out);
}
