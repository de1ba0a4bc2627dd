package org.metope.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.driver.FluxDriver.StageUpdate;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;

/**
 * The stage updates' scalar model against what their Javadoc and Parthenon's advection example
 * say of them, and how a deck's {@code <metope> stage_update} chooses between them.
 */
class StageUpdateChoiceTest {
  private static ParameterInput deck(String metope) {
    return ParameterInput.parse("run.in", "<metope>\n" + metope + "\n", List.of());
  }

  @ParameterizedTest
  @ValueSource(strings = {"rk1", "rk2", "vl2", "rk3", "rk4"})
  void givenTheLowStorageUpdate_thenAConstantRateAdvancesByDtWithEveryIntegrator(String name) {
    LowStorageIntegrator rk = LowStorageIntegrator.of(name);
    assertEquals(1.0, StageUpdate.LOW_STORAGE.advancePerStep(rk), 1e-14);
    assertTrue(StageUpdate.LOW_STORAGE.isConsistentWith(rk));
  }

  @Test
  void givenParthenonsAdvectionUpdate_thenVl2AdvancesOneAndAHalfDtAndRk4NotDt() {
    // FluxDriver.StageUpdate's Javadoc and the issue: vl2 advances 1.5 dt per step.
    assertEquals(1.5, StageUpdate.ADVECTION_EXAMPLE.advancePerStep(LowStorageIntegrator.of("vl2")),
        1e-14);
    assertFalse(StageUpdate.ADVECTION_EXAMPLE.isConsistentWith(LowStorageIntegrator.of("vl2")));
    assertFalse(StageUpdate.ADVECTION_EXAMPLE.isConsistentWith(LowStorageIntegrator.of("rk4")));
  }

  /**
   * rk1, rk2 and rk3 with Parthenon's update are the low-storage schemes up to rounding (as its
   * Javadoc says), so on {@code du/dt = -u} both give the same step to 1e-15.
   */
  @ParameterizedTest
  @ValueSource(strings = {"rk1", "rk2", "rk3"})
  void givenRk1Rk2OrRk3_thenParthenonsUpdateIsTheLowStorageScheme(String name) {
    LowStorageIntegrator rk = LowStorageIntegrator.of(name);
    for (double dt : new double[] {0.3, 0.1, 0.01}) {
      assertEquals(StageUpdate.LOW_STORAGE.step(rk, 1.0, dt, u -> -u),
          StageUpdate.ADVECTION_EXAMPLE.step(rk, 1.0, dt, u -> -u), 1e-15, name + " dt=" + dt);
    }
    assertTrue(StageUpdate.ADVECTION_EXAMPLE.isConsistentWith(rk));
  }

  @ParameterizedTest
  @CsvSource({"rk1, 1", "rk2, 2", "vl2, 2", "rk3, 3", "rk4, 4"})
  void givenTheLowStorageStep_thenItsLocalErrorShrinksAtOneOrderAboveTheIntegrators(String name,
      int order) {
    LowStorageIntegrator rk = LowStorageIntegrator.of(name);
    double coarse = Math.abs(StageUpdate.LOW_STORAGE.step(rk, 1.0, 0.1, u -> -u) - Math.exp(-0.1));
    double fine = Math.abs(StageUpdate.LOW_STORAGE.step(rk, 1.0, 0.05, u -> -u)
        - Math.exp(-0.05));
    assertEquals(order + 1, Math.log(coarse / fine) / Math.log(2.0), 0.2, name);
  }

  @Test
  void givenNoKeyAndVl2_thenTheApplicationsParthenonUpdateGivesWayToLowStorageSilently() {
    List<String> said = new ArrayList<>();
    assertEquals(StageUpdate.LOW_STORAGE, StageUpdateChoice.resolve(deck(""),
        StageUpdate.ADVECTION_EXAMPLE, LowStorageIntegrator.of("vl2"), said));
    assertEquals(List.of(), said);
  }

  @Test
  void givenNoKeyAndRk2_thenTheApplicationsParthenonUpdateRuns() {
    List<String> said = new ArrayList<>();
    assertEquals(StageUpdate.ADVECTION_EXAMPLE, StageUpdateChoice.resolve(deck(""),
        StageUpdate.ADVECTION_EXAMPLE, LowStorageIntegrator.of("rk2"), said));
    assertEquals(List.of(), said);
  }

  @Test
  void givenParthenonAndVl2_thenItRunsAndIsAnnouncedOnceWithTheKeyThatIsConsistent() {
    List<String> said = new ArrayList<>();
    assertEquals(StageUpdate.ADVECTION_EXAMPLE, StageUpdateChoice.resolve(
        deck("stage_update = parthenon"), StageUpdate.LOW_STORAGE,
        LowStorageIntegrator.of("vl2"), said));
    assertEquals(List.of("run.in: <metope> stage_update = parthenon with <parthenon/time>"
        + " integrator = vl2 runs Parthenon's advection-example stage update, which advances the"
        + " solution by 1.5 dt per step, not dt (not a consistent scheme); stage_update ="
        + " consistent selects one that is"), said);
  }

  @Test
  void givenParthenonAndRk2_thenNothingIsAnnounced() {
    List<String> said = new ArrayList<>();
    assertEquals(StageUpdate.ADVECTION_EXAMPLE, StageUpdateChoice.resolve(
        deck("stage_update = parthenon"), StageUpdate.LOW_STORAGE,
        LowStorageIntegrator.of("rk2"), said));
    assertEquals(List.of(), said);
  }

  @Test
  void givenLowStorage_thenTheApplicationsChoiceIsReplaced() {
    assertEquals(StageUpdate.LOW_STORAGE, StageUpdateChoice.resolve(
        deck("stage_update = low_storage"), StageUpdate.ADVECTION_EXAMPLE,
        LowStorageIntegrator.of("rk2"), new ArrayList<>()));
  }

  @Test
  void givenAnUnknownValue_thenOneLineNamingFileLineAndKey() {
    InputError e = assertThrows(InputError.class, () -> StageUpdateChoice.resolve(
        deck("stage_update = vl2"), StageUpdate.LOW_STORAGE, LowStorageIntegrator.of("rk2"),
        new ArrayList<>()));
    assertTrue(e.getMessage().startsWith("run.in:2: metope/stage_update"), e.getMessage());
    assertFalse(e.getMessage().contains("\n"));
  }
}
