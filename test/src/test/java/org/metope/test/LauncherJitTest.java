package org.metope.test;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's JIT policy ({@code METOPE_JIT}), read back from the JVM it starts
 * ({@code -XX:+PrintFlagsFinal}): a JVM limited to one CPU waits longer before C2 compiles, one
 * with two CPUs does not (whatever its ranks and task threads), {@code quick} stops at C1 and a
 * wrong value is one line.
 */
class LauncherJitTest {
  @TempDir Path tmp;

  @Test
  void givenOneCpu_thenC2WaitsLongerThanWithTwo() throws Exception {
    // The JVM prints thresholds already scaled by CompileThresholdScaling (2 under auto).
    Map<String, String> one = flags("auto", "0");
    assertEquals("200000", one.get("Tier4InvocationThreshold"));
    assertEquals("1600000", one.get("Tier4BackEdgeThreshold"));
    // The control: the same launcher on two CPUs keeps the JVM's tier-4 thresholds (doubled).
    Map<String, String> two = flags("auto", "0,1");
    assertEquals("10000", two.get("Tier4InvocationThreshold"));
    assertEquals("80000", two.get("Tier4BackEdgeThreshold"));
  }

  @Test
  void givenTwoCpus_thenTwoRanksOrTwoTaskThreadsKeepTheTwoCpuPolicy() throws Exception {
    // On two CPUs, C2 on the second core pays for itself even when both are busy with ranks or
    // task threads (Parthenon's 2D adaptive deck, quiet: the one-CPU policy cost 15 - 25 %).
    Map<String, String> ranks = flags("auto", "0,1", "-np", "2");
    assertEquals("10000", ranks.get("Tier4InvocationThreshold"));
    Map<String, String> threads = deckFlags("auto", "0,1", deck(), "metope/threads=2");
    assertEquals("10000", threads.get("Tier4InvocationThreshold"));
    // The control: the same two ranks on one CPU get the one-CPU policy.
    Map<String, String> pinned = flags("auto", "0", "-np", "2");
    assertEquals("200000", pinned.get("Tier4InvocationThreshold"));
  }

  @Test
  void givenQuickOrPeak_thenC1OnlyOrTheJvmDefaults() throws Exception {
    assertEquals("1", flags("quick", "0").get("TieredStopAtLevel"));
    Map<String, String> peak = flags("peak", "0");
    assertEquals("4", peak.get("TieredStopAtLevel"));
    assertEquals("5000", peak.get("Tier4InvocationThreshold"));
    assertEquals("1.000000", peak.get("CompileThresholdScaling"));
  }

  @Test
  void givenAnUnknownPolicy_thenOneLineAndExitTwo() throws Exception {
    ProcessResult r = ProcessResult.run(Path.of("."), 60, Map.of("METOPE_JIT", "fast"),
        RepoPaths.launcher().toString(), "-i", deck(), "-d", tmp.toString());
    assertEquals(2, r.exitCode(), r.output());
    assertEquals("metope: METOPE_JIT = \"fast\": expected auto, quick or peak",
        r.output().strip());
  }

  /**
   * The final JVM flags of a one-cycle run under {@code taskset -c cpus}, launched with {@code
   * launcherArgs} (e.g. {@code -np 2}); where several JVMs print them (the launch check of a
   * multi-rank run, then the ranks' JVM), the last JVM's.
   */
  private Map<String, String> flags(String policy, String cpus, String... launcherArgs)
      throws Exception {
    List<String> command = new ArrayList<>(List.of(launcherArgs));
    command.addAll(List.of("-i", deck()));
    return flags(policy, cpus, command);
  }

  /** The same for a run of {@code deck} with the keys {@code overrides} on the command line. */
  private Map<String, String> deckFlags(String policy, String cpus, String deck,
      String... overrides)
      throws Exception {
    List<String> command = new ArrayList<>(List.of("-i", deck));
    command.addAll(List.of(overrides));
    return flags(policy, cpus, command);
  }

  private Map<String, String> flags(String policy, String cpus, List<String> args)
      throws Exception {
    return LauncherFlags.of(tmp, Map.of("METOPE_JIT", policy), cpus, args);
  }

  private static String deck() {
    return RepoPaths.root().resolve("inputs/advection_2d.in").toString();
  }
}
