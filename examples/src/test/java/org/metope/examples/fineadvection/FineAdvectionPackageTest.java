package org.metope.examples.fineadvection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;
import org.junit.jupiter.api.Test;

/** fine_advection reads {@code <Advection> cfl} with advection's check. */
class FineAdvectionPackageTest {

  private static ParameterInput deck(String cfl) {
    return ParameterInput.parse("fine.in",
        "<Advection>\ncfl = " + cfl + "\nprofile = smooth_gaussian\n", List.of());
  }

  @Test
  void givenACourantNumberOutsideTheDonorCellBound_thenOneLineNamingTheKey() {
    for (String bad : List.of("-1", "0", "1.01")) {
      InputError e = assertThrows(InputError.class,
          () -> FineAdvectionPackage.initialize(deck(bad)), bad);
      assertTrue(e.getMessage().contains("fine.in:2"), e.getMessage());
      assertTrue(e.getMessage().contains("a Courant number in (0, 1.0]"), e.getMessage());
    }
  }

  @Test
  void givenACourantNumberInsideTheBound_thenThePackageKeepsIt() {
    assertEquals(0.3,
        FineAdvectionPackage.initialize(deck("0.3")).params().getDouble("cfl"));
  }
}
