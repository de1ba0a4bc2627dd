package org.metope.examples.advection;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.metope.comm.InProcessRun;
import org.metope.mesh.input.ParameterInput;

/**
 * Developer tool: runs a deck on N in-process ranks (threads of this JVM) with the test exchange
 * and prints rank 0's output, e.g. to time a 2-rank run before the MPJ launcher can run decks:
 *
 * <pre>
 * java -cp ... org.metope.examples.advection.InProcessRanks 2 DECK [block/key=value ...]
 * </pre>
 */
public final class InProcessRanks {
  private InProcessRanks() {}

  /** {@code args}: number of ranks, deck, overrides. */
  public static void main(String[] args) {
    int ranks = Integer.parseInt(args[0]);
    List<String> overrides = Arrays.asList(args).subList(2, args.length);
    String[] out = new String[1];
    InProcessRun.run(ranks, comm -> {
      ParameterInput pin = ParameterInput.load(Path.of(args[1]), overrides);
      AdvectionRuns.Result r = AdvectionRuns.run(pin, Path.of("."), comm);
      if (comm.rank() == 0) {
        out[0] = r.out() + r.err();
      }
    });
    System.out.print(out[0]);
  }
}
