package org.metope.examples.diffusion;

import org.metope.app.Application;
import org.metope.driver.ProblemGenerator;
import org.metope.mesh.field.Packages;
import org.metope.mesh.input.ParameterInput;

/**
 * The diffusion example (inputs/diffusion_2d.in, inputs/diffusion_3d.in): the diffusion package
 * and its Gaussian start, run by the default flux driver (the deck's integrator, flux correction,
 * adaptive refinement by the package's gradient criterion, history and outputs). docs/PACKAGES.md
 * builds it step by step.
 */
public final class DiffusionApplication implements Application {
  @Override
  public String name() {
    return DiffusionPackage.NAME;
  }

  @Override
  public String deckBlock() {
    return DiffusionPackage.NAME;
  }

  @Override
  public String description() {
    return "heat diffusion of a Gaussian with fluxes and AMR (inputs/diffusion_2d.in)";
  }

  @Override
  public Packages processPackages(ParameterInput pin) {
    Packages packages = new Packages();
    packages.add(DiffusionPackage.initialize(pin));
    return packages;
  }

  @Override
  public ProblemGenerator problemGenerator(Packages packages) {
    return new GaussianProfile(packages.get(DiffusionPackage.NAME).params())::generate;
  }
}
