package org.metope.examples.poissongmg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.metope.app.ApplicationRunner;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessRun;
import org.metope.driver.RunOptions;
import org.metope.mesh.input.ParameterInput;

/**
 * Runs {@code poisson_gmg} on Parthenon's decks (test resources {@code parthenon/poisson_gmg},
 * see their README) in process, on one or more ranks, and reads what Parthenon printed for them.
 */
final class PoissonGmgRuns {
  private PoissonGmgRuns() {}

  static Path resource(String name) {
    try {
      return Path.of(PoissonGmgRuns.class.getResource("/parthenon/poisson_gmg/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** What Parthenon printed ({@code stdout-*.txt}). */
  static List<String> reference(String name) throws IOException {
    return Files.readAllLines(resource(name));
  }

  /**
   * The exit code of Parthenon's {@code poisson_gmg} for what it printed: 1 when the last residual
   * line is above 1e-10 or the final rms error above 1e-12 (its {@code main}'s test), else 0.
   */
  static int parthenonsExitCode(List<String> lines) {
    boolean pass = true;
    for (String line : lines) {
      String[] words = line.trim().split("\\s+");
      if (line.startsWith("Final rms error: ")) {
        pass &= Double.parseDouble(words[3]) <= 1e-12;
      }
    }
    String last = lines.stream().filter(l -> l.matches("\\s*\\d+ \\S+")).reduce((a, b) -> b)
        .orElseThrow();
    pass &= Double.parseDouble(last.trim().split("\\s+")[1]) <= 1e-10;
    return pass ? 0 : 1;
  }

  /**
   * What rank 0 printed running {@code app} on {@code deck} with {@code overrides}, outputs into
   * {@code outputs}; every rank must end with the exit code Parthenon's example gives for those
   * lines ({@link #parthenonsExitCode}).
   */
  static List<String> run(PoissonGmgApplication app, int ranks, Path outputs, String deck,
      String... overrides) throws IOException {
    String text = Files.readString(resource(deck));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int[] code = new int[ranks];
    InProcessRun.run(ranks, comm -> {
      PrintStream o = comm.rank() == 0 ? new PrintStream(out, true, StandardCharsets.UTF_8)
          : new PrintStream(OutputStream.nullOutputStream());
      PrintStream e = comm.rank() == 0 ? new PrintStream(err, true, StandardCharsets.UTF_8)
          : new PrintStream(OutputStream.nullOutputStream());
      ParameterInput pin = ParameterInput.parse(deck, text, List.of(overrides));
      code[comm.rank()] = ApplicationRunner.run(app,
          new ApplicationRunner.Launch(pin, RunOptions.of(outputs, o), e, comm,
              InOneBoundaryCommunication::fromInput));
    });
    List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
    for (int c : code) {
      assertEquals(parthenonsExitCode(lines), c, err.toString(StandardCharsets.UTF_8));
    }
    return lines;
  }

  /** The rms residual printed after iteration {@code n}. */
  static double residual(List<String> lines, int n) {
    for (String line : lines) {
      if (line.startsWith(n + " ")) {
        return Double.parseDouble(line.substring(line.indexOf(' ') + 1));
      }
    }
    throw new AssertionError("no iteration " + n + " in " + lines);
  }

  /** The final rms error printed last. */
  static double finalError(List<String> lines) {
    String last = lines.get(lines.size() - 1);
    if (!last.startsWith("Final rms error: ")) {
      throw new AssertionError("no final error: " + last);
    }
    return Double.parseDouble(last.substring("Final rms error: ".length()));
  }
}
