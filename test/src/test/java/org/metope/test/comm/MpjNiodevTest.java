package org.metope.test.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

  /** Rank counts that are and are not powers of two: the collectives are trees over them. */
  @ParameterizedTest(name = "{0} ranks")
  @ValueSource(ints = {1, 2, 3, 4, 5, 8})
  void givenRanks_thenTheContractHolds(int ranks) throws Exception {
    MpjFailureScenarios.contractPasses(DEVICE, ranks);
  }

  @Test
  void givenMessagesAboveMpjsDefaultSwitchLimit_thenNoRankStartsAThreadPerMessage()
      throws Exception {
    long[] started = largeMessageThreadStarts(Map.of());
    for (long s : started) {
      assertTrue(s < org.metope.comm.LargeMessageThreads.MESSAGES / 4, "thread starts per rank: " + Arrays.toString(started));
    }
  }

  /** The negative control: MPJ's own 128 KiB limit brings a thread start per message back. */
  @Test
  void givenMpjsDefaultSwitchLimit_thenEveryLargeMessageStartsAThread() throws Exception {
    long[] started = largeMessageThreadStarts(Map.of("METOPE_MPJ_PSL", "131072"));
    for (long s : started) {
      assertTrue(s >= org.metope.comm.LargeMessageThreads.MESSAGES / 2, "thread starts per rank: " + Arrays.toString(started));
    }
  }

  /** Each rank's thread starts while it sends its messages of 256 KiB round a ring of two. */
  private static long[] largeMessageThreadStarts(Map<String, String> env) throws Exception {
    LauncherRun r = LauncherRun.run(MpjFailureScenarios.CONTRACT_LIMIT_SECONDS, env, "-np", "2",
        "--dev", DEVICE, "--class", "org.metope.comm.LargeMessageThreads");
    assertEquals(0, r.exitCode(), r.output());
    Matcher m = Pattern.compile("large-message thread starts per rank: \\[(\\d+), (\\d+)\\]")
        .matcher(r.output());
    assertTrue(m.find(), r.output());
    return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
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
