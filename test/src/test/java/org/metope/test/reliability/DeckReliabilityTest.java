package org.metope.test.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.metope.test.ProcessResult;

/**
 * Bad decks as a careless or hostile user writes them, run as real processes: every one ends at
 * set-up with one line naming where, the key and what was expected, exit code 2, no stack trace
 * and no output file; typos are warned with a "did you mean"; the decks we ship warn about
 * nothing.
 */
class DeckReliabilityTest {
  @TempDir Path dir;

  /** A small 2D deck: 32^2 cells in 4 blocks, a history and an hdf5 output. */
  private static final String DECK = String.join("\n",
      "<parthenon/job>", "problem_id = small",
      "<parthenon/mesh>", "refinement = none", "numlevel = 1", "nx1 = 32", "x1min = -0.5", "x1max = 0.5", "ix1_bc = periodic",
      "ox1_bc = periodic", "nx2 = 32", "x2min = -0.5", "x2max = 0.5", "ix2_bc = periodic",
      "ox2_bc = periodic", "nx3 = 1", "x3min = -0.5", "x3max = 0.5",
      "<parthenon/meshblock>", "nx1 = 16", "nx2 = 16",
      "<parthenon/time>", "tlim = 1.0", "nlim = 2", "integrator = rk2",
      "<Advection>", "profile = smooth_gaussian", "fill_derived = false", "cfl = 0.4",
      "vx = 1.0", "refine_tol = 0.3", "derefine_tol = 0.03",
      "<parthenon/output1>", "file_type = hst", "dt = 0.1",
      "<parthenon/output2>", "file_type = hdf5", "dt = 0.5", "variables = advected", "");

  static Stream<Arguments> badValues() {
    return Stream.of(
        Arguments.of("Advection/cfl", List.of("Advection/cfl=nan")),
        Arguments.of("Advection/vx", List.of("Advection/vx=NaN")),
        Arguments.of("parthenon/mesh/x1max", List.of("parthenon/mesh/x1min=-inf",
            "parthenon/mesh/x1max=inf")),
        Arguments.of("parthenon/mesh/x1max", List.of("parthenon/mesh/x1min=1",
            "parthenon/mesh/x1max=1.0000000000000002")),
        Arguments.of("parthenon/mesh/x2max", List.of("parthenon/mesh/x2min=-1.7e308",
            "parthenon/mesh/x2max=1.7e308")),
        Arguments.of("parthenon/time/tlim", List.of("parthenon/time/tlim=nan")),
        Arguments.of("parthenon/time/tlim", List.of("parthenon/time/tlim=-1")),
        Arguments.of("parthenon/output1/dt", List.of("parthenon/output1/dt=nan")),
        Arguments.of("parthenon/time/dt_factor", List.of("parthenon/time/dt_factor=0")),
        Arguments.of("Advection/cfl", List.of("Advection/cfl=0")),
        Arguments.of("Advection/cfl", List.of("Advection/cfl=1e6")),
        Arguments.of("Advection/cfl", List.of("Advection/cfl=1.01")),
        Arguments.of("Advection/amp", List.of("Advection/amp=1e150")),
        Arguments.of("Advection/amp", List.of("Advection/amp=-1.7e308")),
        Arguments.of("Advection/compute_error", List.of("Advection/compute_error=maybe")),
        Arguments.of("parthenon/mesh/ix1_bc", List.of("parthenon/mesh/ix1_bc=user",
            "parthenon/mesh/ox1_bc=user")),
        Arguments.of("parthenon/job/problem_id", List.of("parthenon/job/problem_id=../x")),
        Arguments.of("parthenon/job/problem_id", List.of("parthenon/job/problem_id=/tmp/x")),
        Arguments.of("parthenon/output2/id", List.of("parthenon/output2/id=a/b")),
        Arguments.of("parthenon/output2/file_number_width",
            List.of("parthenon/output2/file_number_width=100000")),
        Arguments.of("metope/threads", List.of("metope/threads=10000")),
        Arguments.of("parthenon/kernels/threads", List.of("parthenon/kernels/threads=100000")),
        Arguments.of("parthenon/kernels/resident", List.of("parthenon/kernels/resident=true")),
        Arguments.of("parthenon/kernels/backend", List.of("parthenon/kernels/backend=tornado")),
        Arguments.of("parthenon/meshblock/nx1", List.of("parthenon/mesh/nx1=2147483646",
            "parthenon/meshblock/nx1=2147483646")),
        Arguments.of("parthenon/output2/variables", List.of("parthenon/output2/variables=")),
        Arguments.of("parthenon/output2/variables", List.of("parthenon/output2/variables= , ")));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("badValues")
  void givenABadValue_thenOneLineNamingTheKeyExitTwoAndNoOutputFile(String key,
      List<String> overrides) throws Exception {
    Path deck = Files.writeString(dir.resolve("small.in"), DECK);
    Path out = Files.createDirectory(dir.resolve("out"));
    List<String> args = new ArrayList<>(List.of("-i", deck.toString(), "-d", out.toString()));
    args.addAll(overrides);
    ProcessResult r = MetopeProcess.run(dir, args.toArray(new String[0]));
    assertEquals(2, r.exitCode(), r.output());
    assertFalse(MetopeProcess.hasStackTrace(r.output()), r.output());
    List<String> lines = MetopeProcess.errorLines(r);
    assertEquals(1, lines.size(), r.output());
    assertTrue(lines.get(0).startsWith("command line: " + key + " = "), lines.get(0));
    assertTrue(lines.get(0).contains(": expected "), lines.get(0));
    assertTrue(lines.get(0).length() < 400, "a short line: " + lines.get(0).length());
    try (Stream<Path> files = Files.list(out)) {
      assertEquals(List.of(), files.toList(), "nothing is written for a bad deck");
    }
  }

  /**
   * A key given twice in a block, and a block given twice (which can turn an hdf5 output into a
   * history output): merged as Parthenon merges them, each with a warning naming both lines.
   */
  @Test
  void givenDuplicateKeysAndBlocks_thenEachIsMergedWithAWarningNamingBothLines()
      throws Exception {
    List<String> lines = new ArrayList<>(DECK.lines().toList());
    lines.add(lines.indexOf("vx = 1.0") + 1, "vx = 0.5");
    lines.addAll(List.of("<parthenon/output2>", "file_type = hst", ""));
    Path deck = Files.writeString(dir.resolve("twice.in"), String.join("\n", lines));
    int vx = lines.indexOf("vx = 1.0") + 1;
    int block = lines.indexOf("<parthenon/output2>") + 1;
    int type = lines.indexOf("file_type = hdf5") + 1;
    ProcessResult r = MetopeProcess.run(dir, "-n", "-i", deck.toString());
    assertEquals(0, r.exitCode(), r.output());
    assertEquals(List.of(
        "warning: " + deck + ":" + (vx + 1) + ": Advection/vx is given again (before at line "
            + vx + "); the last value, \"0.5\", is used, as Parthenon does",
        "warning: " + deck + ":" + (lines.size() - 2) + ": block <parthenon/output2> is given"
            + " again (first at line " + block + "); its keys are merged into one block, as"
            + " Parthenon does",
        "warning: " + deck + ":" + (lines.size() - 1) + ": parthenon/output2/file_type is given"
            + " again (before at line " + type + "); the last value, \"hst\", is used, as"
            + " Parthenon does"), MetopeProcess.warnings(r));
  }

  /**
   * Heaps too small for what a run grows to after set-up (derived and sparse fields allocated in
   * the first cycle; before: an OutOfMemoryError trace from FieldStorage.growFor): each run ends
   * normally or with one line saying it is out of memory (or, from the set-up's budget, that the
   * mesh does not fit), exit 1, no trace; some heap does run out, so the check is not vacuous.
   */
  @Test
  void givenAHeapTooSmallForWhatTheRunGrowsTo_thenOneLine() throws Exception {
    Path deck = Files.writeString(dir.resolve("small.in"), DECK.replace("fill_derived = false",
        "fill_derived = true"));
    int failed = 0;
    for (String heap : List.of("12m", "16m", "20m", "24m")) {
      for (String[] run : List.of(new String[] {"-i", deck.toString(), "parthenon/mesh/nx1=256",
          "parthenon/mesh/nx2=256"}, new String[] {"-i",
          MetopeProcess.input("sparse_advection.in").toString(), "parthenon/time/nlim=3"})) {
        List<String> args = new ArrayList<>(List.of(run));
        args.addAll(List.of("-d", Files.createTempDirectory(dir, heap).toString()));
        ProcessResult r = MetopeProcess.runWithHeap(dir, heap, 120, args.toArray(new String[0]));
        String where = heap + " " + args + ": " + r.output();
        assertFalse(MetopeProcess.hasStackTrace(r.output()), where);
        if (r.exitCode() != 0) {
          failed++;
          assertEquals(1, r.exitCode(), where);
          List<String> lines = MetopeProcess.errorLines(r);
          assertEquals(1, lines.size(), where);
          assertTrue(lines.get(0).startsWith("metope: out of memory")
              || lines.get(0).startsWith("metope: the mesh has "), where);
        }
      }
    }
    assertTrue(failed > 0, "no heap was too small");
  }

  /**
   * A mesh whose root grid alone cannot fit is refused before its tree is built (4 million
   * blocks in an 8 GiB heap, which reserves but never touches that memory): the refusal names
   * the root grid, which only the check before building does.
   */
  @Test
  void givenARootGridTooLargeForTheHeap_thenItIsRefusedBeforeTheTreeIsBuilt() throws Exception {
    Path deck = Files.writeString(dir.resolve("small.in"), DECK);
    ProcessResult r = MetopeProcess.runWithHeap(dir, "8g", 120, "-i", deck.toString(), "-d",
        dir.toString(), "parthenon/mesh/nx1=16384", "parthenon/mesh/nx2=16384",
        "parthenon/meshblock/nx1=8", "parthenon/meshblock/nx2=8");
    assertEquals(1, r.exitCode(), r.output());
    List<String> lines = MetopeProcess.errorLines(r);
    assertEquals(1, lines.size(), r.output());
    assertTrue(lines.get(0).startsWith("metope: the mesh's root grid alone has 4194304"
        + " MeshBlocks, 4194304 per rank on 1, whose tree and block lists need"), r.output());
  }

  /** An output block number past an int: one line naming the block (before: a bare parse error). */
  @Test
  void givenAnOutputNumberTooLong_thenOneLineNamingTheBlock() throws Exception {
    Path deck = Files.writeString(dir.resolve("small.in"), DECK + "<parthenon/output99999999999>\n"
        + "file_type = hst\ndt = 0.1\n");
    ProcessResult r = MetopeProcess.run(dir, "-i", deck.toString(), "-d", dir.toString());
    assertEquals(2, r.exitCode(), r.output());
    int line = DECK.split("\n", -1).length;
    assertEquals(List.of(deck + ":" + line + ": <parthenon/output99999999999> has the number"
        + " 99999999999: expected an output number of at most 9 digits"),
        MetopeProcess.errorLines(r));
  }

  /**
   * A field that overflows (a wave of amplitude 1e100 on a domain 2e5 wide: the history's powers
   * of it sum to inf, and inf - inf) stops the run with one line naming the history column,
   * before the value is written (before: a history of NaN and exit code 0).
   */
  @Test
  void givenAFieldThatOverflows_thenTheRunStopsNamingTheHistoryColumn() throws Exception {
    Path deck = Files.writeString(dir.resolve("small.in"), DECK);
    Path out = Files.createDirectory(dir.resolve("out"));
    ProcessResult r = MetopeProcess.run(dir, "-i", deck.toString(), "-d", out.toString(),
        "Advection/amp=1e100", "Advection/profile=wave", "parthenon/mesh/x1min=-1e5",
        "parthenon/mesh/x1max=1e5", "parthenon/mesh/x2min=-1e5", "parthenon/mesh/x2max=1e5");
    assertEquals(1, r.exitCode(), r.output());
    assertFalse(MetopeProcess.hasStackTrace(r.output()), r.output());
    List<String> lines = MetopeProcess.errorLines(r);
    assertEquals(1, lines.size(), r.output());
    assertTrue(lines.get(0).startsWith("metope: the history of <parthenon/output1> has NaN in"
        + " column 8 at cycle 0 (time 0.0): a field overflowed"), lines.get(0));
    try (Stream<Path> files = Files.list(out)) {
      assertEquals(List.of(), files.toList(), "nothing is written");
    }
  }

  @Test
  void givenAFieldListWithOneUnknownName_thenAWarningNamesItAndTheFields() throws Exception {
    Path deck = Files.writeString(dir.resolve("small.in"), DECK);
    ProcessResult r = MetopeProcess.run(dir, "-i", deck.toString(), "-d", dir.toString(),
        "parthenon/output2/variables=advected, advectd");
    assertEquals(0, r.exitCode(), r.output());
    assertEquals(List.of("warning: <parthenon/output2> variables: advectd matches no field of"
        + " this run (advected, my_derived_var); it is not written"),
        MetopeProcess.warnings(r));
  }

  @Test
  void givenNeitherTlimNorNlim_thenTheRunIsRefusedInsteadOfRunningForever() throws Exception {
    Path deck = Files.writeString(dir.resolve("small.in"),
        DECK.replace("tlim = 1.0\nnlim = 2\n", ""));
    ProcessResult r = MetopeProcess.run(dir, "-i", deck.toString(), "-d", dir.toString());
    assertEquals(2, r.exitCode(), r.output());
    assertEquals(List.of(deck + ": neither parthenon/time/tlim nor parthenon/time/nlim is set,"
        + " so the run would never end: expected tlim (the end time) or nlim (a number of"
        + " cycles) in <parthenon/time>, or a wall-time limit -t"), MetopeProcess.errorLines(r));

    Path misspelt = Files.writeString(dir.resolve("tilm.in"),
        DECK.replace("tlim = 1.0\nnlim = 2\n", "tilm = 1.0\n"));
    r = MetopeProcess.run(dir, "-i", misspelt.toString(), "-d", dir.toString());
    assertEquals(2, r.exitCode(), r.output());
    assertTrue(MetopeProcess.errorLines(r).get(0).contains(
        "never end (is parthenon/time/tilm a misspelling of tlim?)"), r.output());
  }

  @Test
  void givenMisspeltBlocksAndKeys_thenEachIsWarnedWithFileLineAndTheLikelyName()
      throws Exception {
    String typos = DECK.replace("<parthenon/meshblock>", "<parthenon/meshblok>")
        .replace("<parthenon/output1>", "<parthenon/ouptut1>")
        .replace("integrator = rk2", "integratr = rk2")
        .replace("cfl = 0.4", "cfl = 0.4\nvelocity = 2");
    Path deck = Files.writeString(dir.resolve("typos.in"), typos + "<parthenon/tiem>\nx = 1\n");
    ProcessResult parsed = MetopeProcess.run(dir, "-n", "-i", deck.toString());
    assertEquals(0, parsed.exitCode(), parsed.output());
    String text = Files.readString(deck);
    List<String> blockWarnings = List.of(
        "warning: " + deck + ":" + lineOf(text, "<parthenon/meshblok>") + ": block"
            + " <parthenon/meshblok> is not read by Metope; did you mean <parthenon/meshblock>?",
        "warning: " + deck + ":" + lineOf(text, "<parthenon/ouptut1>") + ": block"
            + " <parthenon/ouptut1> is not read by Metope; did you mean <parthenon/output1>?",
        "warning: " + deck + ":" + lineOf(text, "<parthenon/tiem>") + ": block <parthenon/tiem>"
            + " is not read by Metope; did you mean <parthenon/time>?");
    assertEquals(blockWarnings, MetopeProcess.warnings(parsed), "-n reports unknown blocks");

    ProcessResult ran = MetopeProcess.run(dir, "-i", deck.toString(), "-d", dir.toString());
    assertEquals(0, ran.exitCode(), ran.output());
    List<String> all = new ArrayList<>(blockWarnings);
    all.add("warning: " + deck + ":" + lineOf(text, "integratr") + ": parthenon/time/integratr"
        + " is not read by this run; did you mean parthenon/time/integrator?");
    all.add("warning: " + deck + ":" + lineOf(text, "velocity") + ": Advection/velocity is not"
        + " read by this run");
    assertEquals(all, MetopeProcess.warnings(ran));
  }

  @Test
  void givenAByteOrderMark_thenTheDeckReadsAsWithout() throws Exception {
    Path deck = Files.writeString(dir.resolve("bom.in"), "\uFEFF" + DECK);
    ProcessResult r = MetopeProcess.run(dir, "-n", "-i", deck.toString());
    assertEquals(0, r.exitCode(), r.output());
    assertEquals(List.of(), MetopeProcess.warnings(r));
  }

  @Test
  void givenAMeshTooLargeForMemory_thenOneLineNamesTheBlocksAndTheMemoryAtOnce()
      throws Exception {
    Path deck = Files.writeString(dir.resolve("small.in"), DECK);
    ProcessResult huge = MetopeProcess.run(dir, "-i", deck.toString(), "-d", dir.toString(),
        "parthenon/mesh/nx1=1048576", "parthenon/mesh/nx2=1048576");
    assertEquals(2, huge.exitCode(), huge.output());
    assertEquals(List.of(deck + ": the mesh of 1048576x1048576x1 cells in blocks of 16x16x1 has"
        + " 4294967296 MeshBlocks, whose tree alone needs 800.0 GiB but this JVM may use 256.0"
        + " MiB: expected fewer, larger blocks (parthenon/meshblock/nx1, nx2, nx3) or a larger"
        + " -Xmx in METOPE_JAVA_OPTS"), MetopeProcess.errorLines(huge));

    ProcessResult big = MetopeProcess.run(dir, "-i", deck.toString(), "-d", dir.toString(),
        "parthenon/mesh/nx1=16384", "parthenon/mesh/nx2=16384", "parthenon/meshblock/nx1=256",
        "parthenon/meshblock/nx2=256");
    assertEquals(1, big.exitCode(), big.output());
    List<String> lines = MetopeProcess.errorLines(big);
    assertEquals(1, lines.size(), big.output());
    assertTrue(lines.get(0).startsWith("metope: the mesh has 4096 MeshBlocks of 260x260x1 cells"
        + " with ghosts, 4096 on this rank; their fields"), lines.get(0));
    assertTrue(lines.get(0).contains("more than half of the 256.0 MiB this JVM may use")
        || lines.get(0).contains("more than one Java array holds"), lines.get(0));
    assertFalse(MetopeProcess.hasStackTrace(big.output()), big.output());
  }

  @Test
  void givenAdaptiveRefinementBeyondMemory_thenRefinementStopsWithOneLine() throws Exception {
    Path deck = Files.writeString(dir.resolve("small.in"), DECK.replace("profile ="
        + " smooth_gaussian", "profile = hard_sphere"));
    ProcessResult r = MetopeProcess.runWithHeap(dir, "128m", 120, "-i", deck.toString(), "-d",
        dir.toString(), "parthenon/mesh/refinement=adaptive", "parthenon/mesh/numlevel=30");
    assertNotEquals(0, r.exitCode(), r.output());
    assertFalse(MetopeProcess.hasStackTrace(r.output()), r.output());
    List<String> lines = MetopeProcess.errorLines(r);
    assertEquals(1, lines.size(), r.output());
    assertTrue(lines.get(0).matches("metope: the mesh has \\d+ MeshBlocks.* more than half of the"
        + " 128.0 MiB this JVM may use .*"), lines.get(0));
  }

  @Test
  void givenARestartWithAChangedMesh_thenTheOverrideIsNamedInOneLine() throws Exception {
    Path deck = Files.writeString(dir.resolve("small.in"), DECK.replace("<parthenon/output2>",
        "<parthenon/output3>\nfile_type = rst\ndt = 1.0\n<parthenon/output2>"));
    ProcessResult first = MetopeProcess.run(dir, "-i", deck.toString(), "-d", dir.toString());
    assertEquals(0, first.exitCode(), first.output());
    String restart = dir.resolve("small.out3.final.rhdf").toString();
    for (String override : List.of("parthenon/mesh/nx1=64", "parthenon/meshblock/nx1=8",
        "parthenon/mesh/x1max=2.0")) {
      ProcessResult r = MetopeProcess.run(dir, "-r", restart, "-d", dir.toString(), override);
      assertEquals(2, r.exitCode(), r.output());
      String key = override.substring(0, override.indexOf('='));
      assertEquals(List.of("command line: " + key + " = \"" + override.substring(
          override.indexOf('=') + 1) + "\": expected " + (key.endsWith("x1max") ? "0.5" : key
          .contains("meshblock") ? "16" : "32") + " as in the restart file " + restart
          + " (a restart keeps the mesh it was written with; start a new run to change it)"),
          MetopeProcess.errorLines(r));
    }
  }

  @Test
  void givenEveryDeckInInputs_thenParsingWarnsAboutNothing() throws Exception {
    List<Path> decks = shipped(MetopeProcess.root().resolve("inputs"));
    assertTrue(decks.size() >= 10, "decks found: " + decks);
    for (Path deck : decks) {
      ProcessResult r = MetopeProcess.run(dir, "-n", "-i", deck.toString());
      assertEquals(0, r.exitCode(), deck + ": " + r.output());
      assertEquals(List.of(), MetopeProcess.warnings(r), deck.toString());
    }
  }

  @Test
  void givenEveryRunnableDeckInInputs_thenItsSetUpFindsNoUnreadKey() throws Exception {
    for (Path deck : shipped(MetopeProcess.root().resolve("inputs"))) {
      String text = Files.readString(deck);
      if (!text.contains("<Advection>") && !text.contains("<ghost_check>")) {
        continue;
      }
      // Each deck writes into a directory of its own: decks sharing a problem_id would otherwise
      // append to each other's history files, which is warned about.
      Path out = dir.resolve(deck.getFileName().toString());
      List<String> args = new ArrayList<>(List.of("-i", deck.toString(), "-d", out.toString()));
      if (text.contains("<Advection>")) {
        args.add("parthenon/time/nlim=0");
      }
      // Parthenon's fine_advection deck, unchanged, names output variables (advection.*) that its
      // own package does not have, which Parthenon and Metope warn about; the fields the warning
      // lists are fine_advection's, the application the deck selects by itself
      boolean fine = deck.getFileName().toString().equals("fine_advection.in");
      ProcessResult r = MetopeProcess.runWithHeap(dir, "1g", 120, args.toArray(new String[0]));
      assertEquals(0, r.exitCode(), deck + ": " + r.output());
      List<String> warnings = MetopeProcess.warnings(r).stream()
          .filter(w -> !w.startsWith("warning: command line: parthenon/time/nlim is not in"))
          .filter(w -> !(fine && w.contains("<parthenon/output0> variables: none of advection.")
              && w.contains("matches a field of this run (advection.phi_fine, advection.phi,")))
          .filter(w -> !w.contains("MeshBlocks increased more than twice during initialization"))
          .toList();
      assertEquals(List.of(), warnings, deck.toString());
    }
  }

  /** The 1-based number of the first line of {@code text} containing {@code needle}. */
  private static int lineOf(String text, String needle) {
    List<String> lines = text.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(needle)) {
        return i + 1;
      }
    }
    throw new AssertionError(needle + " not in the deck");
  }

  private static List<Path> shipped(Path directory) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      return files.filter(f -> f.toString().endsWith(".in")).sorted().toList();
    }
  }
}
