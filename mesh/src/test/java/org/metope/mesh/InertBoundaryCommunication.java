package org.metope.mesh;


import org.metope.mesh.field.MeshData;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskStatus;

/**
 * Boundary communication that exchanges nothing: every task completes at once and adds no task.
 * Test doubles extend it and override what they record.
 */
public class InertBoundaryCommunication implements BoundaryCommunication {
  @Override
  public void setup(Mesh mesh) {}

  @Override
  public TaskStatus startReceiveBoundaries(MeshData md) {
    return TaskStatus.COMPLETE;
  }

  @Override
  public TaskStatus startReceiveFluxCorrections(MeshData md) {
    return TaskStatus.COMPLETE;
  }

  @Override
  public TaskId addBoundaryExchange(TaskId dependency, TaskList list, MeshData md) {
    return dependency;
  }

  @Override
  public TaskId addFluxCorrection(TaskId dependency, TaskList list, MeshData md) {
    return dependency;
  }

  @Override
  public TaskStatus applyBoundaryConditions(MeshData md) {
    return TaskStatus.COMPLETE;
  }

  @Override
  public void fillGhosts(Mesh mesh, String container) {}
}
