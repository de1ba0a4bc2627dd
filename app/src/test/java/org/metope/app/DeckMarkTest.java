package org.metope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.mesh.input.DeckCheck;
import org.metope.mesh.input.ParameterInput;

class DeckMarkTest {
  private static ParameterInput pin(String text, String... overrides) {
    return ParameterInput.parse("a.in", text, List.of(overrides));
  }

  @Test
  void givenAKeyMark_thenTheDeckOrTheCommandLineSettingItHoldsIt() {
    DeckMark mark = DeckMark.key("Advection", "fine");
    assertTrue(mark.heldBy(pin("<Advection>\nfine = 1\n")));
    assertTrue(mark.heldBy(pin("<Advection>\n", "Advection/fine=1")));
    assertFalse(mark.heldBy(pin("<Advection>\nfiner = 1\n")), "another key");
    assertFalse(mark.heldBy(pin("<Other>\nfine = 1\n")), "another block");
    assertEquals("Advection/fine", mark.toString());
  }

  /** Any numbered output block may list the variable, anywhere in its list. */
  @Test
  void givenAnOutputVariableMark_thenAnOutputListingSuchAVariableHoldsIt() {
    DeckMark mark = DeckMark.outputVariable("advection.");
    assertTrue(mark.heldBy(pin("<parthenon/output0>\nfile_type = rst\n<parthenon/output3>\n"
        + "variables = a, advection.phi\n")));
    assertTrue(mark.heldBy(pin("<parthenon/output1>\n", "parthenon/output1/variables=advection.C")));
    assertFalse(mark.heldBy(pin("<parthenon/output0>\nvariables = advected, my_advection.x\n")),
        "names that do not start with the namespace");
    assertFalse(mark.heldBy(pin("<Advection>\nvariables = advection.phi\n")), "not an output");
    assertEquals("an output variable advection.*", mark.toString());
  }

  /** Looking for a mark is not reading: the key is still warned about if nothing reads it. */
  @Test
  void givenAMarkLookedFor_thenTheKeyIsStillUnread() {
    ParameterInput pin = pin("<parthenon/output0>\nvariables = advection.phi\n");
    assertTrue(DeckMark.outputVariable("advection.").heldBy(pin));
    assertEquals(List.of("a.in:1: block <parthenon/output0> is not read by this run (its keys are"
        + " ignored)"), DeckCheck.unreadKeys(pin, List.of(), List.of()));
  }
}
