package org.metope.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The AOT cache {@code ./metope --dev mpi} trains for its ranks (launcher/mpi.sh,
 * {@code ensure_rank_aot_cache}): ranks that have one CPU each (two ranks, which mpirun binds to a
 * core each, or as many ranks as cores) get a cache trained on one CPU under the one-CPU policy,
 * not the launcher's own two-CPU one, and trained through the device's entry, which links its
 * downcalls first. The functions run in bash with a stand-in JDK whose release file says 25 and
 * whose {@code java} writes the CPUs it saw into the cache it is asked for, and its arguments into
 * {@code java-args}.
 */
class LauncherRankAotCacheTest {
  @TempDir Path tmp;
  private Path jdk;

  @BeforeEach
  void standInJdk() throws Exception {
    jdk = Files.createDirectories(tmp.resolve("jdk/bin")).getParent();
    Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"25.0.1\"\n");
    Path java = Files.writeString(jdk.resolve("bin/java"), "#!/bin/bash\n"
        + "echo \"$@\" > java-args\n"
        + "for a in \"$@\"; do case \"$a\" in -XX:AOTCacheOutput=*) nproc > \"${a#*=}\" ;; esac;"
        + " done\n");
    java.toFile().setExecutable(true);
    Files.createDirectories(tmp.resolve("target"));
  }

  @Test
  void givenTwoRanks_thenTheirCacheIsTrainedOnOneCpuUnderTheOneCpuPolicy() throws Exception {
    assertEquals("auto-one-cpu 1", trainedFor(2, 16));
  }

  @Test
  void givenAsManyRanksAsCores_thenTheirCacheIsTrainedOnOneCpu() throws Exception {
    assertEquals("auto-one-cpu 1", trainedFor(4, 4));
  }

  @Test
  void givenFewerRanksThanCoresBeyondTwo_thenTheLaunchersOwnPolicyTrains() throws Exception {
    // The control: three ranks on sixteen cores are not bound to one core each.
    assertEquals("auto 2", trainedFor(3, 16));
  }

  @Test
  void givenRanks_thenTheirTrainingRunsThroughTheDevicesEntry() throws Exception {
    trainedFor(2, 16);
    String args = Files.readString(tmp.resolve("java-args"));
    assertTrue(args.contains("comm-mpi-0.1.0-SNAPSHOT.jar org.metope.comm.mpi.MpiAotTraining"
        + " org.metope.app.AotTraining -i "), args);
  }

  /**
   * Runs {@code ensure_rank_aot_cache ranks} on CPUs 0 and 1 with {@code cores} physical cores,
   * and returns the policy of the one cache it wrote and the CPUs its training saw.
   */
  private String trainedFor(int ranks, int cores) throws Exception {
    String script = "set -e; ROOT='" + tmp + "'; STAMP=\"$ROOT/target/stamp\"; MAIN_CLASS=none;"
        + " memory_opts() { :; }; jit_opts() { :; }; base_classpath() { echo app.jar; };"
        + " jit_policy() { if [ \"$(nproc)\" = 1 ]; then echo auto-one-cpu; else echo auto; fi; };"
        + " source '" + RepoPaths.root().resolve("launcher/aot.sh") + "';"
        + " source '" + RepoPaths.root().resolve("launcher/mpi.sh") + "';"
        + " physical_cores() { echo " + cores + "; }; MPI_JAVA_HOME='" + jdk + "';"
        + " ensure_rank_aot_cache " + ranks + " 2>/dev/null;"
        + " for f in \"$ROOT\"/target/*.aot; do b=\"$(basename \"$f\" .aot)\";"
        + " echo \"${b#metope-aot-*-}\" $(cat \"$f\"); done";
    ProcessResult r = ProcessResult.run(tmp, 60, Map.of("METOPE_SKIP_BUILD", "0"),
        "taskset", "-c", "0,1", "bash", "-c", script);
    assertEquals(0, r.exitCode(), r.output());
    String out = r.output().strip();
    assertFalse(out.contains("\n"), "one cache: " + out);
    return out;
  }
}
