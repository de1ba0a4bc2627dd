package org.metope.examples.burgers;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.metope.examples.Application;
import org.metope.examples.Applications;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.amr.AdaptiveRefinement;
import org.metope.comm.InProcessCluster;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.DriverError;
import org.metope.driver.LowStorageIntegrator;
import org.metope.driver.MeshInitialization;
import org.metope.driver.RunOptions;
import org.metope.mesh.field.Packages;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;
import org.metope.outputs.RestartFile;
import org.metope.tasking.TaskFailureException;
import org.metope.tasking.TaskThreadPool;

/**
 * Parthenon's benchmark Parthenon-VIBE ({@code benchmarks/burgers}) as a Metope application:
 * reads the deck, builds {@code burgers_package}, the mesh and its fields, sets the initial state
 * (or reads it from the restart file the launch resumes from) and runs the {@link BurgersDriver}.
 * The deck's {@code <burgers>} block selects it; Parthenon's shipped {@code burgers.pin} runs
 * unchanged.
 *
 * <p>Besides Parthenon's keys it reads {@code <metope> threads} (default 1), the threads that run
 * the task lists of a rank's partitions.
 */
public final class BurgersApplication implements Application {
  private static final String MESH = "parthenon/mesh";

  @Override
  public String name() {
    return "burgers";
  }

  @Override
  public String deckBlock() {
    return BurgersPackage.BLOCK;
  }

  @Override
  public int run(Launch launch) {
    PrintStream err = launch.err();
    try {
      simulate(launch);
      return 0;
    } catch (InputError e) {
      // Every rank says it: under MPJ the launcher prints the first failing rank's line once.
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
  static Mesh simulate(Launch launch) {
    ParameterInput pin = launch.pin();
    int warningsShown = pin.warnings().size();
    for (String key : List.of("ix1_bc", "ox1_bc", "ix2_bc", "ox2_bc")) {
      pin.checkRequired(MESH, key);
    }
    Prepared prepared = setUp(launch);
    pin.checkDesired(MESH, "refinement");
    pin.checkDesired(MESH, "numlevel");
    int threads = pin.getOrAddInteger(Applications.BLOCK, "threads", 1);
    if (threads < 1) {
      throw pin.error(Applications.BLOCK, "threads", "an integer >= 1");
    }
    try (TaskThreadPool pool = new TaskThreadPool(threads)) {
      BurgersDriver driver = new BurgersDriver(pin, prepared.mesh(), launch.options(),
          prepared.integrator(), pool, prepared.boundaries());
      if (launch.communicator().rank() == 0) {
        List<String> warnings = pin.warnings();
        for (String w : warnings.subList(warningsShown, warnings.size())) {
          launch.err().println("warning: " + w);
        }
        for (String w : driver.outputWarnings()) {
          launch.err().println("warning: " + w);
        }
        for (String w : Applications.unreadKeyWarnings(pin, new BurgersApplication())) {
          launch.err().println("warning: " + w);
        }
        if (prepared.mesh().refinement() != null) {
          for (String w : prepared.mesh().refinement().warnings()) {
            launch.err().println("warning: " + w);
          }
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
    packages.add(BurgersPackage.initialize(pin));
    MeshConfiguration config = MeshConfiguration.fromInput(pin);
    LowStorageIntegrator integrator = LowStorageIntegrator.fromInput(pin);
    RestartFile restart = launch.restart();
    Mesh mesh = restart == null ? Mesh.build(config, launch.communicator())
        : Mesh.build(config, launch.communicator(), restart.locations());
    mesh.initializeFields(packages, BurgersDriver.containerNames(integrator));
    BoundaryCommunication boundaries = launch.boundaries().apply(pin);
    AdaptiveRefinement refinement = config.isAdaptive()
        ? AdaptiveRefinement.fromInput(pin, mesh, boundaries) : null;
    if (restart == null) {
      MeshInitialization.initialize(mesh, BurgersProblem::generate, boundaries);
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
