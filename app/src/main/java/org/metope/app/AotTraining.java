package org.metope.app;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The training run of the launcher's ahead-of-time cache for JVMs of release 25 (launcher/aot.sh):
 * several Metope runs, one after another in one JVM, so that the cache holds the classes and
 * method profiles of all of them. The arguments are those of each run, separated by {@value
 * #THEN}; the exit code is the first non-zero code of a run (the runs after it still run), else 0.
 */
public final class AotTraining {
  /** The argument that ends one run's arguments and starts the next run's. */
  static final String THEN = "--then";

  private AotTraining() {}

  /** Entry point used by launcher/aot.sh. */
  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs each group of arguments as a Metope run and returns the first non-zero exit code. */
  static int run(String[] args) {
    int code = 0;
    for (String[] runArgs : runs(args)) {
      int runCode = Metope.run(runArgs);
      if (code == 0) {
        code = runCode;
      }
    }
    return code;
  }

  /** The arguments of each run, in order. */
  static List<String[]> runs(String[] args) {
    List<String[]> runs = new ArrayList<>();
    int from = 0;
    for (int i = 0; i <= args.length; i++) {
      if (i == args.length || THEN.equals(args[i])) {
        runs.add(Arrays.copyOfRange(args, from, i));
        from = i + 1;
      }
    }
    return runs;
  }
}
