package org.metope.test.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every MPJ rank of a JVM given TornadoVM's options gets the directory of package-body launchers
 * where TornadoVM reads class files: the system class loader finds a file written there, although
 * MPJ's starters replace a rank JVM's class path with MPJ's own jars (multicore ranks are threads
 * of one such JVM, niodev ranks one JVM each). Without TornadoVM's options no rank gets one. A
 * JVM without TornadoVM ignores the {@code -Dtornado.*} option that stands for its options here.
 */
class LauncherDeviceDirectoryTest {
  private static final Map<String, String> TORNADO_OPTIONS =
      Map.of("METOPE_JAVA_OPTS", "-Dtornado.debug=False");

  @BeforeAll
  static void mpjIsInstalled() {
    LauncherRun.requireMpj();
  }

  @ParameterizedTest
  @ValueSource(strings = {"multicore", "niodev"})
  void givenTornadoOptions_thenEveryRankFindsItsLauncherFileAsASystemResource(String device)
      throws Exception {
    LauncherRun r = probe(device, TORNADO_OPTIONS);
    assertTrue(r.output().contains("rank 0 launcher directory: found"), r.output());
    assertTrue(r.output().contains("rank 1 launcher directory: found"), r.output());
  }

  @Test
  void givenNoTornadoOptions_thenNoRankGetsADirectory() throws Exception {
    LauncherRun r = probe("multicore", Map.of());
    assertTrue(r.output().contains("rank 0 launcher directory: none"), r.output());
    assertTrue(r.output().contains("rank 1 launcher directory: none"), r.output());
  }

  private static LauncherRun probe(String device, Map<String, String> env) throws Exception {
    LauncherRun r = LauncherRun.run(MpjFailureScenarios.FAILURE_LIMIT_SECONDS, env, "-np", "2",
        "--dev", device, "--class", "org.metope.comm.LauncherDirectoryProbe");
    assertEquals(0, r.exitCode(), r.output());
    return r;
  }
}
