package org.metope.test.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The communicator contract and the failure scenarios on MPJ Express's multicore device (ranks are
 * threads of one JVM, each with a class loader of its own, which the launcher makes share Metope's
 * classes), through {@code ./metope -np N}: with in-JVM messages (the default), and the contract
 * and a failure also with MPJ's own messages ({@code METOPE_MPJ_TRANSPORT=mpj}).
 */
class MpjMulticoreTest {
  private static final String DEVICE = "multicore";
  /** Multicore ranks passing their messages through MPJ's device rather than the JVM. */
  static final Map<String, String> MPJ_MESSAGES = Map.of("METOPE_MPJ_TRANSPORT", "mpj");

  @BeforeAll
  static void mpjIsInstalled() {
    LauncherRun.requireMpj();
  }

  @Test
  void givenTwoRanks_thenTheContractHoldsOnInJvmMessages() throws Exception {
    assertEquals("MPJ Express multicore, 2 ranks, in-JVM messages, communicator 0",
        MpjFailureScenarios.contractPasses(DEVICE, 2));
  }

  @Test
  void givenFourRanks_thenTheContractHolds() throws Exception {
    assertTrue(MpjFailureScenarios.contractPasses(DEVICE, 4).contains("in-JVM messages"));
  }

  @Test
  void givenMpjTransport_thenTheContractHoldsOnMpjMessages() throws Exception {
    assertEquals("MPJ Express multicore, 2 ranks",
        MpjFailureScenarios.contractPasses(DEVICE, 2, MPJ_MESSAGES));
  }

  /** The MPJ backend's tree collectives on rank counts that are not powers of two, and on 8. */
  @ParameterizedTest(name = "{0} ranks")
  @ValueSource(ints = {3, 5, 8})
  void givenMpjTransportOnMoreRanks_thenTheContractHolds(int ranks) throws Exception {
    assertEquals("MPJ Express multicore, " + ranks + " ranks",
        MpjFailureScenarios.contractPasses(DEVICE, ranks, MPJ_MESSAGES));
  }

  @Test
  void givenARankThatThrows_thenEveryRankStopsAndTheRunFails() throws Exception {
    MpjFailureScenarios.throwingRankFailsTheRun(DEVICE);
  }

  @Test
  void givenMpjTransportAndARankThatThrows_thenEveryRankStopsAndTheRunFails() throws Exception {
    MpjFailureScenarios.throwingRankFailsTheRun(DEVICE, MPJ_MESSAGES);
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

  @Test
  void givenTwoRanks_thenTheyShareMetopesClassesAndEachHasItsOwnMpjBackend() throws Exception {
    LauncherRun r = LauncherRun.run(MpjFailureScenarios.FAILURE_LIMIT_SECONDS, Map.of(), "-np",
        "2", "--dev", DEVICE, "--class", "org.metope.comm.ClassSharingProbe");
    assertEquals(0, r.exitCode(), r.output());
    String[] api = new String[2];
    String[] backend = new String[2];
    Matcher m = Pattern.compile("rank (\\d) api=(\\S+) backend=(\\S+)").matcher(r.output());
    while (m.find()) {
      int rank = Integer.parseInt(m.group(1));
      api[rank] = m.group(2);
      backend[rank] = m.group(3);
    }
    assertTrue(api[0] != null && api[1] != null, r.output());
    assertTrue(api[0].startsWith("app@"), "Metope's classes come from the JVM's class path: "
        + r.output());
    assertEquals(api[0], api[1], "one class loader for Metope's classes on both ranks");
    assertNotEquals(backend[0], backend[1], "each rank loads the MPJ backend with its own loader");
    assertNotEquals(api[0], backend[0], r.output());
  }
}
