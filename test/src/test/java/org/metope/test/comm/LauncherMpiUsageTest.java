package org.metope.test.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the launcher says when the MPI device is asked for and cannot run, on the JDK 17 the suite
 * runs on: no JDK 22 or newer is one line and exit code 2, from {@code --dev mpi} and from rank 0
 * of an {@code mpirun} job (the other ranks stay silent); a JDK 25 found instead moves on to the
 * next check (no mpirun). The JDK search is pointed at an empty directory ({@code METOPE_JVM_DIR})
 * so that the machine's own Temurin 25 is not found.
 */
class LauncherMpiUsageTest {
  private static final String NO_JDK = "metope: the mpi device needs a JDK 22 or newer (Java's "
      + "Foreign Function & Memory API) and none was found in METOPE_MPI_JAVA_HOME, JAVA_HOME or "
      + "/usr/lib/jvm: install one (e.g. Temurin 25) or set METOPE_MPI_JAVA_HOME";

  @TempDir Path dir;

  /** The environment of a machine whose only JDK is the one running this test (17). */
  private Map<String, String> withoutNewJdk() throws Exception {
    Map<String, String> env = new HashMap<>();
    env.put("JAVA_HOME", System.getProperty("java.home"));
    env.put("METOPE_MPI_JAVA_HOME", "");
    env.put("METOPE_JVM_DIR", Files.createDirectories(dir.resolve("jvm")).toString());
    return env;
  }

  @Test
  void givenNoJdk22_whenTheMpiDeviceIsAskedFor_thenOneLineAndExitTwo() throws Exception {
    LauncherRun r = LauncherRun.run(30, withoutNewJdk(), "-np", "2", "--dev", "mpi", "-i",
        "x.in");
    assertEquals(2, r.exitCode(), r.output());
    assertEquals(NO_JDK, r.output().strip());
  }

  @Test
  void givenNoJdk22_whenRanksRunUnderMpirun_thenRankZeroAloneSaysSo() throws Exception {
    Map<String, String> env = withoutNewJdk();
    env.put("OMPI_COMM_WORLD_SIZE", "2");
    env.put("OMPI_COMM_WORLD_RANK", "0");
    LauncherRun zero = LauncherRun.run(30, env, "-i", "x.in");
    assertEquals(2, zero.exitCode(), zero.output());
    assertEquals(NO_JDK, zero.output().strip());
    env.put("OMPI_COMM_WORLD_RANK", "1");
    LauncherRun one = LauncherRun.run(30, env, "-i", "x.in");
    assertEquals(2, one.exitCode(), one.output());
    assertEquals("", one.output().strip());
  }

  @Test
  void givenAJdk25AndNoMpirun_thenTheJdkLineGivesWayToTheMpirunLine() throws Exception {
    Map<String, String> env = withoutNewJdk();
    Path jdk = Files.createDirectories(dir.resolve("jvm/temurin-25-jdk-amd64/bin"));
    for (String tool : new String[] {"java", "javac"}) {
      Files.writeString(jdk.resolve(tool), "#!/bin/sh\nexit 1\n");
      Files.setPosixFilePermissions(jdk.resolve(tool), PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    Files.writeString(jdk.getParent().resolve("release"), "JAVA_VERSION=\"25.0.3\"\n");
    env.put("METOPE_MPIRUN", dir.resolve("no-mpirun").toString());
    LauncherRun r = LauncherRun.run(30, env, "-np", "2", "--dev", "mpi", "-i", "x.in");
    assertEquals(2, r.exitCode(), r.output());
    assertFalse(r.output().contains("needs a JDK 22"), r.output());
    assertTrue(r.output().strip().startsWith("metope: the mpi device needs Open MPI's mpirun on "
        + "PATH"), r.output());
  }

  @Test
  void givenRankOptionsUnderMpirun_thenOneLineFromRankZero() throws Exception {
    Map<String, String> env = new HashMap<>();
    env.put("OMPI_COMM_WORLD_SIZE", "2");
    env.put("OMPI_COMM_WORLD_RANK", "0");
    LauncherRun r = LauncherRun.run(30, env, "-np", "2", "-i", "x.in");
    assertEquals(2, r.exitCode(), r.output());
    assertEquals("metope: under mpirun or srun the MPI launcher starts the ranks: leave out -np "
        + "(e.g. mpirun -np 4 ./metope -i DECK)", r.output().strip());
  }
}
