package org.metope.mesh;

import java.util.Set;
import org.metope.kernels.KernelBackend;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskStatus;

/**
 * A boundary communication that passes every call to the one it wraps; a test double overrides
 * the calls it changes (a negative control switching one step off).
 */
public class ForwardingBoundaryCommunication implements BoundaryCommunication {
  private final BoundaryCommunication wrapped;

  public ForwardingBoundaryCommunication(BoundaryCommunication wrapped) {
    this.wrapped = wrapped;
  }

  @Override
  public void setup(Mesh mesh) {
    wrapped.setup(mesh);
  }

  @Override
  public void setup(Mesh mesh, Set<LogicalLocation> newlyRefined) {
    wrapped.setup(mesh, newlyRefined);
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
    return wrapped.startReceiveFluxCorrections(md);
  }

  @Override
  public TaskId addBoundaryExchange(TaskId dependency, TaskList list, MeshData md) {
    return wrapped.addBoundaryExchange(dependency, list, md);
  }

  @Override
  public TaskId addFluxCorrection(TaskId dependency, TaskList list, MeshData md) {
    return wrapped.addFluxCorrection(dependency, list, md);
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

  @Override
  public String describeChannels() {
    return wrapped.describeChannels();
  }
}
