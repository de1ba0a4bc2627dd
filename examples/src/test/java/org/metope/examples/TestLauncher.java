package org.metope.examples;

import java.io.PrintStream;
import org.metope.app.Metope;
import org.metope.bvals.InOneBoundaryCommunication;

/**
 * The {@code metope} entry, started from the test classes, with the in-one boundary
 * communication as {@code ./metope} uses:
 *
 * <pre>
 * java -cp examples/target/classes:examples/target/test-classes:... \
 *     org.metope.examples.TestLauncher -i inputs/advection.in
 * </pre>
 */
public final class TestLauncher {
  private TestLauncher() {}

  /** Runs like {@code ./metope} and exits with its code. */
  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs like {@code ./metope} and returns the exit code (the entry MPJ ranks call). */
  public static int run(String[] args) {
    return run(args, System.out, System.err);
  }

  /** Runs like {@code ./metope} and returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return Metope.run(args, out, err, InOneBoundaryCommunication::fromInput);
  }
}
