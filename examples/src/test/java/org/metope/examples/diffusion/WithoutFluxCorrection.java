package org.metope.examples.diffusion;

import org.metope.kernels.KernelBackend;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskStatus;

/**
 * The framework's boundary communication with flux correction switched off, for the negative
 * control: fluxes at fine/coarse faces keep the coarse block's own values instead of the
 * restricted fine fluxes, so heat leaks there.
 */
final class WithoutFluxCorrection implements BoundaryCommunication {
  private final BoundaryCommunication wrapped;

  WithoutFluxCorrection(BoundaryCommunication wrapped) {
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
