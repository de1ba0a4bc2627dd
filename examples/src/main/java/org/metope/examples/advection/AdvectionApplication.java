package org.metope.examples.advection;

import org.metope.app.ApplicationDescriptor;
import org.metope.app.DescribedApplication;
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
 * Parthenon's advection stage update (so histories match Parthenon's) where it is consistent with
 * the deck's integrator ({@code rk1}, {@code rk2}, {@code rk3}; {@link
 * org.metope.driver.StageUpdateChoice} says how a deck chooses otherwise) and {@link
 * AdvectionUserWork}.
 */
public final class AdvectionApplication extends DescribedApplication {
  /** The application {@code advection} of the deck block {@code <Advection>}. */
  public AdvectionApplication() {
    super(ApplicationDescriptor.of("advection", AdvectionPackage.BLOCK,
            "Parthenon's advection example (inputs/advection*.in)")
        .requiring("parthenon/mesh/ix1_bc", "parthenon/mesh/ox1_bc", "parthenon/mesh/ix2_bc",
            "parthenon/mesh/ox2_bc")
        .desiring("parthenon/mesh/refinement", "parthenon/mesh/numlevel", "Advection/cfl",
            "Advection/vx", "Advection/refine_tol", "Advection/derefine_tol"));
  }

  @Override
  public Packages processPackages(ParameterInput pin) {
    StateDescriptor advection = AdvectionPackage.initialize(pin);
    return Packages.of(advection,
        AdvectionDerived.appPackage(advection.params().getBoolean("fill_derived")));
  }

  @Override
  public ProblemGenerator problemGenerator(Packages packages) {
    return new AdvectionProblem(packages.get(AdvectionPackage.NAME).params())::generate;
  }

  @Override
  public Driver makeDriver(Simulation sim) {
    return sim.fluxDriver(StageUpdate.ADVECTION_EXAMPLE, new AdvectionUserWork());
  }
}
