package org.metope.mesh.field;

/**
 * A package's source term: adds its contribution to {@code dU/dt} after the flux divergence of
 * a stage has been written there, so the stage update integrates fluxes and sources together
 * with the integrator's weights.
 */
@FunctionalInterface
public interface SourceTerm {
  /**
   * Adds the sources of the stage state {@code in} to {@code dudt}, on the interior cells of
   * every block of the partition (both arguments cover the same blocks).
   */
  void addSource(MeshData in, MeshData dudt);
}
