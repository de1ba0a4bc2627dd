package org.metope.examples.advection;

import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.input.ParameterInput;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskStatus;

/**
 * The real exchange with a broken boundary condition, for failure tests: start-up works, every
 * step fails in the task this adds after the exchange.
 */
final class FailingBoundaries implements BoundaryCommunication {
  private final InOneBoundaryCommunication exchange;

  FailingBoundaries(ParameterInput pin) {
    this.exchange = InOneBoundaryCommunication.fromInput(pin);
  }

  @Override
  public void setup(Mesh mesh) {
    exchange.setup(mesh);
  }

  @Override
  public void release() {
    exchange.release();
  }

  @Override
  public TaskStatus startReceiveBoundaries(MeshData md) {
    return exchange.startReceiveBoundaries(md);
  }

  @Override
  public TaskStatus startReceiveFluxCorrections(MeshData md) {
    return exchange.startReceiveFluxCorrections(md);
  }

  @Override
  public TaskId addBoundaryExchange(TaskId dependency, TaskList list, MeshData md) {
    TaskId exchanged = exchange.addBoundaryExchange(dependency, list, md);
    return list.addTask(exchanged, "ApplyBoundaryConditions", () -> applyBoundaryConditions(md));
  }

  @Override
  public TaskId addFluxCorrection(TaskId dependency, TaskList list, MeshData md) {
    return exchange.addFluxCorrection(dependency, list, md);
  }

  @Override
  public TaskStatus applyBoundaryConditions(MeshData md) {
    return TaskStatus.FAIL;
  }

  @Override
  public void fillGhosts(Mesh mesh, String container) {
    exchange.fillGhosts(mesh, container);
  }
}
