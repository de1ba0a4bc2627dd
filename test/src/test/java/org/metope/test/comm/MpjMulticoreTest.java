package org.metope.test.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The communicator contract and the failure scenarios on MPJ Express's multicore device (ranks are
 * threads of one JVM with separate class loaders), through {@code ./metope -np N}.
 */
class MpjMulticoreTest {
  private static final String DEVICE = "multicore";

  @BeforeAll
  static void mpjIsInstalled() {
    LauncherRun.requireMpj();
  }

  @Test
  void givenTwoRanks_thenTheContractHolds() throws Exception {
    MpjFailureScenarios.contractPasses(DEVICE, 2);
  }

  @Test
  void givenFourRanks_thenTheContractHolds() throws Exception {
    MpjFailureScenarios.contractPasses(DEVICE, 4);
  }

  @Test
  void givenARankThatThrows_thenEveryRankStopsAndTheRunFails() throws Exception {
    MpjFailureScenarios.throwingRankFailsTheRun(DEVICE);
  }

  @Test
  void givenARankThatAborts_thenTheRunFailsNamingIt() throws Exception {
    MpjFailureScenarios.abortingRankFailsTheRun(DEVICE);
  }

  @Test
  void givenARankCallingSystemExit_thenTheRunFails() throws Exception {
    MpjFailureScenarios.vanishingRankFailsTheRun(DEVICE);
  }

  @Test
  void givenAMissingDeck_thenTheRunFails() throws Exception {
    MpjFailureScenarios.deckErrorFailsTheRun(DEVICE);
  }

  @Test
  void givenRanksThatStopCommunicating_thenTheWatchdogEndsTheRun() throws Exception {
    LauncherRun r = LauncherRun.run(MpjFailureScenarios.FAILURE_LIMIT_SECONDS,
        Map.of("METOPE_MPJ_STALL", "3"), "-np", "2", "--dev", DEVICE, "--class",
        LauncherRun.SELF_TEST, "--hang");
    assertEquals(124, r.exitCode(), r.output());
    assertTrue(r.output().contains("metope: stopped the MPJ run: no rank made communication "
        + "progress for"), r.output());
  }
}
