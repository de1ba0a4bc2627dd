package org.metope.examples.advection;

import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.mesh.Mesh;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.input.ParameterInput;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskStatus;

/**
 * The real boundary communication, except that after start-up every step waits forever for a
 * message that never comes, as a lost message or a dead peer would make it.
 */
final class StallingBoundaries implements BoundaryCommunication {
  private final InOneBoundaryCommunication real;

  StallingBoundaries(ParameterInput pin) {
    real = InOneBoundaryCommunication.fromInput(pin);
  }

  @Override
  public void setup(Mesh mesh) {
    real.setup(mesh);
  }

  @Override
  public TaskStatus startReceiveBoundaries(MeshData md) {
    return real.startReceiveBoundaries(md);
  }

  @Override
  public TaskStatus startReceiveFluxCorrections(MeshData md) {
    return real.startReceiveFluxCorrections(md);
  }

  @Override
  public TaskId addBoundaryExchange(TaskId dependency, TaskList list, MeshData md) {
    TaskId lost = list.addTask(dependency, "receive_lost_message", () -> TaskStatus.INCOMPLETE);
    return real.addBoundaryExchange(lost, list, md);
  }

  @Override
  public TaskId addFluxCorrection(TaskId dependency, TaskList list, MeshData md) {
    return real.addFluxCorrection(dependency, list, md);
  }

  @Override
  public TaskStatus applyBoundaryConditions(MeshData md) {
    return real.applyBoundaryConditions(md);
  }

  @Override
  public void fillGhosts(Mesh mesh, String container) {
    real.fillGhosts(mesh, container);
  }

  @Override
  public String describeChannels() {
    return real.describeChannels();
  }
}
