package org.metope.mesh;

import org.metope.mesh.field.MeshData;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskStatus;

/**
 * A boundary communication with flux correction switched off (a negative control): fluxes at
 * fine/coarse faces are not replaced by the restricted fine fluxes, so a conservative scheme
 * loses conservation on a refined mesh. Everything else is the wrapped communication's.
 */
public final class WithoutFluxCorrection extends ForwardingBoundaryCommunication {
  public WithoutFluxCorrection(BoundaryCommunication wrapped) {
    super(wrapped);
  }

  @Override
  public TaskStatus startReceiveFluxCorrections(MeshData md) {
    return TaskStatus.COMPLETE;
  }

  @Override
  public TaskId addFluxCorrection(TaskId dependency, TaskList list, MeshData md) {
    return dependency;
  }
}
