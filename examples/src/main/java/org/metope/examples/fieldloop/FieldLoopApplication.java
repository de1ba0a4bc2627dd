package org.metope.examples.fieldloop;

import org.metope.app.Application;
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
public final class FieldLoopApplication implements Application {
  @Override
  public String name() {
    return FieldLoopPackage.NAME;
  }

  @Override
  public String deckBlock() {
    return FieldLoopPackage.NAME;
  }

  @Override
  public String description() {
    return "a magnetic field loop advected by constrained transport with AMR"
        + " (inputs/field_loop.in)";
  }

  @Override
  public Packages processPackages(ParameterInput pin) {
    Packages packages = new Packages();
    packages.add(FieldLoopPackage.initialize(pin));
    return packages;
  }

  @Override
  public ProblemGenerator problemGenerator(Packages packages) {
    return FieldLoopProblem::generate;
  }
}
