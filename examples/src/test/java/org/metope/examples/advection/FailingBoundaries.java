package org.metope.examples.advection;

import org.metope.examples.testing.UniformGhostExchange;
import org.metope.mesh.Mesh;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.field.MeshData;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskStatus;

/** A broken boundary condition for failure tests: start-up works, every step fails. */
final class FailingBoundaries implements BoundaryCommunication {
  private final UniformGhostExchange initial = new UniformGhostExchange();

  @Override
  public void setup(Mesh mesh) {
    initial.setup(mesh);
  }

  @Override
  public TaskStatus startReceiveBoundaries(MeshData md) {
    return initial.startReceiveBoundaries(md);
  }

  @Override
  public TaskStatus startReceiveFluxCorrections(MeshData md) {
    return TaskStatus.COMPLETE;
  }

  @Override
  public TaskId addBoundaryExchange(TaskId dependency, TaskList list, MeshData md) {
    TaskId exchanged = initial.addBoundaryExchange(dependency, list, md);
    return list.addTask(exchanged, "ApplyBoundaryConditions", () -> applyBoundaryConditions(md));
  }

  @Override
  public TaskId addFluxCorrection(TaskId dependency, TaskList list, MeshData md) {
    return dependency;
  }

  @Override
  public TaskStatus applyBoundaryConditions(MeshData md) {
    return TaskStatus.FAIL;
  }

  @Override
  public void fillGhosts(Mesh mesh, String container) {
    initial.fillGhosts(mesh, container);
  }
}
