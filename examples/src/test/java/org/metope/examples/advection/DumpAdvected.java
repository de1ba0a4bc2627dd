package org.metope.examples.advection;

import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Developer tool: runs a deck with the test exchange on one rank and writes component 0 of {@code
 * advected} (interior cells, gid order, i fastest) as big-endian doubles, for comparing with a
 * Parthenon HDF5 output.
 *
 * <pre>
 * java -cp ... org.metope.examples.advection.DumpAdvected DECK OUT.bin [block/key=value ...]
 * </pre>
 */
public final class DumpAdvected {
  private DumpAdvected() {}

  /** Runs {@code args[0]} and writes {@code args[1]}. */
  public static void main(String[] args) throws IOException {
    Path deck = Path.of(args[0]);
    String[] overrides = Arrays.copyOfRange(args, 2, args.length);
    AdvectionRuns.Result r = AdvectionRuns.run(deck, Path.of("."), overrides);
    System.out.print(r.out());
    System.err.print(r.err());
    double[] values = AdvectionRuns.advected(r.mesh());
    try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(Path.of(args[1])))) {
      for (double v : values) {
        out.writeDouble(v);
      }
    }
  }
}
