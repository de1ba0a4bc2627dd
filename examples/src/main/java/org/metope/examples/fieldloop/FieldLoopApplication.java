package org.metope.examples.fieldloop;

import org.metope.app.ApplicationDescriptor;
import org.metope.app.DescribedApplication;
import org.metope.driver.ProblemGenerator;
import org.metope.mesh.field.Packages;
import org.metope.mesh.input.ParameterInput;

/**
 * The field-loop example (inputs/field_loop.in): a magnetic field loop advected across a periodic
 * box by constrained transport, its face field {@code B} changed only by the circulation of its
 * edge fluxes, run by the default flux driver with adaptive refinement that follows the loop. The
 * divergence of {@code B} stays at round-off through every remesh and fine/coarse boundary (the
 * history's {@code max_divb}).
 */
public final class FieldLoopApplication extends DescribedApplication {
  /** The application as the registry lists it. */
  public FieldLoopApplication() {
    super(ApplicationDescriptor.of(FieldLoopPackage.NAME, FieldLoopPackage.NAME,
        "a magnetic field loop advected by constrained transport with AMR (inputs/field_loop.in)"));
  }

  @Override
  public Packages processPackages(ParameterInput pin) {
    return Packages.of(FieldLoopPackage.initialize(pin));
  }

  @Override
  public ProblemGenerator problemGenerator(Packages packages) {
    return FieldLoopProblem::generate;
  }
}
