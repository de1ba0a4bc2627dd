package org.metope.mesh;

import org.metope.kernels.KernelBackend;
import org.metope.mesh.field.MeshData;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskStatus;

/**
 * A boundary communication with flux correction switched off (a negative control): fluxes at
 * fine/coarse faces are not replaced by the restricted fine fluxes, so a conservative scheme
 * loses conservation on a refined mesh. Everything else is the wrapped communication's.
 */
public final class WithoutFluxCorrection implements BoundaryCommunication {
  private final BoundaryCommunication wrapped;

  public WithoutFluxCorrection(BoundaryCommunication wrapped) {
    this.wrapped = wrapped;
  }

  @Override
  public void setup(Mesh mesh) {
    wrapped.setup(mesh);
  }

  @Override
  public void release() {
    wrapped.release();
  }

  @Override
  public TaskStatus startReceiveBoundaries(MeshData md) {
    return wrapped.startReceiveBoundaries(md);
  }

  @Override
  public TaskStatus startReceiveFluxCorrections(MeshData md) {
    return TaskStatus.COMPLETE;
  }

  @Override
  public TaskId addBoundaryExchange(TaskId dependency, TaskList list, MeshData md) {
    return wrapped.addBoundaryExchange(dependency, list, md);
  }

  @Override
  public TaskId addFluxCorrection(TaskId dependency, TaskList list, MeshData md) {
    return dependency;
  }

  @Override
  public TaskStatus applyBoundaryConditions(MeshData md) {
    return wrapped.applyBoundaryConditions(md);
  }

  @Override
  public void fillGhosts(Mesh mesh, String container) {
    wrapped.fillGhosts(mesh, container);
  }

  @Override
  public KernelBackend kernels() {
    return wrapped.kernels();
  }
}
