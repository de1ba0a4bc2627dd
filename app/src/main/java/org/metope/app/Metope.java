package org.metope.app;

import org.metope.bvals.InOneBoundaryCommunication;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.List;
import java.util.function.Function;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.MeshStructureReport;
import org.metope.comm.Communicator;
import org.metope.comm.Communicators;
import org.metope.mesh.BoundaryCommunication;
import org.metope.driver.RunOptions;
import org.metope.mesh.DriverError;
import org.metope.mesh.input.DeckCheck;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;
import org.metope.outputs.OutputDirectoryLock;
import org.metope.outputs.RestartFile;

/**
 * The {@code metope} application entry: parses Parthenon's command line and runs the application
 * a deck asks for ({@link Applications#select}) with the {@link ApplicationRunner}. User errors end
 * with one line on standard error and exit code 2; a run that fails ends with exit code 1. {@code
 * --applications} prints the applications on the class path, one per line (for {@code metope
 * --help}).
 */
public final class Metope {
  private Metope() {}

  /** Entry point used by the {@code ./metope} launcher. */
  public static void main(String[] args) {
    int code;
    try {
      code = run(args, System.out, System.err);
    } catch (OutOfMemoryError e) {
      // where the heap ran out again while the run's own handler reported it: a constant line
      ApplicationRunner.releaseReserve();
      System.err.println(ApplicationRunner.OUT_OF_MEMORY);
      code = 1;
    }
    System.exit(code);
  }

  /**
   * Runs with the given arguments and returns the exit code instead of exiting; the MPJ rank
   * entry calls this so that every rank reports its own code.
   */
  public static int run(String[] args) {
    return run(args, System.out, System.err);
  }

  /**
   * The boundary communication of launcher runs, made once per run from the deck: boundary
   * communication "in one" with the deck's kernel backend.
   */
  public static Function<ParameterInput, BoundaryCommunication> boundaryCommunication() {
    return InOneBoundaryCommunication::fromInput;
  }

  /**
   * Runs with the given arguments and streams and returns the process exit code; the MPJ rank
   * entry calls this so that a rank's errors reach the launcher once (see {@code RankErrors}).
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, out, err, boundaryCommunication());
  }

  /**
   * Runs with the given arguments and boundary communication (tests pass their own) and returns
   * the process exit code.
   */
  public static int run(String[] args, PrintStream out, PrintStream err,
      Function<ParameterInput, BoundaryCommunication> boundaries) {
    long start = System.nanoTime();
    Applications registry;
    try {
      registry = Applications.load();
    } catch (ApplicationError e) {
      err.println("metope: " + e.getMessage());
      return 2;
    }
    if (args.length == 1 && args[0].equals("--applications")) {
      for (String line : registry.helpLines()) {
        out.println(line);
      }
      return 0;
    }
    LaunchOptions options;
    try {
      options = LaunchOptions.parse(args);
    } catch (LaunchOptions.UsageException e) {
      err.println("metope: " + e.getMessage());
      return 2;
    }
    ParameterInput deck;
    RestartFile restart = null;
    try {
      if (options.restartFile() != null) {
        restart = RestartFile.open(options.restartFile());
        deck = ParameterInput.parse(options.restartFile().toString(), restart.deck(),
            options.overrides());
        RestartMesh.requireUnchanged(options.restartFile().toString(),
            ParameterInput.parse(options.restartFile().toString(), restart.deck(), List.of()),
            deck);
      } else {
        deck = ParameterInput.load(options.deck(), options.overrides());
      }
    } catch (InputError e) {
      if (restart != null) {
        restart.close();
      }
      err.println(e.getMessage());
      return 2;
    }
    try (RestartFile resumeFrom = restart) {
      return runDeck(registry, options, deck, resumeFrom, out, err, boundaries, start);
    }
  }

  private static int runDeck(Applications registry, LaunchOptions options, ParameterInput deck,
      RestartFile restart, PrintStream out, PrintStream err,
      Function<ParameterInput, BoundaryCommunication> boundaries, long start) {
    for (String warning : deck.warnings()) {
      err.println("warning: " + warning);
    }
    for (String warning : DeckCheck.unknownBlocks(deck, registry.blocksFor(deck))) {
      err.println("warning: " + warning);
    }
    if (options.printDeckOnly()) {
      out.print(deck.effectiveDeck());
      return 0;
    }
    if (options.meshRanks() > 0) {
      return printMeshStructure(registry, deck, options.meshRanks(), out, err, boundaries);
    }
    return runApplication(registry, options, deck, restart, out, err, boundaries, start);
  }

  /**
   * Picks the deck's application and runs it, resuming from {@code restart} when it is not null;
   * {@code start} is when the launcher started.
   */
  private static int runApplication(Applications registry, LaunchOptions options,
      ParameterInput deck, RestartFile restart, PrintStream out, PrintStream err,
      Function<ParameterInput, BoundaryCommunication> boundaries, long start) {
    Application app;
    try {
      app = registry.select(deck);
    } catch (InputError e) {
      err.println(e.getMessage());
      return 2;
    }
    if (boundaries == null) {
      err.println("metope: this build has no boundary communication (module bvals), so it cannot"
          + " run " + app.name() + " yet; -n and -m work");
      return 2;
    }
    try {
      Files.createDirectories(options.outputDir());
    } catch (IOException e) {
      err.println("metope: -d " + options.outputDir() + ": cannot create the output directory ("
          + e.getMessage() + ")");
      return 2;
    }
    long deadline = options.wallTimeLimitSeconds() < 0 ? Long.MAX_VALUE
        : start + options.wallTimeLimitSeconds() * 1_000_000_000L;
    RunOptions runOptions = new RunOptions(options.outputDir(), deadline, out, restart != null);
    Communicator world = Communicators.world();
    try (OutputDirectoryLock lock = world.rank() == 0
        ? OutputDirectoryLock.acquire(options.outputDir()) : null) {
      return ApplicationRunner.run(app, new ApplicationRunner.Launch(deck, runOptions, err,
          world, boundaries, restart), registry);
    } catch (InputError e) {
      err.println(e.getMessage());
      return 2;
    }
  }

  /**
   * The most blocks a mesh of {@code config} can have: its root blocks, each refined to the
   * deepest level. A decomposition over more ranks is refused before it is computed (one over
   * 10^9 ranks took a minute to build).
   */
  private static double mostBlocks(MeshConfiguration config) {
    double roots = (double) config.rootBlocks(0) * config.rootBlocks(1) * config.rootBlocks(2);
    int levels = config.maxLevel() - config.rootGrid().rootLevel();
    return roots * Math.pow(2, (double) config.ndim() * levels);
  }

  /**
   * {@code -m N}: builds the initial mesh from the deck as if on {@code nranks} ranks, prints its
   * structure and exits without running (Parthenon's mesh test mode). With adaptive refinement
   * the deck's application sets up its initial state on one rank, so the mesh shown is the one
   * start-up refinement makes (Parthenon shows the mesh before it).
   */
  static int printMeshStructure(Applications registry, ParameterInput deck, int nranks,
      PrintStream out, PrintStream err,
      Function<ParameterInput, BoundaryCommunication> boundaries) {
    Mesh mesh;
    try {
      MeshConfiguration config = MeshConfiguration.fromInput(deck);
      double mostBlocks = mostBlocks(config);
      if (nranks > mostBlocks) {
        err.println("metope: -m " + nranks + ": the mesh has at most " + (long) mostBlocks
            + " MeshBlocks (every root block refined to the deepest level), fewer than the"
            + " number of ranks");
        return 2;
      }
      mesh = config.isAdaptive() && boundaries != null
          ? ApplicationRunner.initialMesh(registry.select(deck), deck, nranks, boundaries)
          : Mesh.build(config, nranks, 0);
    } catch (InputError e) {
      err.println(e.getMessage());
      return 2;
    } catch (DriverError | ApplicationRunner.ApplicationSetupError e) {
      err.println("metope: " + e.getMessage());
      return 1;
    }
    if (mesh.totalBlocks() < nranks) {
      String line = "-m " + nranks + ": the mesh has " + mesh.totalBlocks()
          + " MeshBlocks, fewer than the number of ranks";
      if (!mesh.isAdaptive()) {
        err.println("metope: " + line + " (without adaptive refinement every rank needs a block)");
        return 2;
      }
      err.println("warning: " + line + "; some ranks start with no block");
    }
    out.print(MeshStructureReport.render(mesh));
    return 0;
  }
}
