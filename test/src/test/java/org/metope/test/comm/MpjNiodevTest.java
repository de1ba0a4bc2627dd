package org.metope.test.comm;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The communicator contract and the failure scenarios on MPJ Express's niodev device (ranks are
 * processes talking over TCP, started by a daemon the launcher runs for each run). The tests of
 * this class run one after another, never beside each other.
 */
class MpjNiodevTest {
  private static final String DEVICE = "niodev";

  @BeforeAll
  static void mpjIsInstalled() {
    LauncherRun.requireMpj();
  }

  @Test
  void givenThreeRanks_thenTheContractHolds() throws Exception {
    MpjFailureScenarios.contractPasses(DEVICE, 3);
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
  void givenARankProcessThatVanishes_thenTheOthersAreStoppedAndTheRunFails() throws Exception {
    MpjFailureScenarios.vanishingRankFailsTheRun(DEVICE);
  }

  @Test
  void givenAMissingDeck_thenTheRunFails() throws Exception {
    MpjFailureScenarios.deckErrorFailsTheRun(DEVICE);
  }
}
