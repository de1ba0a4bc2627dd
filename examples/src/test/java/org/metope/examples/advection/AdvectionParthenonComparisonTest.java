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
import org.metope.examples.PhdfTypes;

/**
 * Runs Parthenon's own decks and compares with the files Parthenon's advection example wrote for
 * them (test resources {@code parthenon/}, see their README): history files, written by both at
 * full precision ({@code data_format = %.17e} on every history output, given on the command line
 * so that the decks stay Parthenon's), and error files character for character, the final field
 * of the issue's 3D deck to 1e-12, and for Parthenon's adaptive deck (2D to tlim = 1, and its 3D
 * version to nlim = 20, and a 3D variant refined by a built-in derivative criterion, {@code
 * crit3d}) the block count at every history output and every digit, and for the 2D deck the final
 * HDF5 output's blocks and values.
 *
 * <p>The decks run as they are, with Metope's default stage update: Parthenon's advection-example
 * update for {@code rk1}, {@code rk2} and {@code rk3}, where it is a consistent scheme. {@code
 * gauss2d} uses {@code vl2}, where Parthenon's update advances 1.5 dt per step: it runs with
 * {@code <metope> stage_update = parthenon} ({@link #PARTHENON_VL2}) to reproduce that.
 */
class AdvectionParthenonComparisonTest {
  /** The override that runs Parthenon's (inconsistent) vl2 update, for the vl2 decks. */
  static final String PARTHENON_VL2 = "metope/stage_update=parthenon";
  /** The history files' number format, Parthenon's {@code data_format}: every bit of a double. */
  private static final String FULL_PRECISION = "%.17e";
  /** How far a history value may be from Parthenon's, relative ({@link #assertSameHistory}). */
  private static final double HISTORY_TOLERANCE = 1e-12;
  private static final java.util.regex.Pattern HISTORY =
      java.util.regex.Pattern.compile("(?m)^file_type\\s*=\\s*hst\\b");

  @TempDir Path dir;

  private static Path resource(String name) {
    try {
      return Path.of(AdvectionParthenonComparisonTest.class.getResource("/parthenon/" + name)
          .toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The deck {@code folder/name} and the overrides that print each of its history outputs with
   * 17 significant digits, as Parthenon ran it for the reference files, then {@code extra}.
   */
  private AdvectionRuns.Result run(String folder, String name, String... extra)
      throws IOException {
    Path deck = resource(folder + "/" + name);
    List<String> overrides = new java.util.ArrayList<>();
    java.util.regex.Matcher blocks = java.util.regex.Pattern.compile(
        "(?m)^<(parthenon/output[0-9]+)>\\s*$([^<]*)").matcher(Files.readString(deck));
    while (blocks.find()) {
      if (HISTORY.matcher(blocks.group(2)).find()) {
        overrides.add(blocks.group(1) + "/data_format=" + FULL_PRECISION);
      }
    }
    assertTrue(!overrides.isEmpty(), deck + " has a history output");
    overrides.addAll(List.of(extra));
    return AdvectionRuns.run(deck, dir, overrides.toArray(new String[0]));
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
      String what = folder + "/" + reference.getFileName();
      if (reference.toString().endsWith(".hst")) {
        assertSameHistory(Files.readAllLines(reference), Files.readAllLines(ours), what);
      } else {
        assertEquals(Files.readAllLines(reference), Files.readAllLines(ours), what);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"wave1d", "wave2d", "gauss2d", "sphere3d_rk1", "block3d", "crit3d"})
  void givenAParthenonDeck_thenHistoryAndErrorFilesEqualParthenonsInEveryDigit(
      String folder) throws IOException {
    if (folder.equals("gauss2d")) {
      run(folder, folder + ".in", PARTHENON_VL2);
    } else {
      run(folder, folder + ".in");
    }
    assertSameOutputs(folder);
  }

  /**
   * Negative control of {@link #assertSameHistory}: Parthenon's own file against itself passes;
   * with one value moved by ten times the tolerance, or the file Parthenon printed with 6 digits
   * before (a value rounded to 6 digits), it fails.
   */
  @Test
  void givenAHistoryOffByTenTimesTheTolerance_thenTheComparisonFails() throws IOException {
    List<String> reference = Files.readAllLines(resource("wave1d/wave1d.out1.hst"));
    assertSameHistory(reference, reference, "itself");
    List<String> moved = new java.util.ArrayList<>(reference);
    String[] row = moved.get(5).trim().split("\\s+");
    double value = Double.parseDouble(row[4]) * (1 + 10 * HISTORY_TOLERANCE);
    moved.set(5, moved.get(5).replace(row[4], String.format(java.util.Locale.ROOT, "%.17e",
        value)));
    assertTrue(!moved.get(5).equals(reference.get(5)), moved.get(5));
    org.junit.jupiter.api.Assertions.assertThrows(org.opentest4j.AssertionFailedError.class,
        () -> assertSameHistory(reference, moved, "moved"));
    List<String> rounded = new java.util.ArrayList<>();
    for (String line : reference) {
      rounded.add(line.startsWith("#") ? line : round(line));
    }
    org.junit.jupiter.api.Assertions.assertThrows(org.opentest4j.AssertionFailedError.class,
        () -> assertSameHistory(reference, rounded, "rounded to 6 digits"));
  }

  /** A history row with every real printed as Parthenon's default {@code %12.5e}. */
  private static String round(String row) {
    StringBuilder out = new StringBuilder();
    for (String w : row.trim().split("\\s+")) {
      out.append(' ').append(w.contains("e") ? String.format(java.util.Locale.ROOT, "%12.5e",
          Double.parseDouble(w)) : w);
    }
    return out.toString();
  }

  @Test
  void givenSparseDisabled_thenTheGaussianWithItsSparsePoolStillGivesParthenonsHistory()
      throws IOException {
    run("gauss2d", "gauss2d.in", "parthenon/sparse/enable_sparse=false", PARTHENON_VL2);
    assertSameOutputs("gauss2d");
  }

  @Test
  void givenTheIssueDeck64CubedHardSphereRk2_thenHistoryAndFinalFieldEqualParthenons()
      throws IOException {
    AdvectionRuns.Result r = run("uni3d", "uni3d.in");

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

  @Test
  void givenParthenonsAdaptiveDeckToTlimOne_thenBlockCountsAndHistoryEqualParthenonsAndMassIsKept()
      throws IOException {
    AdvectionRuns.Result r = run("amr2d", "parthinput.advection",
        "parthenon/output9/file_type=hst", "parthenon/output9/dt=0.05",
        "parthenon/output9/data_format=%.17e");

    assertSameOutputs("amr2d");
    AdvectionHdf5ComparisonTest.assertSameAsParthenons(dir.resolve("advection.out0.final.phdf"),
        resource("amr2d/advection.out0.final.phdf"));
    PhdfTypes.assertSameTypes(dir.resolve("advection.out1.final.rhdf"),
        resource("amr2d/advection.out1.final.rhdf"));
    assertTrue(r.out().contains("\nDriver completed.\ntime=1.00e+00 cycle=569\n"), r.out());
    assertTrue(r.out().contains("\nNumber of MeshBlocks = 130; 330  created, 216 destroyed during"
        + " this simulation.\n"), r.out());
    // total_advected (column 5) at full precision: conserved through every remesh, thanks to the
    // flux correction and conservative prolongation and restriction.
    List<String> rows = Files.readAllLines(dir.resolve("advection.out9.hst")).stream()
        .filter(l -> !l.startsWith("#")).toList();
    assertEquals(21, rows.size());
    double first = Double.parseDouble(rows.get(0).trim().split("\\s+")[4]);
    for (String row : rows) {
      double total = Double.parseDouble(row.trim().split("\\s+")[4]);
      assertTrue(Math.abs(total - first) <= 1e-13 * first, row + " drifts from " + first);
    }
  }

  @Test
  void givenParthenonsAdaptiveDeckIn3dToNlim20_thenBlockCountsAndHistoryEqualParthenons()
      throws IOException {
    AdvectionRuns.Result r = run("amr3d", "parthinput.advection3d");

    assertSameOutputs("amr3d");
    assertTrue(r.out().contains("\nNumber of MeshBlocks = 778; 714  created, 0 destroyed during"
        + " this simulation.\n"), r.out());
  }

  /**
   * Two history files at full precision: the same header lines, rows and columns, integer
   * columns (cycle, block count) equal, and every real within {@value #HISTORY_TOLERANCE} of
   * Parthenon's, relative to the larger of the two: sums over cells are added in another order
   * than Kokkos's reductions add them, which moves their last digits (time, dt, maximum and
   * minimum agree to the bit).
   */
  private static void assertSameHistory(List<String> expected, List<String> actual,
      String what) {
    assertEquals(expected.size(), actual.size(), what + ": rows");
    for (int r = 0; r < expected.size(); r++) {
      String e = expected.get(r);
      String a = actual.get(r);
      if (e.startsWith("#")) {
        assertEquals(e, a, what + ": header");
        continue;
      }
      String[] ev = e.trim().split("\\s+");
      String[] av = a.trim().split("\\s+");
      assertEquals(ev.length, av.length, what + ": columns of row " + r);
      for (int c = 0; c < ev.length; c++) {
        if (!ev[c].contains("e")) {
          assertEquals(ev[c], av[c], what + " row " + r + " column " + (c + 1));
          continue;
        }
        double x = Double.parseDouble(ev[c]);
        double y = Double.parseDouble(av[c]);
        assertTrue(Math.abs(x - y) <= HISTORY_TOLERANCE * Math.max(Math.abs(x), Math.abs(y)),
            what + " row " + r + " column " + (c + 1) + ": Parthenon " + ev[c] + ", Metope "
            + av[c]);
      }
    }
  }

  private static void assertClose(double expected, double actual, String what) {
    double scale = Math.max(Math.abs(expected), 1.0);
    assertTrue(Math.abs(expected - actual) <= 1e-12 * scale,
        what + ": expected " + expected + ", got " + actual);
  }
}
