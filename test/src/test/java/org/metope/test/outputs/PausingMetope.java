package org.metope.test.outputs;

import java.util.Arrays;
import java.util.regex.Pattern;
import org.metope.app.Metope;
import org.metope.outputs.PauseBeforeRename;

/**
 * {@code java -cp TEST-CLASS-PATH org.metope.test.outputs.PausingMetope NAMES ARGS...}: runs
 * {@link Metope} with {@code ARGS}, every output write whose final file name matches the regular
 * expression {@code NAMES} pausing before its rename ({@link PauseBeforeRename}), so that a kill
 * test can land a kill exactly mid-output.
 */
public final class PausingMetope {
  private PausingMetope() {}

  /** The process's entry: the pattern, then Metope's own arguments. */
  public static void main(String[] args) {
    PauseBeforeRename.install(Pattern.compile(args[0]));
    System.exit(Metope.run(Arrays.copyOfRange(args, 1, args.length)));
  }
}
