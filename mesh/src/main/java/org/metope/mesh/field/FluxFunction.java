package org.metope.mesh.field;

/**
 * A package's fluxes (Parthenon's {@code CalculateFluxes}): fills the face fluxes of the
 * package's cell fields declared {@link MetadataFlag#WITH_FLUXES} on every block of a partition,
 * from the partition's current cell values, ghosts included. A multi-stage flux driver calls it
 * once per stage and partition, then corrects fluxes at fine/coarse faces and forms {@code dU/dt}
 * from their divergence.
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
}
