package org.metope.mesh.swarm;

import org.metope.mesh.BoundaryFace;
import org.metope.mesh.field.Swarm;
import org.metope.mesh.geometry.RegionSize;

/**
 * A user particle boundary condition (Parthenon's {@code SBValFunc}, registered with {@code
 * RegisterSwarmBoundaryCondition}): called by {@link SwarmExchange#send} for each particle that
 * has left the mesh through a face whose deck name it is registered under. Where Parthenon's
 * function loops over a block's whole swarm, this one is given one particle, in slot order.
 */
@FunctionalInterface
public interface SwarmBoundaryFunction {
  /**
   * Puts the particle in slot {@code slot} of {@code swarm}, beyond {@code face} of the mesh
   * {@code meshSize}, back inside the mesh along that face's axis (its position and any of its
   * values, e.g. a reflected velocity), or says to remove it.
   *
   * @return true to keep the particle (now inside along the face's axis), false to remove it
   */
  boolean apply(Swarm swarm, int slot, BoundaryFace face, RegionSize meshSize);
}
