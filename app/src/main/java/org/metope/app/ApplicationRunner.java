package org.metope.app;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.metope.amr.AdaptiveRefinement;
import org.metope.bvals.conditions.BoundaryFunctions;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessCluster;
import org.metope.driver.Driver;
import org.metope.driver.DriverStatus;
import org.metope.driver.LowStorageIntegrator;
import org.metope.driver.MeshInitialization;
import org.metope.driver.MultiStageDriver;
import org.metope.driver.RunOptions;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.DriverError;
import org.metope.mesh.Mesh;
import org.metope.mesh.MultigridLevels;
import org.metope.mesh.MemoryBudget;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.FieldMemoryError;
import org.metope.mesh.field.SetupError;
import org.metope.mesh.field.Packages;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;
import org.metope.outputs.RestartFile;
import org.metope.tasking.TaskFailureException;
import org.metope.tasking.TaskThreadPool;

/**
 * Runs an {@link Application} on this rank, owning everything but its physics: required and
 * desired keys, packages, mesh and fields (new, or from a restart file), boundary communication
 * and user boundary functions, adaptive refinement, the initial state, {@code <metope> threads},
 * the driver, warnings (deck, outputs, unread keys, refinement) and the exit code.
 *
 * <p>Set-up follows Parthenon's order: packages, mesh, fields, boundary communication, refinement,
 * problem generator (or restart), ghost fill, derived fields; then the driver is made, rank 0
 * prints the warnings, and the driver runs.
 */
public final class ApplicationRunner {
  /** More task threads than this is a typo, not a machine (a thread costs a stack). */
  static final int MAX_THREADS = 1024;
  /**
   * Packs of a rank per task thread where the deck leaves {@code pack_size} below 1: one, because
   * every partition costs its own tasks, kernel launches and boundary tables per stage and remesh,
   * and on two CPUs the task threads share their cores with the JIT compiler, so that work is not
   * spare; a thread that starts late still leaves its pack to the others, which take it pass by
   * pass (docs/ARCHITECTURE.md, "Task threads take the lists in turn").
   */
  static final int PACKS_PER_THREAD = 1;

  private ApplicationRunner() {}

  /**
   * Everything a run gets from the launcher.
   *
   * @param pin the deck with command-line overrides
   * @param options output directory, wall-time limit and standard output
   * @param err where one-line errors and warnings go
   * @param communicator the ranks of the run
   * @param boundaries makes the boundary communication of the mesh from the deck
   * @param restart the restart file the run resumes from ({@code -r}), or null for a new run;
   *     {@code pin} is then its deck with the command line's overrides
   */
  public record Launch(ParameterInput pin, RunOptions options, PrintStream err,
      Communicator communicator, Function<ParameterInput, BoundaryCommunication> boundaries,
      RestartFile restart) {
    /** A launch of a new run. */
    public Launch(ParameterInput pin, RunOptions options, PrintStream err,
        Communicator communicator, Function<ParameterInput, BoundaryCommunication> boundaries) {
      this(pin, options, err, communicator, boundaries, null);
    }
  }

  /**
   * How a run ended.
   *
   * @param mesh the mesh in its final state
   * @param status what the driver returned
   */
  public record Outcome(Mesh mesh, DriverStatus status) {}

  /** {@link #run(Application, Launch, Applications)} with the applications on the class path. */
  public static int run(Application app, Launch launch) {
    return run(app, launch, Applications.load());
  }

  /**
   * {@link #simulate(Application, Launch, Applications)} with the applications on the class
   * path.
   */
  public static Outcome simulate(Application app, Launch launch) {
    return simulate(app, launch, Applications.load());
  }

  /**
   * Runs {@code app} and returns the process exit code: 0 for a run that ended (also at a
   * wall-time limit), 2 for a bad deck, 1 for a run that failed. Errors are one line on {@code
   * launch.err()}; every rank prints its own (under MPJ the launcher prints the first failing
   * rank's line once).
   */
  public static int run(Application app, Launch launch, Applications registry) {
    PrintStream err = launch.err();
    try {
      return simulate(app, launch, registry).status() == DriverStatus.FAILED ? 1 : 0;
    } catch (InputError e) {
      err.println(e.getMessage());
      return 2;
    } catch (DriverError | FieldMemoryError | SetupError e) {
      err.println("metope: " + e.getMessage());
      return 1;
    } catch (TaskFailureException e) {
      if (e.getCause() instanceof OutOfMemoryError) {
        printOutOfMemory(err, e);
      } else if (e.getCause() instanceof FieldMemoryError tooLarge) {
        err.println("metope: " + tooLarge.getMessage());
      } else {
        err.println("metope: step failed to complete all tasks: " + e.getMessage());
      }
      return 1;
    } catch (ApplicationSetupError e) {
      err.println("metope: application " + app.name() + " cannot be set up: " + e.getMessage());
      return 1;
    } catch (OutOfMemoryError e) {
      // The run's objects are unreachable once its frames are gone: room for one line, usually
      printOutOfMemory(err, null);
      return 1;
    }
  }

  /**
   * Prints the out-of-memory line for a task that failed ({@code failed}) or for the run (null);
   * where building it runs out of heap again, the constant {@link #OUT_OF_MEMORY}.
   */
  private static void printOutOfMemory(PrintStream err, TaskFailureException failed) {
    releaseReserve();
    try {
      err.println(outOfMemory(failed == null ? "setting up or running the mesh"
          : "in " + failed.getMessage().replaceFirst(" threw .*", "")));
    } catch (OutOfMemoryError again) {
      err.println(OUT_OF_MEMORY);
    }
  }

  /**
   * Heap kept back for reporting: released when the heap has run out, so that the one line can
   * be built and printed even where what ran out is still reachable.
   */
  private static volatile byte[] reserve = new byte[512 * 1024];

  /** Frees the heap kept back for reporting an out-of-memory error. */
  static void releaseReserve() {
    reserve = null;
  }

  /** The out-of-memory line that needs no allocation to build, for when even that ran out. */
  static final String OUT_OF_MEMORY = "metope: out of memory: the JVM heap cannot hold this run;"
      + " give the JVM more memory with METOPE_JAVA_OPTS=-Xmx<size>, run on more ranks, or use"
      + " fewer or smaller blocks";

  /**
   * The one line for a heap that ran out where no budget foresaw it (the budgets of {@link
   * org.metope.mesh.MemoryBudget} and {@link FieldMemoryError} are lower bounds).
   */
  private static String outOfMemory(String where) {
    return "metope: out of memory " + where + ": the JVM heap of "
        + MemoryBudget.format(MemoryBudget.available()) + " cannot hold this run; give the JVM"
        + " more memory with METOPE_JAVA_OPTS=-Xmx<size>, run on more ranks, or use fewer or"
        + " smaller blocks";
  }

  /**
   * Runs the deck to its end.
   *
   * @throws InputError for a bad deck
   * @throws DriverError when the run cannot go on
   * @throws TaskFailureException when a step fails
   */
  public static Outcome simulate(Application app, Launch launch, Applications registry) {
    ParameterInput pin = launch.pin();
    int warningsShown = pin.warnings().size();
    for (String key : app.requiredKeys()) {
      pin.checkRequired(block(key), key(key));
    }
    int threads = pin.getOrAddInteger(Applications.BLOCK, "threads", 1);
    if (threads < 1 || threads > MAX_THREADS) {
      throw pin.error(Applications.BLOCK, "threads", "an integer from 1 to " + MAX_THREADS);
    }
    try (TaskThreadPool pool = new TaskThreadPool(threads)) {
      return simulate(app, launch, registry, pool, warningsShown);
    }
  }

  /** {@link #simulate(Application, Launch, Applications)} on {@code pool}'s threads. */
  private static Outcome simulate(Application app, Launch launch, Applications registry,
      TaskThreadPool pool, int warningsShown) {
    ParameterInput pin = launch.pin();
    Prepared prepared = setUp(app, launch, pool);
    for (String key : app.desiredKeys()) {
      pin.checkDesired(block(key), key(key));
    }
    Mesh mesh = prepared.mesh();
    BoundaryCommunication boundaries = prepared.boundaries();
    try {
      MultigridLevels multigrid = prepared.multigrid();
      for (int m = 1; multigrid != null && m < multigrid.count(); m++) {
        multigrid.boundaries(m).useThreads(pool);
      }
      Simulation sim = new Simulation(pin, mesh, boundaries, prepared.integrator(),
          launch.options(), pool, launch.communicator(), launch.err(), multigrid);
      Driver driver = makeDriver(app, sim);
      if (launch.communicator().rank() == 0) {
        printWarnings(launch.err(), pin.warnings().subList(warningsShown, pin.warnings().size()));
        printWarnings(launch.err(), driver.warnings());
        printWarnings(launch.err(), registry.unreadKeyWarnings(pin, app));
        if (mesh.refinement() != null) {
          printWarnings(launch.err(), mesh.refinement().warnings());
        }
      }
      return new Outcome(mesh, driver.execute());
    } finally {
      boundaries.useThreads(null);
    }
  }

  /** The application's packages; a field or package it declares wrongly is one line. */
  private static Packages processPackages(Application app, ParameterInput pin) {
    try {
      return app.processPackages(pin);
    } catch (IllegalStateException | IllegalArgumentException e) {
      throw new ApplicationSetupError(e.getMessage());
    }
  }

  private static Driver makeDriver(Application app, Simulation sim) {
    try {
      return app.makeDriver(sim);
    } catch (IllegalStateException | IllegalArgumentException e) {
      throw new ApplicationSetupError(e.getMessage());
    }
  }

  private static void printWarnings(PrintStream err, List<String> warnings) {
    for (String w : warnings) {
      err.println("warning: " + w);
    }
  }

  private static String block(String path) {
    return path.substring(0, path.lastIndexOf('/'));
  }

  private static String key(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /**
   * The mesh a run of {@code pin} starts its time loop on, laid out for {@code nranks} ranks, for
   * {@code metope -m N}: with adaptive refinement the initial state is set up on one in-process
   * rank (nothing printed) to find the mesh start-up refinement makes; otherwise the deck's mesh.
   *
   * @throws InputError for a bad deck
   */
  public static Mesh initialMesh(Application app, ParameterInput pin, int nranks,
      Function<ParameterInput, BoundaryCommunication> boundaries) {
    MeshConfiguration config = MeshConfiguration.fromInput(pin);
    if (!config.isAdaptive()) {
      return Mesh.build(config, nranks, 0);
    }
    PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
    Launch oneRank = new Launch(pin, RunOptions.of(Path.of("."), discard), discard,
        InProcessCluster.singleRank(), boundaries);
    try (TaskThreadPool serial = new TaskThreadPool(1)) {
      Mesh started = setUp(app, oneRank, serial).mesh();
      return Mesh.build(config, started.locations(), nranks, 0);
    }
  }

  /** A mesh in its initial state, the boundary communication set up for it, the integrator. */
  private record Prepared(Mesh mesh, BoundaryCommunication boundaries,
      LowStorageIntegrator integrator, MultigridLevels multigrid) {}

  /** Packages, mesh, fields and the initial state, in Parthenon's order. */
  private static Prepared setUp(Application app, Launch launch, TaskThreadPool pool) {
    int threads = pool.threads();
    ParameterInput pin = launch.pin();
    launch.communicator().setStallTimeout(MultiStageDriver.stallTimeout(pin));
    Packages packages = processPackages(app, pin);
    BoundaryFunctions userBoundaries = new BoundaryFunctions();
    app.registerBoundaryFunctions(pin, userBoundaries);
    MeshConfiguration config = MeshConfiguration.fromInput(pin, userBoundaries.names())
        .withPacksPerRank(PACKS_PER_THREAD * threads);
    LowStorageIntegrator integrator = LowStorageIntegrator.fromInput(pin);
    RestartFile restart = launch.restart();
    Mesh mesh = restart == null ? Mesh.build(config, launch.communicator())
        : RestartMesh.build(config, launch.communicator(), restart);
    mesh.initializeFields(packages, app.containerNames(integrator));
    BoundaryCommunication boundaries = launch.boundaries().apply(pin);
    // The ghost fills of the initial refinement and of every remesh run on the stages' threads.
    boundaries.useThreads(pool);
    registerBoundaryFunctions(userBoundaries, boundaries, config, pin);
    AdaptiveRefinement refinement = config.isAdaptive()
        ? AdaptiveRefinement.fromInput(pin, mesh, boundaries) : null;
    if (restart == null) {
      MeshInitialization.initialize(mesh, app.problemGenerator(packages), boundaries);
    } else {
      restart.restoreFields(mesh);
      restart.restoreSwarms(mesh);
      restart.restoreParams(mesh);
      if (refinement != null) {
        refinement.restoreDerefinementCounts(restart.derefinementCounts());
        long[] blockCounts = restart.blockCounts();
        refinement.restoreBlockCounts(blockCounts[0], blockCounts[1]);
      }
      pin.setReal("parthenon/time", "start_time", restart.time());
      pin.setReal("parthenon/time", "dt", restart.dt());
      pin.setInteger("parthenon/time", "ncycle", restart.ncycle());
      MeshInitialization.resume(mesh, boundaries);
    }
    MultigridLevels multigrid = config.multigrid()
        ? MultigridLevels.build(mesh, boundaries, app.containerNames(integrator), coarse -> {
          BoundaryCommunication exchange = launch.boundaries().apply(pin);
          registerBoundaryFunctions(userBoundaries, exchange, coarse.config(), pin);
          exchange.setup(coarse);
          return exchange;
        })
        : null;
    return new Prepared(mesh, boundaries, integrator, multigrid);
  }

  /**
   * Hands the application's boundary functions to the boundary communication and checks that
   * every face of the deck names a condition that has one ({@code ix1_bc = user} needs one).
   */
  private static void registerBoundaryFunctions(BoundaryFunctions functions,
      BoundaryCommunication boundaries, MeshConfiguration config, ParameterInput pin) {
    if (!(boundaries instanceof InOneBoundaryCommunication inOne)) {
      if (!functions.names().isEmpty() || functions.hasPackageConditions()) {
        throw new ApplicationSetupError("it registers boundary functions " + functions.names()
            + " but this boundary communication (" + boundaries.getClass().getSimpleName()
            + ") takes none");
      }
      return;
    }
    inOne.boundaryConditions().use(functions);
    inOne.boundaryConditions().requireRegistered(config, pin);
  }

  /** The application's own set-up is inconsistent (a programming error, reported in one line). */
  static final class ApplicationSetupError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ApplicationSetupError(String message) {
      super(message);
    }
  }
}
