package org.metope.examples.poisson;

import java.util.List;
import org.metope.app.ApplicationDescriptor;
import org.metope.app.DescribedApplication;
import org.metope.app.Simulation;
import org.metope.driver.Driver;
import org.metope.driver.LowStorageIntegrator;
import org.metope.driver.ProblemGenerator;
import org.metope.mesh.field.Packages;
import org.metope.mesh.input.ParameterInput;

/**
 * Parthenon's {@code poisson} example (deck {@code examples/.../parthinput.poisson}, unchanged):
 * the potential of a uniform sphere by Jacobi iteration in an iterative task group, with task
 * reductions. It has no time loop; its driver is {@link PoissonDriver}.
 */
public final class PoissonApplication extends DescribedApplication {
  /** The application as the registry lists it. */
  public PoissonApplication() {
    super(ApplicationDescriptor.of("poisson", PoissonPackage.BLOCK,
        "Parthenon's poisson example: Jacobi iteration and task reductions (parthinput.poisson)"));
  }

  @Override
  public Packages processPackages(ParameterInput pin) {
    return Packages.of(PoissonPackage.initialize(pin));
  }

  @Override
  public ProblemGenerator problemGenerator(Packages packages) {
    return PoissonPackage::generate;
  }

  /** {@code base} and {@code delta}, the change of the potential in a sweep. */
  @Override
  public List<String> containerNames(LowStorageIntegrator integrator) {
    return List.of("base", "delta");
  }

  @Override
  public Driver makeDriver(Simulation sim) {
    return new PoissonDriver(sim.pin(), sim.mesh(), sim.boundaries(), sim.pool(),
        sim.communicator(), sim.options(), sim.err());
  }
}
