package org.metope.test.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;

/**
 * The scenarios both MPJ devices must pass, run by {@link MpjMulticoreTest} and {@link
 * MpjNiodevTest}: the communicator contract on real MPJ ranks, and failures that must end the
 * whole run with a non-zero exit code within 30 s instead of hanging.
 */
final class MpjFailureScenarios {
  /** The bound for a failing run; the process is killed and the test fails past it. */
  static final long FAILURE_LIMIT_SECONDS = 30;
  static final long CONTRACT_LIMIT_SECONDS = 120;
  private static final Map<String, String> SHORT_GRACE = Map.of("METOPE_MPJ_GRACE", "2");

  private MpjFailureScenarios() {}

  /** Returns the world's description, as the self-test printed it after the contract passed. */
  static String contractPasses(String device, int ranks) throws Exception {
    return contractPasses(device, ranks, Map.of());
  }

  /** {@link #contractPasses(String, int)} with extra environment for the launcher. */
  static String contractPasses(String device, int ranks, Map<String, String> env)
      throws Exception {
    LauncherRun r = LauncherRun.run(CONTRACT_LIMIT_SECONDS, env, "-np", "" + ranks, "--dev",
        device, "--class", LauncherRun.SELF_TEST);
    assertEquals(0, r.exitCode(), r.output());
    int checks = org.metope.comm.CommunicatorContract.checks().size();
    String passed = "communicator contract: " + checks + " checks passed on ";
    int at = r.output().indexOf(passed);
    assertTrue(at >= 0, r.output());
    String world = r.output().substring(at + passed.length()).lines().findFirst().orElse("");
    assertTrue(world.startsWith("MPJ Express " + device + ", " + ranks
        + (ranks == 1 ? " rank" : " ranks")), r.output());
    return world;
  }

  static void throwingRankFailsTheRun(String device) throws Exception {
    throwingRankFailsTheRun(device, Map.of());
  }

  /** {@link #throwingRankFailsTheRun(String)} with extra environment for the launcher. */
  static void throwingRankFailsTheRun(String device, Map<String, String> env) throws Exception {
    Map<String, String> environment = new HashMap<>(SHORT_GRACE);
    environment.putAll(env);
    LauncherRun r = LauncherRun.run(FAILURE_LIMIT_SECONDS, environment, "-np", "3", "--dev",
        device, "--class", LauncherRun.SELF_TEST, "--throw-on-rank", "1");
    assertEquals(1, r.exitCode(), r.output());
    assertTrue(r.output().contains("metope: rank 1 failed (exit 1): java.lang.IllegalStateException:"
        + " staged failure on rank 1"), r.output());
    assertFalse(r.output().contains("stopped: run aborted by rank 1"),
        "the ranks stopped by the failure leave the report to the launcher: " + r.output());
  }

  static void abortingRankFailsTheRun(String device) throws Exception {
    LauncherRun r = LauncherRun.run(FAILURE_LIMIT_SECONDS, SHORT_GRACE, "-np", "2", "--dev",
        device, "--class", LauncherRun.SELF_TEST, "--abort-on-rank", "0");
    assertEquals(1, r.exitCode(), r.output());
    assertTrue(r.output().contains("metope: rank 0 failed (exit 1): run aborted by rank 0: staged "
        + "abort on rank 0"), r.output());
  }

  static void vanishingRankFailsTheRun(String device) throws Exception {
    LauncherRun r = LauncherRun.run(FAILURE_LIMIT_SECONDS, SHORT_GRACE, "-np", "2", "--dev",
        device, "--class", LauncherRun.SELF_TEST, "--exit-on-rank", "1");
    assertNotEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains("shut down before the rank finished"), r.output());
  }

  static void deckErrorFailsTheRun(String device) throws Exception {
    LauncherRun r = LauncherRun.run(FAILURE_LIMIT_SECONDS, SHORT_GRACE, "-np", "2", "--dev",
        device, "-i", "no-such-deck.in");
    assertNotEquals(0, r.exitCode(), r.output());
    assertEquals("metope: input deck no-such-deck.in does not exist or is not a file",
        r.output().strip(), "one line, before any rank starts");
  }
}
