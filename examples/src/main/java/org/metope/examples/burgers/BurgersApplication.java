package org.metope.examples.burgers;

import java.util.List;
import org.metope.app.Application;
import org.metope.app.Simulation;
import org.metope.driver.Driver;
import org.metope.driver.FluxDriver;
import org.metope.driver.ProblemGenerator;
import org.metope.mesh.field.Packages;
import org.metope.mesh.input.ParameterInput;

/**
 * Parthenon's benchmark Parthenon-VIBE ({@code benchmarks/burgers}): {@code burgers_package} and
 * its problem generator, run by the framework's {@link FluxDriver} as Parthenon's burgers driver
 * runs them: the advection example's stage update, and stages that do not prolongate ghost cells
 * facing coarser blocks unless {@code <burgers> prolongate_ghosts = true} ({@link
 * FluxDriver.Options#prolongateGhosts}). The deck's {@code <burgers>} block selects it;
 * Parthenon's shipped {@code burgers.pin} runs unchanged.
 */
public final class BurgersApplication implements Application {
  @Override
  public String name() {
    return "burgers";
  }

  @Override
  public String deckBlock() {
    return BurgersPackage.BLOCK;
  }

  @Override
  public String description() {
    return "Parthenon-VIBE, the Burgers benchmark (inputs/burgers*.in)";
  }

  @Override
  public Packages processPackages(ParameterInput pin) {
    Packages packages = new Packages();
    packages.add(BurgersPackage.initialize(pin));
    return packages;
  }

  @Override
  public ProblemGenerator problemGenerator(Packages packages) {
    return BurgersProblem::generate;
  }

  @Override
  public List<String> requiredKeys() {
    return List.of("parthenon/mesh/ix1_bc", "parthenon/mesh/ox1_bc", "parthenon/mesh/ix2_bc",
        "parthenon/mesh/ox2_bc");
  }

  @Override
  public List<String> desiredKeys() {
    return List.of("parthenon/mesh/refinement", "parthenon/mesh/numlevel");
  }

  @Override
  public Driver makeDriver(Simulation sim) {
    boolean prolongate = sim.mesh().packages().get(BurgersPackage.NAME).params()
        .getBoolean("prolongate_ghosts");
    return sim.fluxDriver(FluxDriver.Options.DEFAULT
        .withStageUpdate(FluxDriver.StageUpdate.ADVECTION_EXAMPLE)
        .withProlongateGhosts(prolongate)
        .withUserWork(this));
  }
}
