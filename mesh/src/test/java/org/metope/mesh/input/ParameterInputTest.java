package org.metope.mesh.input;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

class ParameterInputTest {
  private static final String DECK = """
      <parthenon/job>
      problem_id = advection

      <parthenon/mesh>
      nx1 = 64
      x1min = -0.5
      refinement = adaptive
      periodic = true
      bad_int = 6x4
      bad_real = 1.5.2
      bad_bool = yes
      ints = 1, 2, 3
      reals = 0.5, 1e-3
      names = density, energy
      bad_ints = 1, a, 3

      <parthenon/output0>
      file_type = hdf5
      <parthenon/output1>
      file_type = hst
      <Advection>
      cfl = 0.45
      """;

  @TempDir Path dir;

  private static ParameterInput deck(String... overrides) {
    return ParameterInput.parse("uni3d.in", DECK, List.of(overrides));
  }

  private static String message(Executable e) {
    return assertThrows(InputError.class, e).getMessage();
  }

  @Test
  void givenDeckValues_thenTypedGettersReturnThem() {
    ParameterInput in = deck();
    assertEquals("advection", in.getString("parthenon/job", "problem_id"));
    assertEquals(64, in.getInteger("parthenon/mesh", "nx1"));
    assertEquals(-0.5, in.getReal("parthenon/mesh", "x1min"));
    assertEquals(64.0, in.getReal("parthenon/mesh", "nx1"));
    assertTrue(in.getBoolean("parthenon/mesh", "periodic"));
    assertArrayEquals(new int[] {1, 2, 3}, in.getIntegerList("parthenon/mesh", "ints"));
    assertArrayEquals(new double[] {0.5, 1e-3}, in.getRealList("parthenon/mesh", "reals"));
    assertEquals(List.of("density", "energy"), in.getStringList("parthenon/mesh", "names"));
    assertEquals("adaptive", in.getString("parthenon/mesh", "refinement",
        List.of("none", "adaptive", "static")));
  }

  @Test
  void givenPositiveReals_thenZeroAndBelowAreOneLineAndAboveZeroPasses() {
    ParameterInput in = ParameterInput.parse("p.in", "<pkg>\nzero = 0.0\nneg = -2\nsmall = 1e-300\n",
        List.of());
    assertEquals("p.in:2: pkg/zero = \"0.0\": expected a positive diffusivity",
        message(() -> in.getOrAddPositiveReal("pkg", "zero", 1.0, "a positive diffusivity")));
    assertEquals("p.in:3: pkg/neg = \"-2\": expected a positive width",
        message(() -> in.getOrAddPositiveReal("pkg", "neg", 1.0, "a positive width")));
    assertEquals(1e-300, in.getOrAddPositiveReal("pkg", "small", 1.0, "a positive number"));
    assertEquals(0.4, in.getOrAddPositiveReal("pkg", "absent", 0.4, "a positive number"));
  }

  @Test
  void givenBadValues_thenErrorsNameFileLineKeyAndExpectation() {
    ParameterInput in = deck();
    assertEquals("uni3d.in:9: parthenon/mesh/bad_int = \"6x4\": expected an integer",
        message(() -> in.getInteger("parthenon/mesh", "bad_int")));
    assertEquals("uni3d.in:9: parthenon/mesh/bad_int = \"6x4\": expected an integer",
        message(() -> in.getOrAddInteger("parthenon/mesh", "bad_int", 3)));
    assertEquals("uni3d.in:10: parthenon/mesh/bad_real = \"1.5.2\": expected a finite real number",
        message(() -> in.getOrAddReal("parthenon/mesh", "bad_real", 1.0)));
    assertEquals("uni3d.in:11: parthenon/mesh/bad_bool = \"yes\": expected a boolean (true or"
        + " false, 1 or 0)", message(() -> in.getBoolean("parthenon/mesh", "bad_bool")));
    assertEquals("uni3d.in:15: parthenon/mesh/bad_ints = \"1, a, 3\": expected a"
        + " comma-separated list of integers (element 2 is \"a\")",
        message(() -> in.getIntegerList("parthenon/mesh", "bad_ints")));
    assertEquals("uni3d.in:14: parthenon/mesh/names = \"density, energy\": expected a"
        + " comma-separated list of finite reals (element 1 is \"density\")",
        message(() -> in.getRealList("parthenon/mesh", "names")));
    assertEquals("uni3d.in:7: parthenon/mesh/refinement = \"adaptive\": expected one of none,"
        + " static", message(() -> in.getOrAddString("parthenon/mesh", "refinement", "none",
            List.of("none", "static"))));
  }

  @Test
  void givenMissingRequiredKeys_thenErrorsSayWhatIsMissing() {
    ParameterInput in = deck();
    assertEquals("uni3d.in: parthenon/mesh/nx2 is required but missing: expected an integer",
        message(() -> in.getInteger("parthenon/mesh", "nx2")));
    assertEquals("uni3d.in: parthenon/time/tlim is required but block <parthenon/time> is"
        + " missing: expected a finite real number", message(() -> in.getReal("parthenon/time", "tlim")));
    assertEquals("uni3d.in: a/b is required but missing: expected one of x, y",
        message(() -> deck("a/c=1").getString("a", "b", List.of("x", "y"))));
    assertEquals("uni3d.in: parthenon/time/nlim is required: expected a value in the deck or"
        + " on the command line", message(() -> {
          ParameterInput d = deck();
          d.getOrAddInteger("parthenon/time", "nlim", -1);
          d.checkRequired("parthenon/time", "nlim");
        }));
    in.checkRequired("parthenon/mesh", "nx1");
  }

  @Test
  void givenDefaults_thenTheyAreReturnedRecordedAndPrinted() {
    ParameterInput in = deck();
    assertEquals(1, in.getOrAddInteger("parthenon/mesh", "nx2", 1));
    assertEquals(0.3, in.getOrAddReal("parthenon/time", "cfl", 0.3));
    assertFalse(in.getOrAddBoolean("parthenon/time", "flag", false));
    assertEquals("dflt", in.getOrAddString("parthenon/time", "s", "dflt"));
    assertArrayEquals(new int[] {4, 5}, in.getOrAddIntegerList("x", "il", new int[] {4, 5}));
    assertArrayEquals(new double[] {0.1}, in.getOrAddRealList("x", "rl", new double[] {0.1}));
    assertEquals(List.of(), in.getOrAddStringList("x", "sl", List.of()));
    assertEquals(64, in.getOrAddInteger("parthenon/mesh", "nx1", 8));
    assertTrue(in.doesParameterExist("parthenon/mesh", "nx2"));
    assertTrue(in.doesBlockExist("parthenon/time"));
    assertEquals(1, in.getInteger("parthenon/mesh", "nx2"));
    String dump = in.effectiveDeck();
    assertTrue(dump.contains("cfl  = 0.3   # Default value added at run time"), dump);
    assertEquals("uni3d.in: parthenon/mesh/nx2 = \"1\" (default): expected 4",
        in.error("parthenon/mesh", "nx2", "4").getMessage());
  }

  /**
   * The effective deck keeps each block's printed section until a value of the block changes: a
   * value set after one printing, a new key and a new block all show in the next. Without the
   * section dropped on a change, the second printing would repeat the first's counter.
   */
  @Test
  void givenAValueSetAfterThePrinting_thenTheNextPrintingShowsIt() {
    ParameterInput in = deck();
    in.setInteger("parthenon/output1", "file_number", 3);
    String first = in.effectiveDeck();
    assertTrue(first.contains("file_number = 3"), first);
    assertEquals(first, in.effectiveDeck(), "nothing changed, the same text");
    in.setInteger("parthenon/output1", "file_number", 4);
    in.setReal("parthenon/output1", "next_time", 0.25);
    in.getOrAddInteger("late", "k", 7);
    String second = in.effectiveDeck();
    assertTrue(second.matches("(?s).*\\nfile_number +=  *4 +# Updated during run time\\n.*"), second);
    assertTrue(second.matches("(?s).*\\nnext_time +=  *0\\.25 +# Updated during run time\\n.*"),
        second);
    assertTrue(second.contains("<late>\nk = 7 # Default value added at run time\n"), second);
  }

  @Test
  void givenTwoDifferentDefaultsForOneKey_thenMisuseIsReported() {
    ParameterInput in = deck();
    in.getOrAddInteger("a", "k", 1);
    in.getOrAddInteger("a", "k", 1);
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> in.getOrAddInteger("a", "k", 2));
    assertEquals("parameter a/k requested with default=1 and default=2", e.getMessage());
  }

  @Test
  void givenOverrides_thenTheyReplaceOrCreateValuesAndErrorsNameTheCommandLine() {
    ParameterInput in = deck("parthenon/mesh/nx1=32", "parthenon/time/nlim = 10 # note",
        "parthenon/mesh/nx1=x", "Advection/cfl=0.4");
    assertEquals("command line: parthenon/mesh/nx1 = \"x\": expected an integer",
        message(() -> in.getInteger("parthenon/mesh", "nx1")));
    assertEquals(10, in.getInteger("parthenon/time", "nlim"));
    assertEquals(0.4, in.getReal("Advection", "cfl"));
    assertEquals(List.of("command line: block <parthenon/time> is not in uni3d.in; it is added"
        + " for parthenon/time/nlim"), in.warnings());
    ParameterInput other = deck("parthenon/mesh/nx9=1");
    assertEquals(List.of("command line: parthenon/mesh/nx9 is not in uni3d.in; it is added"),
        other.warnings());
    ParameterInput slashInValue = deck("parthenon/job/problem_id=a/b");
    assertEquals("a/b", slashInValue.getString("parthenon/job", "problem_id"));
  }

  /**
   * {@code <metope>} holds launcher settings, given on the command line as often as in the deck:
   * adding one is not warned about, as adding a key of any other block is; a misspelt one is
   * still an unread key (control: the same override in another block warns).
   */
  @Test
  void givenALauncherSettingOnTheCommandLine_thenNoWarningAndAMisspeltOneIsUnread() {
    ParameterInput in = deck("metope/application=advection", "metope/thraeds=2");
    assertEquals(List.of(), in.warnings());
    assertEquals("advection", in.getString("metope", "application"));
    assertEquals(List.of("command line: metope/thraeds is not read by this run"),
        DeckCheck.unreadKeys(in, List.of(), List.of()).stream()
            .filter(w -> w.contains("metope")).toList());
    assertEquals(List.of("command line: block <metapa> is not in uni3d.in; it is added for"
        + " metapa/application"), deck("metapa/application=advection").warnings());
  }

  /** A look at a list that records no request: the key stays unread until a getter reads it. */
  @Test
  void givenAPeekAtAList_thenItsItemsAndTheKeyStaysUnread() {
    ParameterInput in = deck("o/variables=a.x, b", "o/file_type=hst");
    assertEquals(List.of("a.x", "b"), in.peekStringList("o", "variables"));
    assertEquals(List.of(), in.peekStringList("o", "absent"));
    assertEquals(List.of(), in.peekStringList("none", "variables"));
    in.getString("o", "file_type");
    assertEquals(List.of("command line: o/variables is not read by this run"),
        DeckCheck.unreadKeys(in, List.of("o"), List.of()).stream()
            .filter(w -> w.contains("o/")).toList());
  }

  @Test
  void givenMalformedOverrides_thenCommandLineErrors() {
    for (String bad : List.of("nx1=4", "parthenon/mesh/nx1", "/nx1=4", "parthenon/=4")) {
      assertEquals("command line: override \"" + bad + "\": expected block/key=value",
          message(() -> deck(bad)), bad);
    }
  }

  @Test
  void givenOutputBlocks_thenPrefixQueryListsThemInDeckOrder() {
    ParameterInput in = deck();
    assertEquals(List.of("parthenon/output0", "parthenon/output1"),
        in.blockNamesWithPrefix("parthenon/output"));
    assertEquals(List.of("parthenon/job", "parthenon/mesh", "parthenon/output0",
        "parthenon/output1", "Advection"), in.blockNames());
    assertFalse(in.doesParameterExist("nope", "x"));
    assertTrue(in.parameterNames("nope").isEmpty());
  }

  @Test
  void givenValidationByOtherCode_thenErrorsPointAtKeyOrBlock() {
    ParameterInput in = deck();
    assertEquals("uni3d.in:5: parthenon/mesh/nx1 = \"64\": expected a multiple of"
        + " parthenon/meshblock/nx1 = 48",
        in.error("parthenon/mesh", "nx1", "a multiple of parthenon/meshblock/nx1 = 48")
            .getMessage());
    assertEquals("uni3d.in: parthenon/mesh/ix1_bc is missing: expected outflow",
        in.error("parthenon/mesh", "ix1_bc", "outflow").getMessage());
    assertEquals("uni3d.in:4: <parthenon/mesh> has no size: expected nx1",
        in.blockError("parthenon/mesh", "has no size", "nx1").getMessage());
    assertEquals("uni3d.in: <zzz> is absent: expected it",
        in.blockError("zzz", "is absent", "it").getMessage());
  }

  @Test
  void givenRequestsAndSets_thenUnusedAndDesiredAreReported() {
    ParameterInput in = ParameterInput.parse("d.in", "<a>\nx = 1\ny = 2\n", List.of("a/z=3"));
    in.getInteger("a", "x");
    in.setReal("a", "t", 0.125);
    assertEquals(List.of("a/y", "a/z"), in.unusedParameters());
    in.checkDesired("a", "w");
    in.getOrAddInteger("a", "v", 7);
    in.checkDesired("a", "v");
    in.checkDesired("a", "x");
    assertEquals(List.of("command line: a/z is not in d.in; it is added",
        "d.in: desired parameter a/w is missing", "d.in: desired parameter a/v defaults to 7"),
        in.warnings());
    assertEquals(0.125, in.getReal("a", "t"));
    assertEquals("d.in: a/t = \"0.125\" (set by the program): expected less",
        in.error("a", "t", "less").getMessage());
  }

  @Test
  void givenEffectiveDeck_thenItReadsBackToTheSameValues() {
    ParameterInput in = deck("parthenon/mesh/nx1=32");
    in.getOrAddReal("parthenon/time", "tlim", 1.0 / 3.0);
    in.setBoolean("parthenon/time", "done", true);
    in.setInteger("parthenon/time", "ncycle", 12);
    in.setString("parthenon/job", "note", "hello world");
    String dump = in.effectiveDeck();
    assertTrue(dump.startsWith(DeckWriter.MARKER + "\n<parthenon/job>\n"), dump);
    assertTrue(dump.endsWith(DeckWriter.MARKER + "\n<par_end>\n"), dump);
    ParameterInput back = ParameterInput.parse("dump", dump, List.of());
    assertEquals(in.blockNames(), back.blockNames());
    for (String block : in.blockNames()) {
      assertEquals(in.parameterNames(block), back.parameterNames(block));
      for (String key : in.parameterNames(block)) {
        assertEquals(in.getString(block, key), back.getString(block, key), block + "/" + key);
      }
    }
    assertEquals(1.0 / 3.0, back.getReal("parthenon/time", "tlim"));
    assertTrue(back.getBoolean("parthenon/time", "done"));
    assertEquals(12, back.getInteger("parthenon/time", "ncycle"));
    assertEquals(32, back.getInteger("parthenon/mesh", "nx1"));
  }

  @Test
  void givenFiles_thenLoadReadsThemAndSaveWritesAtomically() throws IOException {
    Path deck = dir.resolve("uni3d.in");
    Files.writeString(deck, "<parthenon/mesh>\nnx1 = 6x4\n");
    ParameterInput in = ParameterInput.load(deck, List.of());
    assertEquals(deck + ":2: parthenon/mesh/nx1 = \"6x4\": expected an integer",
        message(() -> in.getInteger("parthenon/mesh", "nx1")));
    Path saved = dir.resolve("out.in");
    in.saveEffectiveDeck(saved);
    assertEquals(in.effectiveDeck(), Files.readString(saved));
    assertFalse(Files.exists(dir.resolve("out.in.tmp")));
    Path missing = dir.resolve("missing.in");
    String error = message(() -> ParameterInput.load(missing, List.of()));
    assertEquals(missing + ": cannot read the input deck (no such file): expected a readable"
        + " UTF-8 text file", error);
    Path binary = dir.resolve("binary.in");
    Files.write(binary, new byte[] {'<', 'a', '>', '\n', (byte) 0xff, (byte) 0xfe});
    assertEquals(binary + ": cannot read the input deck (not UTF-8 text): expected a readable"
        + " UTF-8 text file", message(() -> ParameterInput.load(binary, List.of())));
  }
}
