package org.metope.examples.particleleapfrog;

import java.util.List;
import org.metope.app.Application;
import org.metope.app.Simulation;
import org.metope.driver.Driver;
import org.metope.driver.LowStorageIntegrator;
import org.metope.driver.ProblemGenerator;
import org.metope.mesh.field.Packages;
import org.metope.mesh.input.ParameterInput;

/**
 * Parthenon's {@code particle_leapfrog} example (inputs/particle_leapfrog.in): 14 particles on
 * straight periodic trajectories through a 3D mesh, crossing blocks, levels and ranks, pushed by
 * a leapfrog step at {@code cfl} times the smallest cell-crossing time. No cell fields. The swarm
 * is {@code INDEPENDENT}, so restart files carry its particles.
 */
public final class ParticleLeapfrogApplication implements Application {
  @Override
  public String name() {
    return "particle_leapfrog";
  }

  @Override
  public String deckBlock() {
    return ParticlesPackage.BLOCK;
  }

  @Override
  public String description() {
    return "particles on straight periodic paths, crossing blocks (inputs/particle_leapfrog.in)";
  }

  @Override
  public Packages processPackages(ParameterInput pin) {
    Packages packages = new Packages();
    packages.add(ParticlesPackage.initialize(pin));
    return packages;
  }

  @Override
  public ProblemGenerator problemGenerator(Packages packages) {
    return new LeapfrogProblem(packages.get(ParticlesPackage.NAME).param("disable",
        Boolean.class))::generate;
  }

  @Override
  public List<String> containerNames(LowStorageIntegrator integrator) {
    return List.of("base");
  }

  @Override
  public Driver makeDriver(Simulation sim) {
    return new ParticleDriver(sim.pin(), sim.mesh(), sim.options(), sim.pool());
  }
}
