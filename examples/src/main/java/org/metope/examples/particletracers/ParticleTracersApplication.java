package org.metope.examples.particletracers;

import java.util.List;

import org.metope.app.ApplicationDescriptor;
import org.metope.app.DescribedApplication;
import org.metope.app.Simulation;
import org.metope.driver.Driver;
import org.metope.driver.FluxDriver;
import org.metope.driver.ProblemGenerator;
import org.metope.driver.UserWork;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.Params;
import org.metope.mesh.input.ParameterInput;

/**
 * Parthenon's {@code particle_tracers} example (inputs/particle_tracers.in): a density advected
 * by a constant velocity with donor-cell fluxes, and tracer particles drawn from it that move
 * with the same velocity, cross blocks and ranks, and are counted per cell after every step.
 */
public final class ParticleTracersApplication extends DescribedApplication {
  /** Registered by name in the examples' service list. */
  public ParticleTracersApplication() {
    super(ApplicationDescriptor.of("particle_tracers", TracersPackages.TRACERS,
        "tracer particles advected with a density (inputs/particle_tracers.in)"));
  }

  @Override
  public List<String> otherDeckBlocks() {
    return List.of(TracersPackages.BACKGROUND);
  }

  @Override
  public Packages processPackages(ParameterInput pin) {
    Packages packages = new Packages();
    packages.add(TracersPackages.advection(pin));
    packages.add(TracersPackages.particles(pin));
    return packages;
  }

  @Override
  public ProblemGenerator problemGenerator(Packages packages) {
    return new TracerProblem(packages.get("particles_package").param("num_tracers",
        Integer.class))::generate;
  }

  @Override
  public Driver makeDriver(Simulation sim) {
    FluxDriver driver = sim.fluxDriver(FluxDriver.StageUpdate.ADVECTION_EXAMPLE, UserWork.NONE);
    Params fluid = sim.mesh().packages().get("advection_package").params();
    TracerStep tracers = new TracerStep(sim.mesh(), fluid.get("vx", Double.class),
        fluid.get("vy", Double.class), fluid.get("vz", Double.class));
    driver.hooks().setPreStepMeshUserWorkInLoop(tracers::before)
        .setPostStepMeshUserWorkInLoop(tracers::after);
    return driver;
  }
}
