package org.metope.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;

class LowStorageIntegratorTest {
  /**
   * Integrates y' = -y, y(0) = 1, to t = 1 with the 2S update of Ketcheson (2010) / Stone et al.
   * (2020): per stage, S1 += delta S0, then S0 = gam0 S0 + gam1 S1 + beta dt F(S0).
   */
  private static double integrate(LowStorageIntegrator rk, int steps) {
    double dt = 1.0 / steps;
    double s0 = 1.0;
    for (int n = 0; n < steps; n++) {
      double s1 = 0.0;
      for (int stage = 1; stage <= rk.nstages(); stage++) {
        s1 += rk.delta(stage) * s0;
        s0 = rk.gam0(stage) * s0 + rk.gam1(stage) * s1 + rk.beta(stage) * dt * -s0;
      }
    }
    return s0;
  }

  @ParameterizedTest
  @CsvSource({"rk1, 1", "rk2, 2", "vl2, 2", "rk3, 3", "rk4, 4"})
  void givenEachIntegrator_thenItConvergesAtItsOrder(String name, int order) {
    LowStorageIntegrator rk = LowStorageIntegrator.of(name);
    double exact = Math.exp(-1.0);
    double coarse = Math.abs(integrate(rk, 20) - exact);
    double fine = Math.abs(integrate(rk, 40) - exact);
    double observed = Math.log(coarse / fine) / Math.log(2.0);
    assertEquals(order, observed, 0.15, name + " observed order " + observed);
  }

  @Test
  void givenRk2_thenParthenonsStagesAndWeights() {
    LowStorageIntegrator rk = LowStorageIntegrator.of("rk2");
    assertEquals(2, rk.nstages());
    assertEquals(2, rk.nbuffers());
    assertEquals(List.of("base", "1", "base"), rk.stageNames());
    assertEquals(List.of("base", "1"), rk.containerNames());
    assertEquals(1.0, rk.beta(1));
    assertEquals(0.5, rk.beta(2));
    assertEquals(0.5, rk.gam0(2));
    assertEquals(1.0, rk.c(2));
  }

  @Test
  void givenRk1AndRk3_thenStageContainersCycleThroughBase() {
    assertEquals(List.of("base", "base"), LowStorageIntegrator.of("rk1").stageNames());
    assertEquals(List.of("base"), LowStorageIntegrator.of("rk1").containerNames());
    LowStorageIntegrator rk3 = LowStorageIntegrator.of("rk3");
    assertEquals(List.of("base", "1", "2", "base"), rk3.stageNames());
    assertEquals(2.0 / 3.0, rk3.beta(3));
    assertTrue(rk3.delta(1) == 1.0 && rk3.delta(2) == 0.0);
  }

  @Test
  void givenADeck_thenTheIntegratorDefaultsToRk2AndAnUnknownNameIsOneLine() {
    ParameterInput pin = ParameterInput.parse("t.in", "<parthenon/time>\n", List.of());
    assertEquals("rk2", LowStorageIntegrator.fromInput(pin).name());
    ParameterInput bad = ParameterInput.parse("t.in", "<parthenon/time>\nintegrator = rk9\n",
        List.of());
    InputError e = assertThrows(InputError.class, () -> LowStorageIntegrator.fromInput(bad));
    assertEquals("t.in:2: parthenon/time/integrator = \"rk9\": expected one of rk1, rk2, vl2,"
        + " rk3, rk4", e.getMessage());
  }

  @Test
  void givenTheStep_thenItIsKeptForTheStages() {
    LowStorageIntegrator rk = LowStorageIntegrator.of("rk2");
    rk.setDt(0.25);
    assertEquals(0.25, rk.dt());
    assertThrows(IllegalArgumentException.class, () -> LowStorageIntegrator.of("rk5"));
  }
}
