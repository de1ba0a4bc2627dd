package org.metope.examples.particletracers;

import org.metope.examples.advection.AdvectionFluxes;
import org.metope.examples.advection.AdvectionTimestep;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;

/**
 * The two packages of Parthenon's particle_tracers example: {@code advection_package} (cell
 * fields {@code advected} and {@code tracer_deposition} carried by a constant velocity with
 * donor-cell fluxes, deck block {@code <Background>}) and {@code particles_package} (swarm {@code
 * tracers} with an integer {@code id}, deck block {@code <Tracers>}).
 */
final class TracersPackages {
  /** The fluid's deck block. */
  static final String BACKGROUND = "Background";
  /** The tracers' deck block. */
  static final String TRACERS = "Tracers";
  /** The swarm. */
  static final String SWARM = "tracers";
  /** The advected density. */
  static final String ADVECTED = "advected";
  /** Tracers per cell, deposited after each step. */
  static final String DEPOSITION = "tracer_deposition";

  private TracersPackages() {}

  /** {@code advection_package}: velocity {@code vx, vy, vz} (1, 0, 0) and {@code cfl} (0.3). */
  static StateDescriptor advection(ParameterInput pin) {
    StateDescriptor pkg = new StateDescriptor("advection_package");
    pkg.addParam("vx", pin.getOrAddReal(BACKGROUND, "vx", 1.0));
    pkg.addParam("vy", pin.getOrAddReal(BACKGROUND, "vy", 0.0));
    pkg.addParam("vz", pin.getOrAddReal(BACKGROUND, "vz", 0.0));
    pkg.addParam("cfl", pin.getOrAddReal(BACKGROUND, "cfl", 0.3));
    // What the shared donor-cell kernel reads: a constant velocity, one field (advected).
    pkg.addUnwrittenParam("v_const", true);
    pkg.addUnwrittenParam("num_vars", 1);
    Metadata field = Metadata.of(Metadata.CELL, Metadata.INDEPENDENT, Metadata.FILL_GHOST,
        Metadata.WITH_FLUXES);
    pkg.addField(ADVECTED, field);
    pkg.addField(DEPOSITION, field);
    pkg.setEstimateTimestep(new AdvectionTimestep(pkg.params()));
    pkg.setCalculateFluxes(new AdvectionFluxes(pkg.params()));
    return pkg;
  }

  /** {@code particles_package}: {@code num_tracers} (100) over the whole mesh. */
  static StateDescriptor particles(ParameterInput pin) {
    StateDescriptor pkg = new StateDescriptor("particles_package");
    // Read as a real and truncated, as Parthenon does; out of an int's range is refused.
    double tracers = pin.getOrAddReal(TRACERS, "num_tracers", 100);
    if (tracers < 0 || tracers >= Integer.MAX_VALUE + 1.0) {
      throw pin.error(TRACERS, "num_tracers", "a number of tracers from 0 to "
          + Integer.MAX_VALUE);
    }
    pkg.addParam("num_tracers", (int) tracers);
    pkg.addSwarm(SWARM, Metadata.of(Metadata.PROVIDES, Metadata.NONE));
    pkg.addSwarmValue("id", SWARM, Metadata.of(Metadata.INTEGER));
    return pkg;
  }
}
