package org.metope.examples.sparseadvection;

import java.util.List;
import org.metope.app.Application;
import org.metope.app.Simulation;
import org.metope.driver.Driver;
import org.metope.driver.FluxDriver;
import org.metope.driver.ProblemGenerator;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;

/**
 * Parthenon's {@code sparse_advection} example as a Metope application (deck block {@code
 * <sparse_advection>}): four sparse fields advected across a 2D periodic box, each allocated only
 * where its disc is, allocated on neighbours as it arrives and freed where it has left (see
 * {@link SparseAdvectionPackage}). Packages are Parthenon's: {@code sparse_advection_package} and
 * an empty {@code advection_app}. The framework's {@link FluxDriver} runs them with the advection
 * example's stage update, as Parthenon's {@code SparseAdvectionDriver} does (where it is
 * consistent with the deck's integrator, {@link org.metope.driver.StageUpdateChoice}), and frees
 * the fields that have left a block itself; after every step the application prints the
 * allocation counts ({@link SparseAdvectionDiagnostics}, Parthenon's {@code
 * PostStepDiagnosticsInLoop}).
 */
public final class SparseAdvectionApplication implements Application {
  private static final String MESH = "parthenon/mesh";

  @Override
  public String name() {
    return "sparse_advection";
  }

  @Override
  public String deckBlock() {
    return SparseAdvectionPackage.BLOCK;
  }

  @Override
  public String description() {
    return "Parthenon's sparse_advection example (inputs/sparse_advection.in)";
  }

  /**
   * The packages, once the deck's mesh is known to be 2D (Parthenon's example requires it).
   *
   * @throws org.metope.mesh.input.InputError for a mesh that is not 2D or a bad package key
   */
  @Override
  public Packages processPackages(ParameterInput pin) {
    MeshConfiguration config = MeshConfiguration.fromInput(pin);
    if (config.ndim() != 2) {
      throw pin.error(MESH, config.ndim() < 2 ? "nx2" : "nx3", "a 2D mesh (nx2 > 1, nx3 = 1):"
          + " the sparse_advection example is two-dimensional, as Parthenon's requires");
    }
    Packages packages = new Packages();
    packages.add(SparseAdvectionPackage.initialize(pin));
    packages.add(new StateDescriptor("advection_app"));
    return packages;
  }

  @Override
  public ProblemGenerator problemGenerator(Packages packages) {
    return new SparseAdvectionProblem(packages.get(SparseAdvectionPackage.NAME).params())::generate;
  }

  @Override
  public List<String> requiredKeys() {
    return List.of("parthenon/mesh/ix1_bc", "parthenon/mesh/ox1_bc", "parthenon/mesh/ix2_bc",
        "parthenon/mesh/ox2_bc");
  }

  @Override
  public List<String> desiredKeys() {
    return List.of("parthenon/mesh/refinement", "parthenon/mesh/numlevel",
        "sparse_advection/cfl", "sparse_advection/refine_tol", "sparse_advection/derefine_tol");
  }

  @Override
  public Driver makeDriver(Simulation sim) {
    FluxDriver driver = sim.fluxDriver(FluxDriver.StageUpdate.ADVECTION_EXAMPLE, this);
    driver.hooks().setPostStepDiagnosticsInLoop(
        (mesh, pin, tm) -> SparseAdvectionDiagnostics.print(mesh, driver.out()));
    return driver;
  }
}
