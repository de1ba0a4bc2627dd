package org.metope.test.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Wrong use of the launcher's multi-rank options is one line and exit code 2. */
class LauncherMpjUsageTest {

  private static void assertUsageError(String expectedLine, String... args) throws Exception {
    assertUsageError(Map.of(), expectedLine, args);
  }

  private static void assertUsageError(Map<String, String> env, String expectedLine,
      String... args) throws Exception {
    LauncherRun r = LauncherRun.run(30, env, args);
    assertEquals(2, r.exitCode(), r.output());
    assertEquals(expectedLine, r.output().strip());
  }

  @Test
  void givenZeroRanks_thenOneLineAndExitTwo() throws Exception {
    assertUsageError("metope: option -np = \"0\": expected a number of ranks from 1 to 9999",
        "-np", "0", "-i", "x.in");
  }

  @Test
  void givenAnUnknownDevice_thenOneLineAndExitTwo() throws Exception {
    assertUsageError("metope: option --dev = \"smp\": expected multicore, niodev or mpi",
        "-np", "2", "--dev", "smp", "-i", "x.in");
  }

  @Test
  void givenADeviceWithoutRanks_thenOneLineAndExitTwo() throws Exception {
    assertUsageError("metope: options --dev and --class need -np N", "--dev", "niodev", "-i",
        "x.in");
  }

  @Test
  void givenMissingRankCount_thenOneLineAndExitTwo() throws Exception {
    assertUsageError("metope: option -np needs a number of ranks", "-i", "x.in", "-np");
  }

  @Test
  void givenAnUnknownTransport_thenOneLineAndExitTwo() throws Exception {
    assertUsageError(Map.of("METOPE_MPJ_TRANSPORT", "shm"),
        "metope: METOPE_MPJ_TRANSPORT = \"shm\": expected shared or mpj", "-np", "2", "-i",
        "x.in");
  }
}
