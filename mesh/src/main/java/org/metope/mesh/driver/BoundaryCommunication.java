package org.metope.mesh.driver;

import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskStatus;

/**
 * What the driver needs from boundary communication, declared here so that {@code mesh} never
 * depends on the module that implements it ({@code bvals}).
 */
public interface BoundaryCommunication {
  /** Builds channels, tags and caches for the mesh's current blocks; again after every remesh. */
  void setup(Mesh mesh);

  /** Adds send, receive, set, prolongation and physical boundary tasks; returns the last one. */
  TaskId addBoundaryExchange(TaskId dependency, TaskList tl, MeshData md);

  /** Adds the flux-correction tasks (nothing on a single-level mesh); returns the last one. */
  TaskId addFluxCorrection(TaskId dependency, TaskList tl, MeshData md);

  /** Posts the receives of a partition's boundary exchange (start of a stage). */
  TaskStatus startReceiveBoundBufs(MeshData md);

  /** Posts the receives of a partition's flux corrections. */
  TaskStatus startReceiveFluxCorrections(MeshData md);

  /** Applies physical boundary conditions (outflow, reflecting, user) to a partition's ghosts. */
  TaskStatus applyBoundaryConditions(MeshData md);

  /** Fills every ghost cell of {@code container}: a complete exchange of every partition. */
  void fillGhosts(Mesh mesh, String container);
}
