package org.metope.examples.sparseadvection;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.metope.amr.AdaptiveRefinement;
import org.metope.comm.InProcessCluster;
import org.metope.driver.LowStorageIntegrator;
import org.metope.driver.MeshInitialization;
import org.metope.driver.RunOptions;
import org.metope.examples.Application;
import org.metope.examples.Applications;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.DriverError;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;
import org.metope.outputs.RestartFile;
import org.metope.tasking.TaskFailureException;
import org.metope.tasking.TaskThreadPool;

/**
 * Parthenon's {@code sparse_advection} example as a Metope application (deck block {@code
 * <sparse_advection>}): four sparse fields advected across a 2D periodic box, each allocated only
 * where its disc is, allocated on neighbours as it arrives and freed where it has left (see
 * {@link SparseAdvectionPackage}, {@link SparseAdvectionDriver}). Packages are Parthenon's: {@code
 * sparse_advection_package} and an empty {@code advection_app}.
 *
 * <p>Besides Parthenon's keys it reads {@code <metope> threads} (default 1), the threads that run
 * the task lists of a rank's partitions.
 */
public final class SparseAdvectionApplication implements Application {
  private static final String MESH = "parthenon/mesh";
  /** More task threads than this is a typo, not a machine (a thread costs a stack). */
  private static final int MAX_THREADS = 1024;

  @Override
  public String name() {
    return "sparse_advection";
  }

  @Override
  public String deckBlock() {
    return SparseAdvectionPackage.BLOCK;
  }

  @Override
  public int run(Launch launch) {
    PrintStream err = launch.err();
    try {
      simulate(launch);
      return 0;
    } catch (InputError e) {
      err.println(e.getMessage());
      return 2;
    } catch (DriverError e) {
      err.println("metope: " + e.getMessage());
      return 1;
    } catch (TaskFailureException e) {
      err.println("metope: step failed to complete all tasks: " + e.getMessage());
      return 1;
    }
  }

  /**
   * Runs the deck to its end and returns the mesh in its final state.
   *
   * @throws InputError for a bad deck
   * @throws DriverError when the run cannot go on
   * @throws TaskFailureException when a step fails
   */
  public static Mesh simulate(Launch launch) {
    ParameterInput pin = launch.pin();
    int warningsShown = pin.warnings().size();
    for (String key : List.of("ix1_bc", "ox1_bc", "ix2_bc", "ox2_bc")) {
      pin.checkRequired(MESH, key);
    }
    Prepared prepared = setUp(launch);
    for (String[] key : new String[][] {{MESH, "refinement"}, {MESH, "numlevel"},
        {SparseAdvectionPackage.BLOCK, "cfl"}, {SparseAdvectionPackage.BLOCK, "refine_tol"},
        {SparseAdvectionPackage.BLOCK, "derefine_tol"}}) {
      pin.checkDesired(key[0], key[1]);
    }
    int threads = pin.getOrAddInteger(Applications.BLOCK, "threads", 1);
    if (threads < 1 || threads > MAX_THREADS) {
      throw pin.error(Applications.BLOCK, "threads", "an integer from 1 to " + MAX_THREADS);
    }
    try (TaskThreadPool pool = new TaskThreadPool(threads)) {
      SparseAdvectionDriver driver = new SparseAdvectionDriver(pin, prepared.mesh(),
          launch.options(), prepared.integrator(), pool, prepared.boundaries());
      if (launch.communicator().rank() == 0) {
        List<String> warnings = pin.warnings();
        for (String w : warnings.subList(warningsShown, warnings.size())) {
          launch.err().println("warning: " + w);
        }
        for (String w : driver.outputWarnings()) {
          launch.err().println("warning: " + w);
        }
        for (String w : Applications.unreadKeyWarnings(pin, new SparseAdvectionApplication())) {
          launch.err().println("warning: " + w);
        }
      }
      driver.execute();
    }
    return prepared.mesh();
  }

  /**
   * With adaptive refinement, the mesh after start-up refinement, found by setting up the initial
   * state on one in-process rank (nothing is printed); otherwise the deck's mesh.
   */
  @Override
  public Mesh initialMesh(ParameterInput pin, int nranks,
      Function<ParameterInput, BoundaryCommunication> boundaries) {
    MeshConfiguration config = MeshConfiguration.fromInput(pin);
    if (!config.isAdaptive()) {
      return Mesh.build(config, nranks, 0);
    }
    PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
    Launch oneRank = new Launch(pin, RunOptions.of(Path.of("."), discard), discard,
        InProcessCluster.singleRank(), boundaries);
    Mesh started = setUp(oneRank).mesh();
    return Mesh.build(config, started.locations(), nranks, 0);
  }

  /** A mesh in its initial state, the boundary communication set up for it, the integrator. */
  private record Prepared(Mesh mesh, BoundaryCommunication boundaries,
      LowStorageIntegrator integrator) {}

  /** Packages, mesh, fields and the initial state, in Parthenon's order. */
  private static Prepared setUp(Launch launch) {
    ParameterInput pin = launch.pin();
    Packages packages = new Packages();
    packages.add(SparseAdvectionPackage.initialize(pin));
    packages.add(new StateDescriptor("advection_app"));
    MeshConfiguration config = MeshConfiguration.fromInput(pin);
    if (config.ndim() != 2) {
      throw pin.error(MESH, config.ndim() < 2 ? "nx2" : "nx3", "a 2D mesh (nx2 > 1, nx3 = 1):"
          + " the sparse_advection example is two-dimensional, as Parthenon's requires");
    }
    LowStorageIntegrator integrator = LowStorageIntegrator.fromInput(pin);
    RestartFile restart = launch.restart();
    Mesh mesh = restart == null ? Mesh.build(config, launch.communicator())
        : Mesh.build(config, launch.communicator(), restart.locationsFor(config));
    mesh.initializeFields(packages, SparseAdvectionDriver.containerNames(integrator));
    BoundaryCommunication boundaries = launch.boundaries().apply(launch.pin());
    AdaptiveRefinement refinement = config.isAdaptive()
        ? AdaptiveRefinement.fromInput(pin, mesh, boundaries) : null;
    if (restart == null) {
      SparseAdvectionProblem problem =
          new SparseAdvectionProblem(packages.get(SparseAdvectionPackage.NAME).params());
      MeshInitialization.initialize(mesh, problem::generate, boundaries);
    } else {
      restart.restoreFields(mesh);
      restart.restoreParams(mesh);
      if (refinement != null) {
        refinement.restoreDerefinementCounts(restart.derefinementCounts());
      }
      pin.setReal("parthenon/time", "start_time", restart.time());
      pin.setReal("parthenon/time", "dt", restart.dt());
      pin.setInteger("parthenon/time", "ncycle", restart.ncycle());
      MeshInitialization.resume(mesh, boundaries);
    }
    return new Prepared(mesh, boundaries, integrator);
  }
}
