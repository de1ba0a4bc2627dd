package org.metope.examples.ghostcheck;

import java.util.List;
import org.metope.app.Application;
import org.metope.app.Simulation;
import org.metope.driver.Driver;
import org.metope.driver.DriverStatus;
import org.metope.driver.LowStorageIntegrator;
import org.metope.driver.ProblemGenerator;
import org.metope.mesh.field.Packages;
import org.metope.mesh.input.ParameterInput;

/**
 * The {@code ghost_check} problem: the framework fills every block's interior with the linear
 * function and its ghosts by one exchange; the driver counts wrong ghost cells and fails (exit
 * code 1) when there is any. It has no time loop.
 */
public final class GhostCheckApplication implements Application {
  @Override
  public String name() {
    return "ghost_check";
  }

  @Override
  public String deckBlock() {
    return GhostCheck.BLOCK;
  }

  @Override
  public String description() {
    return "fills ghosts once and counts wrong cells (inputs/ghost_check_*.in)";
  }

  @Override
  public Packages processPackages(ParameterInput pin) {
    Packages packages = new Packages();
    packages.add(GhostCheck.initialize(pin));
    return packages;
  }

  @Override
  public ProblemGenerator problemGenerator(Packages packages) {
    return GhostCheck.of(packages)::fillInterior;
  }

  @Override
  public List<String> containerNames(LowStorageIntegrator integrator) {
    return List.of("base");
  }

  @Override
  public Driver makeDriver(Simulation sim) {
    GhostCheck check = GhostCheck.of(sim.mesh().packages());
    return () -> check.countAndReport(sim.mesh(), sim.options().out()) == 0
        ? DriverStatus.COMPLETE : DriverStatus.FAILED;
  }
}
