package org.metope.mesh.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class DeckCheckTest {
  private static final String DECK = String.join("\n",
      "<parthenon/tiem>", "tlim = 1", "<parthenon/ouptut1>", "file_type = hst",
      "<parthenon/time>", "tilm = 1.0", "nlim = 5", "integratr = rk2",
      "<parthenon/output2>", "file_type = hst", "<Advection>", "cfl = 0.4",
      "<hydro>", "gamma = 1.4", "");

  @Test
  void givenMisspeltBlocks_thenEachIsWarnedWithItsLineAndTheNearestKnownBlock() {
    ParameterInput pin = ParameterInput.parse("run.in", DECK, List.of());
    assertEquals(List.of(
        "run.in:1: block <parthenon/tiem> is not read by Metope; did you mean <parthenon/time>?",
        "run.in:3: block <parthenon/ouptut1> is not read by Metope; did you mean"
            + " <parthenon/output1>?",
        "run.in:13: block <hydro> is not read by Metope"),
        DeckCheck.unknownBlocks(pin, List.of("Advection", "ghost_check")));
  }

  @Test
  void givenUnreadKeysAfterTheRunRead_thenEachIsWarnedWithItsLineAndTheNearestReadKey() {
    ParameterInput pin = ParameterInput.parse("run.in", DECK, List.of("Advection/vx=1"));
    pin.getOrAddRealOrInfinity("parthenon/time", "tlim", Double.POSITIVE_INFINITY);
    pin.getOrAddInteger("parthenon/time", "nlim", -1);
    pin.getOrAddString("parthenon/time", "integrator", "rk2");
    pin.getOrAddReal("Advection", "cfl", 0.45);
    pin.declareKnown("Advection", "vx");
    assertEquals(List.of(
        "run.in:6: parthenon/time/tilm is not read by this run; did you mean parthenon/time/tlim?",
        "run.in:8: parthenon/time/integratr is not read by this run; did you mean"
            + " parthenon/time/integrator?",
        "run.in:9: block <parthenon/output2> is not read by this run (its keys are ignored)"),
        DeckCheck.unreadKeys(pin, List.of("Advection"), List.of("ghost_check")));
  }

  @Test
  void givenAnotherApplicationsBlock_thenItsKeysAreNotReported() {
    ParameterInput pin = ParameterInput.parse("run.in", "<Advection>\ncfl = 0.4\n", List.of());
    assertEquals(List.of(), DeckCheck.unreadKeys(pin, List.of("Advection"),
        List.of("Advection")));
    assertEquals(List.of("run.in:1: block <Advection> is not read by this run (its keys are"
        + " ignored)"),
        DeckCheck.unreadKeys(pin, List.of("Advection"), List.of()));
  }

  @Test
  void givenNames_thenTheNearestWithinAQuarterOfTheLengthIsSuggested() {
    assertEquals(1, DeckCheck.editDistance("tilm", "tlim"));
    assertEquals(3, DeckCheck.editDistance("kitten", "sitting"));
    assertEquals("tlim", DeckCheck.closest("tilm", List.of("nlim", "tlim")));
    assertEquals("numlevel", DeckCheck.closest("numlevle", List.of("nx1", "numlevel")));
    assertNull(DeckCheck.closest("gamma", List.of("cfl", "vx")), "nothing close");
    assertNull(DeckCheck.closest("cfl", List.of("cfl")), "a known name is not a typo");
  }

  @Test
  void givenNonFiniteReals_thenOnlyTheInfinityGetterAcceptsInfinity() {
    ParameterInput pin = ParameterInput.parse("run.in",
        "<a>\nn = nan\ni = inf\nm = -Infinity\nl = 1, nan\n", List.of());
    assertEquals("run.in:2: a/n = \"nan\": expected a finite real number",
        assertThrows(InputError.class, () -> pin.getReal("a", "n")).getMessage());
    assertEquals("run.in:3: a/i = \"inf\": expected a finite real number",
        assertThrows(InputError.class, () -> pin.getOrAddReal("a", "i", 1.0)).getMessage());
    assertEquals(Double.POSITIVE_INFINITY, pin.getOrAddRealOrInfinity("a", "i", 1.0));
    assertEquals("run.in:4: a/m = \"-Infinity\": expected a real number or inf",
        assertThrows(InputError.class, () -> pin.getOrAddRealOrInfinity("a", "m", 1.0))
            .getMessage());
    assertEquals("run.in:2: a/n = \"nan\": expected a real number or inf",
        assertThrows(InputError.class, () -> pin.getOrAddRealOrInfinity("a", "n", 1.0))
            .getMessage());
    assertEquals("run.in:5: a/l = \"1, nan\": expected a comma-separated list of finite reals"
        + " (element 2 is \"nan\")",
        assertThrows(InputError.class, () -> pin.getRealList("a", "l")).getMessage());
  }

  @Test
  void givenAByteOrderMark_thenTheDeckParsesAsWithout() {
    ParameterInput pin = ParameterInput.parse("bom.in", "\uFEFF<a>\nx = 1\n", List.of());
    assertEquals(1, pin.getInteger("a", "x"));
  }
}
