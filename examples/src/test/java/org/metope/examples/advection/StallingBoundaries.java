package org.metope.examples.advection;

import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.mesh.ForwardingBoundaryCommunication;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.input.ParameterInput;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskStatus;

/**
 * The real boundary communication, except that after start-up every step waits forever for a
 * message that never comes, as a lost message or a dead peer would make it.
 */
final class StallingBoundaries extends ForwardingBoundaryCommunication {
  StallingBoundaries(ParameterInput pin) {
    super(InOneBoundaryCommunication.fromInput(pin));
  }

  @Override
  public TaskId addBoundaryExchange(TaskId dependency, TaskList list, MeshData md) {
    TaskId lost = list.addTask(dependency, "receive_lost_message", () -> TaskStatus.INCOMPLETE);
    return super.addBoundaryExchange(lost, list, md);
  }
}
