package org.metope.examples.burgers;

import java.util.List;
import org.metope.app.Application;
import org.metope.app.Simulation;
import org.metope.driver.Driver;
import org.metope.driver.ProblemGenerator;
import org.metope.mesh.field.Packages;
import org.metope.mesh.input.ParameterInput;

/**
 * Parthenon's benchmark Parthenon-VIBE ({@code benchmarks/burgers}): {@code burgers_package},
 * its problem generator and its own {@link BurgersDriver} (Parthenon's burgers driver differs
 * from the advection example's). The deck's {@code <burgers>} block selects it; Parthenon's
 * shipped {@code burgers.pin} runs unchanged.
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
    return new BurgersDriver(sim.pin(), sim.mesh(), sim.options(), sim.integrator(), sim.pool(),
        sim.boundaries());
  }
}
