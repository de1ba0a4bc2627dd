package org.metope.examples.advection;

import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.mesh.ForwardingBoundaryCommunication;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.input.ParameterInput;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskStatus;

/**
 * The real exchange with a broken boundary condition, for failure tests: start-up works, every
 * step fails in the task this adds after the exchange.
 */
final class FailingBoundaries extends ForwardingBoundaryCommunication {
  FailingBoundaries(ParameterInput pin) {
    super(InOneBoundaryCommunication.fromInput(pin));
  }

  @Override
  public TaskId addBoundaryExchange(TaskId dependency, TaskList list, MeshData md) {
    TaskId exchanged = super.addBoundaryExchange(dependency, list, md);
    return list.addTask(exchanged, "ApplyBoundaryConditions", () -> applyBoundaryConditions(md));
  }

  @Override
  public TaskStatus applyBoundaryConditions(MeshData md) {
    return TaskStatus.FAIL;
  }
}
