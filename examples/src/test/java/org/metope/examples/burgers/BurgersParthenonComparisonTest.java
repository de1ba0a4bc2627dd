package org.metope.examples.burgers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.examples.advection.AdvectionHdf5ComparisonTest;

/**
 * Runs the Parthenon-VIBE reference decks (test resources {@code parthenon/burgers}, see the
 * README there) and compares with what Parthenon's {@code burgers-benchmark} wrote for them: the
 * history file row by row (cycle and block count at every output exactly, time, dt and the
 * octant sums to 1e-13), and the final fields to 1e-12 with blocks matched by level and
 * logical location, from the whole {@code .phdf} file for the 2D cases and from {@link
 * PhdfSamples} for the 3D ones.
 */
class BurgersParthenonComparisonTest {
  @TempDir Path dir;

  private static Path resource(String name) {
    try {
      return Path.of(BurgersParthenonComparisonTest.class
          .getResource("/parthenon/burgers/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"w5_3d_l2", "lin_3d_l3", "w5_2d_l3", "lin_2d_l2"})
  void givenAReferenceDeck_thenHistoryBlocksAndFinalFieldsEqualParthenons(String name)
      throws IOException {
    BurgersRuns.run(resource(name + ".in"), dir);

    assertSameHistory(Files.readAllLines(resource(name + ".out1.hst")),
        Files.readAllLines(dir.resolve(name + ".out1.hst")));
    Path ours = dir.resolve(name + ".out0.final.phdf");
    String phdf = name + ".out0.final.phdf";
    if (BurgersParthenonComparisonTest.class.getResource("/parthenon/burgers/" + phdf) != null) {
      AdvectionHdf5ComparisonTest.assertSameAsParthenons(ours, resource(phdf),
          HISTORY_TOLERANCE);
    } else {
      assertSameSamples(PhdfSamples.read(resource(name + ".final-samples.txt")),
          PhdfSamples.samples(ours));
    }
  }

  /**
   * Same header; per row the same cycle and block count, and time, dt and the octant sums to
   * {@value #HISTORY_TOLERANCE} relative: the sums are accumulated in another order than Kokkos'
   * tiled reduction, and the initial state's transcendentals (fdlibm's, not glibc's) differ in the
   * last bit in a few cells, which reaches dt too, so the last printed digit may differ.
   */
  private static void assertSameHistory(List<String> theirs, List<String> ours) {
    assertEquals(theirs.size(), ours.size(), "history rows");
    for (int row = 0; row < theirs.size(); row++) {
      String t = theirs.get(row);
      String o = ours.get(row);
      if (t.startsWith("#")) {
        assertEquals(t, o, "history header");
        continue;
      }
      String[] tw = t.trim().split("\\s+");
      String[] ow = o.trim().split("\\s+");
      assertEquals(tw.length, ow.length, o);
      for (int c = 0; c < tw.length; c++) {
        if (c == 2 || c == 3) {
          assertEquals(tw[c], ow[c], "row " + row + " column " + (c + 1) + ": " + o);
        } else {
          double expected = Double.parseDouble(tw[c]);
          double actual = Double.parseDouble(ow[c]);
          assertTrue(Math.abs(expected - actual) <= HISTORY_TOLERANCE * Math.abs(expected),
              "row " + row + " column " + (c + 1) + ": " + actual + " against " + expected);
        }
      }
    }
  }

  private static final double HISTORY_TOLERANCE = 1e-13;

  private static void assertSameSamples(Map<String, double[]> theirs, Map<String, double[]> ours) {
    assertEquals(theirs.keySet(), ours.keySet(), "blocks, fields and sampled cells");
    double worst = 0;
    String where = "";
    for (Map.Entry<String, double[]> e : theirs.entrySet()) {
      double[] expected = e.getValue();
      double[] actual = ours.get(e.getKey());
      for (int n = 0; n < expected.length; n++) {
        double d = Math.abs(expected[n] - actual[n]) / Math.max(1.0, Math.abs(expected[n]));
        if (d > worst) {
          worst = d;
          where = e.getKey();
        }
      }
    }
    assertTrue(worst <= 1e-12, "largest difference " + worst + " at " + where);
    assertTrue(theirs.size() > 100, List.copyOf(theirs.keySet()).toString());
  }
}
