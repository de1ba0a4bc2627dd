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
 * its problem generator, run by the framework's {@link FluxDriver} with the advection example's
 * stage update, as Parthenon's burgers driver runs them (where that update is consistent with the
 * deck's integrator, {@link org.metope.driver.StageUpdateChoice}). Parthenon's driver does not
 * prolongate ghost cells that face coarser blocks in its stages, which is not a consistent scheme
 * on a refined mesh: Metope does so unless {@code <burgers> prolongate_ghosts = false} ({@link
 * FluxDriver.Options#prolongateGhosts}), which reproduces Parthenon's answers and is announced at
 * start-up. The deck's {@code <burgers>} block selects the application; Parthenon's shipped
 * {@code burgers.pin} runs unchanged.
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
    FluxDriver driver = sim.fluxDriver(FluxDriver.Options.DEFAULT
        .withStageUpdate(FluxDriver.StageUpdate.ADVECTION_EXAMPLE)
        .withProlongateGhosts(prolongate)
        .withUserWork(this));
    if (!prolongate && sim.mesh().isMultilevel()) {
      driver.announce(sim.pin().deckName() + ": <burgers> prolongate_ghosts = false leaves ghost"
          + " cells that face a coarser block at their last start-up or remesh values in every"
          + " stage, as Parthenon's burgers benchmark does (not a consistent scheme on a refined"
          + " mesh); prolongate_ghosts = true prolongates them");
    }
    return driver;
  }
}
