package org.metope.examples.advection;

import java.util.List;
import org.metope.app.Application;
import org.metope.app.Simulation;
import org.metope.driver.Driver;
import org.metope.driver.FluxDriver.StageUpdate;
import org.metope.driver.ProblemGenerator;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;

/**
 * Parthenon's advection example: packages {@code advection_package} and {@code advection_app},
 * its problem generator, the keys its driver requires and desires, and a {@code FluxDriver} with
 * Parthenon's advection stage update (so histories match Parthenon's) and {@link
 * AdvectionUserWork}.
 */
public final class AdvectionApplication implements Application {
  @Override
  public String name() {
    return "advection";
  }

  @Override
  public String deckBlock() {
    return AdvectionPackage.BLOCK;
  }

  @Override
  public String description() {
    return "Parthenon's advection example (inputs/advection*.in)";
  }

  @Override
  public Packages processPackages(ParameterInput pin) {
    Packages packages = new Packages();
    packages.add(AdvectionPackage.initialize(pin));
    StateDescriptor app = new StateDescriptor("advection_app");
    app.setPreFillDerived(AdvectionDerived::preFill);
    app.setPostFillDerived(AdvectionDerived::postFill);
    packages.add(app);
    return packages;
  }

  @Override
  public ProblemGenerator problemGenerator(Packages packages) {
    return new AdvectionProblem(packages.get(AdvectionPackage.NAME).params())::generate;
  }

  @Override
  public List<String> requiredKeys() {
    return List.of("parthenon/mesh/ix1_bc", "parthenon/mesh/ox1_bc", "parthenon/mesh/ix2_bc",
        "parthenon/mesh/ox2_bc");
  }

  @Override
  public List<String> desiredKeys() {
    return List.of("parthenon/mesh/refinement", "parthenon/mesh/numlevel", "Advection/cfl",
        "Advection/vx", "Advection/refine_tol", "Advection/derefine_tol");
  }

  @Override
  public Driver makeDriver(Simulation sim) {
    return sim.fluxDriver(StageUpdate.ADVECTION_EXAMPLE, new AdvectionUserWork());
  }
}
