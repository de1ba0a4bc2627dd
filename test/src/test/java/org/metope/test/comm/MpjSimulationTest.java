package org.metope.test.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.outputs.FileIntegrity;
import org.metope.outputs.PhdfContents;

/**
 * Whole simulations under MPJ Express multicore through {@code ./metope -np 2}: the boundary
 * exchange fills every ghost cell across ranks, a deck gives the same history file on 1 rank and
 * on 2 MPJ ranks (an adaptive one too, with blocks moving between the ranks, and sparse_advection
 * with fields allocated and freed, in both message modes), HDF5 outputs and restart files hold the
 * same datasets on 1, 2 and 4 ranks, the poisson solver's task reductions give the one-rank bits
 * on 2 and 4 ranks, and a bad deck ends the run non-zero within seconds.
 */
class MpjSimulationTest {
  private static final long LIMIT_SECONDS = 120;

  @TempDir Path dir;

  @BeforeAll
  static void mpjIsInstalled() {
    LauncherRun.requireMpj();
  }

  private static String deck(String name) {
    return LauncherRun.root().resolve("inputs").resolve(name).toString();
  }

  @Test
  void givenEveryGhostCheckDeckOnTwoRanks_thenNoWrongGhostCell() throws Exception {
    List<String> names;
    try (Stream<Path> files = Files.list(LauncherRun.root().resolve("inputs"))) {
      names = files.map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("ghost_check_")).sorted().toList();
    }
    assertTrue(names.size() >= 7, names.toString());
    for (String name : names) {
      LauncherRun r = LauncherRun.run(LIMIT_SECONDS, Map.of(), "-np", "2", "--dev", "multicore",
          "-i", deck(name));
      assertEquals(0, r.exitCode(), r.output());
      assertTrue(r.output().contains("on 2 ranks, wrong ghost cells = 0"), r.output());
    }
  }

  @Test
  void givenAdvectionDeck_thenOneRankAndTwoAndFourMpjRanksWriteTheSameHistory()
      throws Exception {
    String[] overrides = {"parthenon/time/nlim=12", "parthenon/mesh/nx1=64",
        "parthenon/mesh/nx2=64", "parthenon/meshblock/nx1=16", "parthenon/meshblock/nx2=16",
        "parthenon/output0/dt=0.002"};
    Path one = Files.createDirectories(dir.resolve("one"));
    Path two = Files.createDirectories(dir.resolve("two"));
    Path four = Files.createDirectories(dir.resolve("four"));
    LauncherRun serial = LauncherRun.run(LIMIT_SECONDS, Map.of(),
        concat(new String[] {"-i", deck("advection_2d.in"), "-d", one.toString()}, overrides));
    assertEquals(0, serial.exitCode(), serial.output());
    LauncherRun mpj = LauncherRun.run(LIMIT_SECONDS, Map.of(), concat(new String[] {"-np", "2",
        "--dev", "multicore", "-i", deck("advection_2d.in"), "-d", two.toString()}, overrides));
    assertEquals(0, mpj.exitCode(), mpj.output());
    LauncherRun mpj4 = LauncherRun.run(LIMIT_SECONDS, Map.of(), concat(new String[] {"-np", "4",
        "--dev", "multicore", "-i", deck("advection_2d.in"), "-d", four.toString()}, overrides));
    assertEquals(0, mpj4.exitCode(), mpj4.output());
    // The report's blank lines reach the terminal on MPJ ranks too: MPJ's forwarders drop them
    // unless the launcher's agent rewrites them (MpjOutputTransformer).
    for (LauncherRun run : List.of(serial, mpj, mpj4)) {
      assertTrue(run.output().contains("\n\nSetup complete, executing driver...\n"),
          run.output());
    }
    String hst = "advection_2d.out0.hst";
    String expected = Files.readString(one.resolve(hst));
    assertTrue(expected.lines().count() > 10, expected);
    assertEquals(expected, Files.readString(two.resolve(hst)));
    assertEquals(expected, Files.readString(four.resolve(hst)));
  }

  @Test
  void givenAdaptiveDeck_thenOneRankAndTwoMpjRanksWriteTheSameHistoryWhileBlocksMigrate()
      throws Exception {
    String[] overrides = {"parthenon/time/tlim=0.25", "parthenon/output3/data_format=%.17e",
        "parthenon/output3/dt=0.01"};
    Path one = Files.createDirectories(dir.resolve("one"));
    Path two = Files.createDirectories(dir.resolve("two"));
    LauncherRun serial = LauncherRun.run(LIMIT_SECONDS, Map.of(), concat(new String[] {"-i",
        deck("advection_amr_2d.in"), "-d", one.toString()}, overrides));
    assertEquals(0, serial.exitCode(), serial.output());
    LauncherRun mpj = LauncherRun.run(LIMIT_SECONDS, Map.of(), concat(new String[] {"-np", "2",
        "--dev", "multicore", "-i", deck("advection_amr_2d.in"), "-d", two.toString()},
        overrides));
    assertEquals(0, mpj.exitCode(), mpj.output());
    String hst = "advection.out3.hst";
    String expected = Files.readString(one.resolve(hst));
    assertTrue(expected.lines().count() > 20, expected);
    assertEquals(expected, Files.readString(two.resolve(hst)));
    assertTrue(mpj.output().contains("New Mesh structure after (de)refinement"), mpj.output());
  }

  /**
   * The sparse, adaptive deck's final HDF5 output and restart file hold on 2 and 4 MPJ ranks the
   * bytes of every dataset and the attributes of the one-rank files (except blocks per rank, wall
   * time and local ids), and pass their integrity check. On one machine every rank writes its
   * values into rank 0's file itself (threads of one JVM on multicore, processes on niodev), as
   * the run's closing line counts; with {@code <metope> shared_file_writes = false} the values
   * are streamed to rank 0 instead, the count is 0 and the files are the same: the control that
   * the count tells the two ways apart.
   */
  @Test
  void givenSparseAdaptiveDeck_thenTwoAndFourMpjRanksWriteTheOneRankOutputs() throws Exception {
    String[] overrides = {"parthenon/time/nlim=30", "parthenon/output0/dt=1",
        "parthenon/output1/dt=1"};
    List<String> files = List.of("sparse.out0.final.phdf", "sparse.out1.final.rhdf");
    Map<String, Path> one = new java.util.HashMap<>();
    for (String allowed : List.of("true", "false")) {
      one.put(allowed, Files.createDirectories(dir.resolve("one" + allowed)));
      LauncherRun serial = LauncherRun.run(LIMIT_SECONDS, Map.of(), concat(new String[] {"-i",
          deck("sparse_advection.in"), "-d", one.get(allowed).toString(),
          "metope/shared_file_writes=" + allowed}, overrides));
      assertEquals(0, serial.exitCode(), serial.output());
      assertNull(sharedWrites(serial.output()), "one rank has nothing to share");
    }
    for (String[] way : new String[][] {{"2", "multicore", "true"}, {"4", "multicore", "true"},
        {"2", "niodev", "true"}, {"2", "multicore", "false"}}) {
      String ranks = way[0];
      Path many = Files.createDirectories(dir.resolve(ranks + way[1] + way[2]));
      LauncherRun mpj = LauncherRun.run(LIMIT_SECONDS, Map.of(),
          concat(concat(new String[] {"-np", ranks, "--dev", way[1], "-i",
              deck("sparse_advection.in"), "-d", many.toString()}, overrides),
              new String[] {"metope/shared_file_writes=" + way[2]}));
      String how = ranks + " " + way[1] + " ranks, shared_file_writes=" + way[2];
      assertEquals(0, mpj.exitCode(), mpj.output());
      assertTrue(mpj.output().contains("\n\nSetup complete, executing driver...\n"),
          "blank lines kept on " + way[1] + ": " + mpj.output());
      int[] counted = sharedWrites(mpj.output());
      assertTrue(counted != null && counted[1] >= files.size(), how + ": " + mpj.output());
      assertEquals(way[2].equals("true") ? counted[1] : 0, counted[0],
          how + ": files every rank wrote into itself");
      for (String file : files) {
        assertNull(FileIntegrity.problem(many.resolve(file)), file);
        Map<String, List<Object>> expected = PhdfContents.of(one.get(way[2]).resolve(file));
        assertTrue(expected.containsKey("/SparseInfo"), expected.keySet().toString());
        PhdfContents.assertSame(expected, PhdfContents.of(many.resolve(file)), how + ", " + file);
      }
    }
  }

  /**
   * The poisson deck, whose solver's dot products and norms are task reductions folded in global
   * block order along trees of ranks (mesh.reduce.TaskReduction), gives on 2 niodev ranks (MPJ's
   * messages between processes) and 4 multicore ranks the one-rank run's norms and the bytes of
   * its final output's datasets.
   */
  @Test
  void givenPoissonDeck_thenTwoNiodevAndFourMulticoreRanksSolveToTheOneRankBits() throws Exception {
    String[] overrides = {"poisson/max_iterations=300"};
    Path one = Files.createDirectories(dir.resolve("one"));
    LauncherRun serial = LauncherRun.run(LIMIT_SECONDS, Map.of(), concat(new String[] {"-i",
        deck("poisson.in"), "-d", one.toString()}, overrides));
    assertEquals(0, serial.exitCode(), serial.output());
    List<String> norms = serial.output().lines().filter(l -> l.startsWith("Update norm")).toList();
    assertEquals(300, norms.size(), serial.output());
    String file = "poisson.out0.00001.phdf";
    Map<String, List<Object>> expected = PhdfContents.of(one.resolve(file));
    for (String[] way : new String[][] {{"2", "niodev"}, {"4", "multicore"}}) {
      Path many = Files.createDirectories(dir.resolve(way[0] + way[1]));
      LauncherRun mpj = LauncherRun.run(LIMIT_SECONDS, Map.of(), concat(new String[] {"-np",
          way[0], "--dev", way[1], "-i", deck("poisson.in"), "-d", many.toString()}, overrides));
      String how = way[0] + " " + way[1] + " ranks";
      assertEquals(0, mpj.exitCode(), how + ": " + mpj.output());
      assertEquals(norms, mpj.output().lines().filter(l -> l.startsWith("Update norm")).toList(),
          how);
      PhdfContents.assertSame(expected, PhdfContents.of(many.resolve(file)), how + ", " + file);
    }
  }

  /** From a run's closing line: {files every rank wrote into, HDF5 files}, or null if none. */
  private static int[] sharedWrites(String output) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(
        "HDF5 files: every rank wrote its own values into (\\d+) of (\\d+) ").matcher(output);
    return m.find() ? new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))}
        : null;
  }

  @Test
  void givenSparseAdvection_thenTwoMpjRanksWriteTheOneRankAndParthenonHistoryInBothMessageModes()
      throws Exception {
    // Parthenon's "short" case (its reference files: examples' test resources); no field files.
    String[] overrides = {"parthenon/time/tlim=0.3", "parthenon/output0/dt=-1",
        "parthenon/output1/dt=-1"};
    Path one = Files.createDirectories(dir.resolve("one"));
    LauncherRun serial = LauncherRun.run(LIMIT_SECONDS, Map.of(), concat(new String[] {"-i",
        deck("sparse_advection.in"), "-d", one.toString()}, overrides));
    assertEquals(0, serial.exitCode(), serial.output());
    String hst = "sparse.out3.hst";
    String expected = Files.readString(one.resolve(hst));
    assertEquals(Files.readString(LauncherRun.root().resolve(
        "examples/src/test/resources/parthenon/sparse_advection/short.out3.hst")), expected,
        "1 rank against Parthenon's history");
    for (String coalesce : List.of("true", "false")) {
      Path two = Files.createDirectories(dir.resolve("two-" + coalesce));
      LauncherRun mpj = LauncherRun.run(LIMIT_SECONDS, Map.of(), concat(concat(new String[] {
          "-np", "2", "--dev", "multicore", "-i", deck("sparse_advection.in"), "-d",
          two.toString()}, overrides), new String[] {"parthenon/comm/coalesce=" + coalesce}));
      assertEquals(0, mpj.exitCode(), mpj.output());
      assertTrue(mpj.output().contains("New Mesh structure after (de)refinement"), mpj.output());
      assertEquals(expected, Files.readString(two.resolve(hst)), "coalesce=" + coalesce);
    }
  }

  @Test
  void givenMalformedDeckValueOnTwoRanks_thenTheRunEndsNonZeroWithTheDeckError()
      throws Exception {
    // The launcher checks the deck before any rank starts, so the error is printed once; a hang
    // is caught by the run's own time limit, not by timing it here.
    LauncherRun r = LauncherRun.run(60, Map.of(), "-np", "2", "--dev", "multicore", "-i",
        deck("advection_2d.in"), "parthenon/mesh/nx1=6x4");
    assertEquals(2, r.exitCode(), r.output());
    String error = "parthenon/mesh/nx1 = \"6x4\": expected an integer";
    assertEquals(1, r.output().split(java.util.regex.Pattern.quote(error), -1).length - 1,
        r.output());
  }

  private static String[] concat(String[] a, String[] b) {
    String[] out = new String[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
