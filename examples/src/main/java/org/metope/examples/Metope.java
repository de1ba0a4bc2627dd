package org.metope.examples;

import java.io.PrintStream;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;

/**
 * The {@code metope} application entry: parses Parthenon's command line and runs the application
 * a deck asks for. User errors end with one line on standard error and exit code 2.
 */
public final class Metope {
  private Metope() {}

  /** Entry point used by the {@code ./metope} launcher. */
  public static void main(String[] args) {
    int code = run(args, System.out, System.err);
    System.exit(code);
  }

  /** Runs with the given arguments and returns the process exit code. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    LaunchOptions options;
    try {
      options = LaunchOptions.parse(args);
    } catch (LaunchOptions.UsageException e) {
      err.println("metope: " + e.getMessage());
      return 2;
    }
    ParameterInput deck;
    try {
      deck = ParameterInput.load(options.deck(), options.overrides());
    } catch (InputError e) {
      err.println(e.getMessage());
      return 2;
    }
    for (String warning : deck.warnings()) {
      err.println("warning: " + warning);
    }
    if (options.printDeckOnly()) {
      out.print(deck.effectiveDeck());
      return 0;
    }
    err.println("metope: no application is registered to run " + options.deck()
        + " (the examples are not built yet)");
    return 2;
  }
}
