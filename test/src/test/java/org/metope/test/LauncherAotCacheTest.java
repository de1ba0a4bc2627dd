package org.metope.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which AOT cache the launcher gives a JVM of release 25 (launcher/aot.sh): one per JIT policy, so
 * a one-CPU JVM runs on the profiles of a one-CPU training, and the cache of another policy where
 * its own cannot be trained (the ranks that {@code --dev mpi} starts with METOPE_SKIP_BUILD). The
 * functions run in bash with a stand-in JDK whose release file says 25, which is never started.
 */
class LauncherAotCacheTest {
  private static final String CLASS_PATH = "app.jar";

  @TempDir Path tmp;
  private Path java;

  @BeforeEach
  void standInJdk() throws Exception {
    Path home = Files.createDirectories(tmp.resolve("jdk/bin")).getParent();
    Files.writeString(home.resolve("release"), "JAVA_VERSION=\"25.0.1\"\n");
    java = Files.writeString(home.resolve("bin/java"), "#!/bin/sh\nexit 1\n");
    java.toFile().setExecutable(true);
    Files.createDirectories(tmp.resolve("target"));
  }

  @Test
  void givenTwoPolicies_thenEachHasItsOwnCache() throws Exception {
    String oneCpu = shell("auto-one-cpu", "aot_cache_file " + CLASS_PATH + " '' auto-one-cpu");
    String twoCpus = shell("auto", "aot_cache_file " + CLASS_PATH + " '' auto");
    assertNotEquals(oneCpu, twoCpus);
    assertEquals(oneCpu.replace("auto-one-cpu", "auto"), twoCpus);
  }

  @Test
  void givenItsOwnCache_thenAOneCpuJvmTakesItOverTheTwoCpuOne() throws Exception {
    Path twoCpus = cache("auto");
    Path oneCpu = cache("auto-one-cpu");
    assertEquals(aotCache(oneCpu), shell("auto-one-cpu", aotOpts()));
    assertEquals(aotCache(twoCpus), shell("auto", aotOpts()));
  }

  @Test
  void givenOnlyAnotherPolicysCache_thenItServesWhereNoneCanBeTrained() throws Exception {
    assertEquals("", shell("auto-one-cpu", aotOpts()));
    Path twoCpus = cache("auto");
    assertEquals(aotCache(twoCpus), shell("auto-one-cpu", aotOpts()));
  }

  /**
   * Training a cache removes those of earlier builds (older than the build stamp), a cache of a
   * class path since changed among them, and keeps one trained since the build.
   */
  @Test
  void givenCachesOfAnEarlierBuild_whenACacheIsTrained_thenTheyAreRemoved() throws Exception {
    Files.writeString(java, "#!/bin/sh\nfor a; do case \"$a\" in -XX:AOTCacheOutput=*)"
        + " echo trained > \"${a#*=}\";; esac; done\n");
    Path target = tmp.resolve("target");
    Path earlier = Files.writeString(target.resolve("metope-aot-123.aot"), "old class path");
    Path stamp = Files.writeString(target.resolve("stamp"), "");
    Path current = cache("auto");
    earlier.toFile().setLastModified(stamp.toFile().lastModified() - 60_000);
    current.toFile().setLastModified(stamp.toFile().lastModified() + 60_000);
    String script = "set -e; ROOT='" + tmp + "'; STAMP=\"$ROOT/target/stamp\"; MAIN_CLASS=none;"
        + " memory_opts() { :; }; jit_opts() { :; }; jit_policy() { echo auto-one-cpu; };"
        + " source '" + RepoPaths.root().resolve("launcher/aot.sh") + "';"
        + " ensure_aot_cache '" + java + "' " + CLASS_PATH + " '' 2>/dev/null";
    ProcessResult r = ProcessResult.run(tmp, 60, Map.of("METOPE_SKIP_BUILD", "0"),
        "bash", "-c", script);
    assertEquals(0, r.exitCode(), r.output());
    assertEquals("trained\n", Files.readString(
        Path.of(shell("auto-one-cpu", "aot_cache_file " + CLASS_PATH + " '' auto-one-cpu"))));
    assertFalse(Files.exists(earlier), "the earlier build's cache is removed");
    assertTrue(Files.exists(current), "a cache trained since the build stays");
  }

  private Path cache(String policy) throws Exception {
    Path file = Path.of(shell(policy, "aot_cache_file " + CLASS_PATH + " '' " + policy));
    return Files.writeString(file, "cache");
  }

  private String aotOpts() {
    return "aot_opts '" + java + "' " + CLASS_PATH + " ''";
  }

  private static String aotCache(Path file) {
    return "-XX:AOTCache=" + file + " -Xlog:aot=off -Xlog:cds=off";
  }

  /** Runs {@code command} after sourcing launcher/aot.sh, with jit_policy answering policy. */
  private String shell(String policy, String command) throws Exception {
    String script = "set -e; ROOT='" + tmp + "'; STAMP=\"$ROOT/target/stamp\"; MAIN_CLASS=none;"
        + " memory_opts() { :; }; jit_opts() { :; }; jit_policy() { echo " + policy + "; };"
        + " source '" + RepoPaths.root().resolve("launcher/aot.sh") + "'; " + command;
    ProcessResult r = ProcessResult.run(tmp, 60, Map.of("METOPE_SKIP_BUILD", "1"),
        "bash", "-c", script);
    assertEquals(0, r.exitCode(), r.output());
    return r.output().strip();
  }
}
