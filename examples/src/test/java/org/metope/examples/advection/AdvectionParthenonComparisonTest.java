package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs Parthenon's own decks and compares with the files Parthenon's advection example wrote for
 * them (test resources {@code parthenon/}, see their README): history and error files character
 * for character, the final field of the issue's 3D deck to 1e-12.
 */
class AdvectionParthenonComparisonTest {
  @TempDir Path dir;

  private static Path resource(String name) {
    try {
      return Path.of(AdvectionParthenonComparisonTest.class.getResource("/parthenon/" + name)
          .toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Every history and error file Parthenon wrote in {@code folder} equals Metope's. */
  private void assertSameOutputs(String folder) throws IOException {
    List<Path> expected;
    try (Stream<Path> files = Files.list(resource(folder))) {
      expected = files.filter(p -> p.toString().endsWith(".hst") || p.toString().endsWith(".dat"))
          .sorted().toList();
    }
    assertTrue(expected.size() >= 1, folder);
    for (Path reference : expected) {
      Path ours = dir.resolve(reference.getFileName().toString());
      assertTrue(Files.exists(ours), "Metope wrote no " + ours.getFileName());
      assertEquals(Files.readAllLines(reference), Files.readAllLines(ours),
          folder + "/" + reference.getFileName());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"wave1d", "wave2d", "gauss2d", "sphere3d_rk1", "block3d"})
  void givenAParthenonDeck_thenHistoryAndErrorFilesEqualParthenonsInEveryPrintedDigit(
      String folder) throws IOException {
    AdvectionRuns.run(resource(folder + "/" + folder + ".in"), dir);
    assertSameOutputs(folder);
  }

  @Test
  void givenTheIssueDeck64CubedHardSphereRk2_thenHistoryAndFinalFieldEqualParthenons()
      throws IOException {
    AdvectionRuns.Result r = AdvectionRuns.run(resource("uni3d/uni3d.in"), dir);

    assertSameOutputs("uni3d");
    double[] field = AdvectionRuns.advected(r.mesh());
    List<String> samples = Files.readAllLines(resource("uni3d/advected-final-samples.txt"));
    int cells = 0;
    int blocks = 0;
    for (String line : samples) {
      String[] w = line.split(" ");
      if (w[0].equals("cell")) {
        assertClose(Double.parseDouble(w[2]), field[Integer.parseInt(w[1])], line);
        cells++;
      } else if (w[0].equals("block")) {
        int b = Integer.parseInt(w[1]);
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        double sumAbs = 0;
        for (int n = b * 4096; n < (b + 1) * 4096; n++) {
          min = Math.min(min, field[n]);
          max = Math.max(max, field[n]);
          sumAbs += Math.abs(field[n]);
        }
        assertClose(Double.parseDouble(w[2]), min, line);
        assertClose(Double.parseDouble(w[3]), max, line);
        assertClose(Double.parseDouble(w[4]), sumAbs, line);
        blocks++;
      }
    }
    assertEquals(1021, cells);
    assertEquals(64, blocks);
    try (io.jhdf.HdfFile h5 = new io.jhdf.HdfFile(dir.resolve("advection.out0.final.phdf"))) {
      org.junit.jupiter.api.Assertions.assertArrayEquals(field,
          (double[]) h5.getDatasetByPath("advected").getDataFlat(), "the final HDF5 output");
    }
    assertTrue(r.out().contains("\nDriver completed.\ntime=1.41e-01 cycle=20\n"
        + "tlim=1.00e+00 nlim=20\n"), r.out());
  }

  private static void assertClose(double expected, double actual, String what) {
    double scale = Math.max(Math.abs(expected), 1.0);
    assertTrue(Math.abs(expected - actual) <= 1e-12 * scale,
        what + ": expected " + expected + ", got " + actual);
  }
}
