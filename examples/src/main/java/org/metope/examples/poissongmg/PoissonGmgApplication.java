package org.metope.examples.poissongmg;

import java.util.function.DoubleUnaryOperator;
import org.metope.app.ApplicationDescriptor;
import org.metope.app.DescribedApplication;
import org.metope.app.Simulation;
import org.metope.bvals.conditions.BoundaryFunctions;
import org.metope.driver.Driver;
import org.metope.driver.ProblemGenerator;
import org.metope.examples.libm.GlibcExp;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.RefinementOps;
import org.metope.mesh.input.ParameterInput;

/**
 * Parthenon's {@code poisson_gmg} example: a variable-coefficient Poisson problem solved by
 * geometric multigrid on the levels {@code <parthenon/mesh> multigrid = true} builds. It has no
 * time loop; its driver is {@link PoissonGmgDriver}. Its block is {@code <poisson/solver_params>},
 * which Parthenon's {@code poisson} decks do not have, so a deck with it runs this application.
 */
public final class PoissonGmgApplication extends DescribedApplication {
  private final RefinementOps uRefinement;
  private final boolean fixedFace;
  private final DoubleUnaryOperator exp;

  /** The application as the registry lists it. */
  public PoissonGmgApplication() {
    this(RefinementOps.LINEAR, true, GlibcExp::exp);
  }

  /**
   * The application with other refinement operators for {@code u}, with or without its package
   * boundary conditions and with another {@code exp} for the exact solution: the controls of
   * tests, which show what Parthenon's choices (and its C library's) change on a refined mesh.
   */
  PoissonGmgApplication(RefinementOps uRefinement, boolean fixedFace, DoubleUnaryOperator exp) {
    super(ApplicationDescriptor.of("poisson_gmg", PoissonGmgPackage.SOLVER_BLOCK,
        "Parthenon's poisson_gmg example: geometric multigrid (multigrid = true)"));
    this.uRefinement = uRefinement;
    this.fixedFace = fixedFace;
    this.exp = exp;
  }

  @Override
  public Packages processPackages(ParameterInput pin) {
    return Packages.of(PoissonGmgPackage.initialize(pin, uRefinement));
  }

  /**
   * Parthenon's package conditions: {@code FixedFace} with value 0 on the package's ghost-filled
   * fields of every physical face, after whatever the deck names there, on cells and on coarse
   * buffers, so that ghosts prolongated at fine-coarse boundaries next to the domain boundary see
   * the same boundary as the fine cells.
   */
  @Override
  public void registerBoundaryFunctions(ParameterInput pin, BoundaryFunctions functions) {
    if (!fixedFace) {
      return;
    }
    functions.addPackageConditionEveryFace(
        (md, b, face, coarse) -> BoundaryFunctions.fixedFace(md, b, face, coarse, null));
  }

  @Override
  public ProblemGenerator problemGenerator(Packages packages) {
    return (md, b) -> PoissonGmgPackage.generate(md, b, exp);
  }

  @Override
  public Driver makeDriver(Simulation sim) {
    if (sim.multigrid() == null) {
      throw sim.pin().error("parthenon/mesh", "multigrid", "true (poisson_gmg solves on the"
          + " multigrid levels)");
    }
    return new PoissonGmgDriver(sim.pin(), sim.mesh(), sim.multigrid(), sim.boundaries(),
        sim.pool(), sim.communicator(), sim.options(), sim.err());
  }
}
