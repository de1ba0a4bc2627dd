package org.metope.mesh.field;

import java.util.List;
import org.metope.kernels.body.StageLaunch;

/**
 * A package's fluxes (Parthenon's {@code CalculateFluxes}): fills the face fluxes of the
 * package's cell fields declared {@link MetadataFlag#WITH_FLUXES} on every block of a partition,
 * from the partition's current cell values, ghosts included. A multi-stage flux driver calls it
 * once per stage and partition, then corrects fluxes at fine/coarse faces and forms {@code dU/dt}
 * from their divergence.
 *
 * <p>A flux function that looks fields up by name (a {@code PackDescriptor}, a field id) does so
 * once, in {@link #resolve}, which the mesh calls when it resolves the packages: a missing field
 * or one without flux storage then stops the run at set-up, before anything is computed.
 */
@FunctionalInterface
public interface FluxFunction {
  /**
   * Computes the fluxes of {@code fields} on every block of {@code md}.
   *
   * @param fields the ids of the package's cell fields with fluxes, in id order (resolved once
   *     by the driver, so the call allocates nothing to find them)
   */
  void calculateFluxes(MeshData md, int[] fields);

  /**
   * Looks up what the function needs in the resolved fields of every package, once, when the
   * mesh resolves them ({@link org.metope.mesh.Mesh#initializeFields}); nothing by default.
   *
   * @throws SetupError for a field that is missing or lacks what the function needs
   */
  default void resolve(ResolvedState state) {}

  /**
   * The same fluxes as {@link #calculateFluxes} on {@code md}, described as stage launches that
   * a device-resident kernel backend runs on its copy of the arena (built once per partition,
   * launched every stage); null (the default) when the function runs on the host only.
   */
  default List<StageLaunch> fluxLaunches(MeshData md, int[] fields) {
    return null;
  }
}
