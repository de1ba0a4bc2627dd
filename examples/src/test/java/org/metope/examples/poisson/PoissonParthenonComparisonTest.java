package org.metope.examples.poisson;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jhdf.HdfFile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.app.ApplicationRunner;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessRun;
import org.metope.driver.RunOptions;
import org.metope.examples.PhdfTypes;
import org.metope.mesh.input.ParameterInput;

/**
 * Runs Parthenon's {@code poisson} deck unchanged and compares with what Parthenon's example
 * printed and wrote for it (test resources {@code parthenon/poisson}, see their README): the
 * standard output line for line (10,094 update norms, the reductions' lines), and the converged
 * potential of the final HDF5 output bit for bit; on 2 ranks the same norms and lines, and on 1,
 * 2 and 4 ranks and 16 partitions the same bits.
 */
class PoissonParthenonComparisonTest {
  @TempDir Path dir;

  private static Path resource(String name) {
    try {
      return Path.of(PoissonParthenonComparisonTest.class
          .getResource("/parthenon/poisson/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** What a run printed on rank 0, and its exit code. */
  private record Run(int code, List<String> out, String err) {}

  private Run run(int ranks, Path outputs, String... overrides) throws IOException {
    Files.createDirectories(outputs);
    String deck = Files.readString(resource("parthinput.poisson"));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int[] code = new int[ranks];
    InProcessRun.run(ranks, comm -> {
      PrintStream o = comm.rank() == 0 ? new PrintStream(out, true, StandardCharsets.UTF_8)
          : new PrintStream(OutputStreamSink.INSTANCE);
      PrintStream e = comm.rank() == 0 ? new PrintStream(err, true, StandardCharsets.UTF_8)
          : new PrintStream(OutputStreamSink.INSTANCE);
      code[comm.rank()] = runRank(comm, deck, outputs, o, e, overrides);
    });
    for (int c : code) {
      assertEquals(code[0], c, "every rank's exit code");
    }
    return new Run(code[0], out.toString(StandardCharsets.UTF_8).lines().toList(),
        err.toString(StandardCharsets.UTF_8));
  }

  private static int runRank(Communicator comm, String deck, Path outputs, PrintStream out,
      PrintStream err, String... overrides) {
    ParameterInput pin = ParameterInput.parse("parthinput.poisson", deck, List.of(overrides));
    return ApplicationRunner.run(new PoissonApplication(), new ApplicationRunner.Launch(pin,
        RunOptions.of(outputs, out), err, comm, InOneBoundaryCommunication::fromInput));
  }

  private static double[] potential(Path file) throws IOException {
    try (HdfFile h5 = new HdfFile(file)) {
      return (double[]) h5.getDatasetByPath("potential").getDataFlat();
    }
  }

  private static List<String> norms(List<String> lines) {
    return lines.stream().filter(l -> l.startsWith("Update norm = ")).toList();
  }

  private static List<String> others(List<String> lines) {
    List<String> rest = new ArrayList<>(lines.stream()
        .filter(l -> !l.startsWith("Update norm = ")).toList());
    rest.sort(null);
    return rest;
  }

  @Test
  void givenParthenonsDeckOnOneRank_thenItsOutputLineForLineAndItsConvergedPotential()
      throws IOException {
    Run r = run(1, dir.resolve("one"));
    assertEquals(0, r.code(), r.err());
    assertEquals("", r.err());
    assertEquals(Files.readAllLines(resource("stdout-1rank.txt")), r.out());
    assertEquals(10094, norms(r.out()).size());
    // No time loop: like Parthenon's, the file has no NCycle, Time, dt (PhdfTypes compares all).
    PhdfTypes.assertSameTypes(dir.resolve("one/poisson.out0.00001.phdf"),
        resource("poisson.out0.00001.phdf"));
    double[] ours = potential(dir.resolve("one/poisson.out0.00001.phdf"));
    double[] parthenons = potential(resource("poisson.out0.00001.phdf"));
    assertEquals(parthenons.length, ours.length);
    double worst = 0.0;
    for (int c = 0; c < ours.length; c++) {
      worst = Math.max(worst, Math.abs(ours[c] - parthenons[c]));
    }
    assertEquals(0.0, worst, "largest difference from Parthenon's potential");
  }

  @Test
  void givenParthenonsDeckOnTwoRanks_thenParthenonsTwoRankNormsAndLines() throws IOException {
    Run r = run(2, dir.resolve("two"));
    assertEquals(0, r.code(), r.err());
    List<String> parthenon = Files.readAllLines(resource("stdout-2ranks.txt"));
    assertEquals(norms(parthenon), norms(r.out()));
    assertEquals(others(parthenon), others(r.out()));
  }

  /**
   * GIVEN the deck cut to 300 iterations (it then ends at its limit with a warning), THEN 1 and 2
   * ranks with 16 partitions, 2 ranks and 4 ranks print the same norms and write the same
   * potential, bit for bit, as 1 rank with one partition.
   */
  @Test
  void givenOneTwoAndFourRanksAndSixteenPartitions_thenTheSameNormsAndBits() throws IOException {
    String cut = "poisson/max_iterations=300";
    Run reference = run(1, dir.resolve("r1"), cut);
    assertEquals(0, reference.code());
    assertEquals(300, norms(reference.out()).size());
    double[] bits = potential(dir.resolve("r1/poisson.out0.00001.phdf"));
    String sixteen = "parthenon/mesh/pack_size=1";
    String[][] variants = {{"1", sixteen}, {"2", sixteen}, {"2"}, {"4"}};
    for (int n = 0; n < variants.length; n++) {
      String[] v = variants[n];
      String[] overrides = v.length == 1 ? new String[] {cut} : new String[] {cut, v[1]};
      Path out = dir.resolve("variant" + n);
      Run r = run(Integer.parseInt(v[0]), out, overrides);
      String name = "ranks=" + v[0] + " " + String.join(" ", overrides);
      assertEquals(0, r.code(), r.err());
      assertEquals(norms(reference.out()), norms(r.out()), name);
      assertArrayEquals(bits, potential(out.resolve("poisson.out0.00001.phdf")), name);
    }
  }

  @Test
  void givenTooFewIterations_thenAWarningOrWithFailWithoutConvergenceOneLineAndExitOne()
      throws IOException {
    Run warned = run(1, dir.resolve("warn"), "poisson/max_iterations=40");
    assertEquals(0, warned.code());
    assertEquals(norms(Files.readAllLines(resource("stdout-1rank.txt"))).subList(0, 40),
        norms(warned.out()));
    assertEquals("warning: poisson: the solve did not converge within max_iterations = 40 "
        + "(largest change above error_tolerance = 1.0E-8)\n", warned.err());
    Run failed = run(2, dir.resolve("fail"), "poisson/max_iterations=40",
        "poisson/fail_without_convergence=true");
    assertEquals(1, failed.code());
    assertEquals("metope: poisson: the solve did not converge within max_iterations = 40 "
        + "(largest change above error_tolerance = 1.0E-8)\n", failed.err());
  }

  /** Discards what other ranks print. */
  private static final class OutputStreamSink extends java.io.OutputStream {
    static final OutputStreamSink INSTANCE = new OutputStreamSink();

    @Override
    public void write(int b) {}
  }
}
