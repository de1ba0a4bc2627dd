package org.metope.examples.fineadvection;

import java.util.List;
import org.metope.app.ApplicationDescriptor;
import org.metope.app.DeckMark;
import org.metope.app.DescribedApplication;
import org.metope.app.Simulation;
import org.metope.driver.Driver;
import org.metope.driver.FluxDriver.StageUpdate;
import org.metope.driver.ProblemGenerator;
import org.metope.driver.UserWork;
import org.metope.mesh.field.Packages;
import org.metope.mesh.input.ParameterInput;

/**
 * Parthenon's {@code fine_advection} example (inputs/fine_advection.in, its deck as shipped):
 * a cell field, its copy at twice the resolution and two face fields advected together with
 * adaptive refinement, run by the flux driver with Parthenon's advection stage update, which its
 * driver uses (its fine fluxes and edge fluxes are the flux driver's cell divergence at the fine
 * field's resolution and Stokes update). Its deck has {@code <Advection>}, as the {@code advection}
 * example's do; what makes it fine_advection's is that its outputs name variables of this
 * package's namespace, {@code advection.*} (or that {@code metope/application=fine_advection}
 * names it).
 */
public final class FineAdvectionApplication extends DescribedApplication {
  /** The application {@code fine_advection}, reading {@code <Advection>}. */
  public FineAdvectionApplication() {
    super(ApplicationDescriptor.of("fine_advection", FineAdvectionPackage.BLOCK,
            "Parthenon's fine_advection example: fine and face fields"
                + " (inputs/fine_advection.in)")
        .requiring("parthenon/mesh/ix1_bc", "parthenon/mesh/ox1_bc", "parthenon/mesh/ix2_bc",
            "parthenon/mesh/ox2_bc")
        .desiring("parthenon/mesh/refinement", "parthenon/mesh/numlevel", "Advection/cfl",
            "Advection/vx", "Advection/refine_tol", "Advection/derefine_tol"));
  }

  /** Parthenon's deck lists {@code advection.*} variables in its output; advection's do not. */
  @Override
  public List<DeckMark> deckMarks() {
    return List.of(DeckMark.outputVariable(FineAdvectionPackage.NAMESPACE));
  }

  @Override
  public Packages processPackages(ParameterInput pin) {
    return Packages.of(FineAdvectionPackage.initialize(pin));
  }

  @Override
  public ProblemGenerator problemGenerator(Packages packages) {
    return new FineAdvectionProblem(packages.get(FineAdvectionPackage.NAME).params()
        .getString("profile"))::generate;
  }

  @Override
  public Driver makeDriver(Simulation sim) {
    return sim.fluxDriver(StageUpdate.ADVECTION_EXAMPLE, UserWork.NONE);
  }
}
