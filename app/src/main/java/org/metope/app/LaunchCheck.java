package org.metope.app;

import java.io.PrintStream;
import java.util.Arrays;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;
import org.metope.outputs.OutputDirectoryLock;
import org.metope.outputs.RestartFile;

/**
 * What the launcher runs once before it starts MPJ ranks ({@code ./metope -np N ...}): the checks
 * every rank would make first, so that a mistake in the command line, the deck or the restart file
 * is one line from one process instead of one per rank, and no rank starts for nothing.
 *
 * <pre>
 * java -cp ... org.metope.app.LaunchCheck RANKS ARGS...
 * </pre>
 *
 * Checks: the command line; the deck (or the restart file, its integrity and its fit to the deck's
 * mesh); the applications on the class path and the one the deck names; the mesh configuration;
 * and, where the number of blocks is known before the run (no adaptive refinement, or a restart),
 * that every rank gets a block.
 * Exits 0 silently when all pass, else prints one line and exits 2. Warnings are left to the run.
 */
public final class LaunchCheck {
  private LaunchCheck() {}

  /** Entry used by the {@code ./metope} launcher. */
  public static void main(String[] args) {
    System.exit(check(args, System.err));
  }

  /** Runs the checks for {@code args = RANKS APP_ARGS...}; returns the exit code. */
  static int check(String[] args, PrintStream err) {
    int ranks = Integer.parseInt(args[0]);
    LaunchOptions options;
    try {
      options = LaunchOptions.parse(Arrays.copyOfRange(args, 1, args.length));
    } catch (LaunchOptions.UsageException e) {
      err.println("metope: " + e.getMessage());
      return 2;
    }
    try {
      String problem = options.restartFile() != null ? checkRestart(options, ranks)
          : checkDeck(options, ranks);
      if (problem == null && !options.printDeckOnly() && options.meshRanks() == 0) {
        OutputDirectoryLock.requireFree(options.outputDir());
      }
      if (problem != null) {
        err.println("metope: -np " + ranks + ": " + problem);
        return 2;
      }
      return 0;
    } catch (InputError e) {
      err.println(e.getMessage());
      return 2;
    } catch (ApplicationError e) {
      err.println("metope: " + e.getMessage());
      return 2;
    } catch (RuntimeException e) {
      err.println("metope: -np " + ranks + ": the run cannot be set up: " + e);
      return 2;
    }
  }

  private static String checkDeck(LaunchOptions options, int ranks) {
    ParameterInput deck = ParameterInput.load(options.deck(), options.overrides());
    if (options.printDeckOnly() || options.meshRanks() > 0) {
      return null;
    }
    Applications.load().select(deck);
    MeshConfiguration config = MeshConfiguration.fromInput(deck);
    if (config.isAdaptive()) {
      return null;
    }
    int blocks = Mesh.build(config, ranks, 0).totalBlocks();
    return blocks >= ranks ? null : "the mesh of " + options.deck() + " has " + blocks
        + " MeshBlocks, fewer than the " + ranks + " ranks (every rank needs at least one)";
  }

  private static String checkRestart(LaunchOptions options, int ranks) {
    try (RestartFile restart = RestartFile.open(options.restartFile())) {
      ParameterInput deck = ParameterInput.parse(options.restartFile().toString(),
          restart.deck(), options.overrides());
      if (options.printDeckOnly() || options.meshRanks() > 0) {
        return null;
      }
      Applications.load().select(deck);
      int blocks = restart.locationsFor(MeshConfiguration.fromInput(deck)).size();
      return blocks >= ranks ? null : "the restart file " + options.restartFile() + " has "
          + blocks + " MeshBlocks, fewer than the " + ranks + " ranks (every rank needs at least"
          + " one)";
    }
  }
}
