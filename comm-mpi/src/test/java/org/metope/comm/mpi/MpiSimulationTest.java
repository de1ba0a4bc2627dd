package org.metope.comm.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shipped deck on two MPI ranks started the way HPC users start them, {@code mpirun -np 2
 * ./metope -i DECK}: the history file holds the bytes of the one-rank run's (no MPI), so
 * the boundary exchange, the time step's minimum and the history's global-order sums are exact
 * on the MPI device; and again with two task threads per rank, which post, poll and complete
 * their messages concurrently ({@code MPI_THREAD_MULTIPLE}, and {@code MPI_THREAD_SERIALIZED}
 * with the device's lock). The 64x64 mesh of 16x16 blocks gives each rank 8 blocks with
 * neighbours on the other.
 */
class MpiSimulationTest {
  private static final long LIMIT_SECONDS = 180;

  @TempDir Path dir;

  @BeforeAll
  static void prerequisites() {
    MpiLauncherRun.requirePrerequisites();
  }

  @Test
  void givenAdvectionDeck_thenTwoMpiRanksWriteTheOneRankHistoryWithOneOrTwoThreads()
      throws Exception {
    String deck = MpiLauncherRun.root().resolve("inputs/advection_2d.in").toString();
    String[] overrides = {"parthenon/time/nlim=12", "parthenon/mesh/nx1=64",
        "parthenon/mesh/nx2=64", "parthenon/meshblock/nx1=16", "parthenon/meshblock/nx2=16",
        "parthenon/output0/dt=0.002"};
    Path one = Files.createDirectories(dir.resolve("one"));
    Path two = Files.createDirectories(dir.resolve("two"));
    Path threads = Files.createDirectories(dir.resolve("two-threads"));
    Path serialized = Files.createDirectories(dir.resolve("two-threads-serialized"));
    MpiLauncherRun serial = MpiLauncherRun.metope(LIMIT_SECONDS,
        concat(new String[] {"-i", deck, "-d", one.toString()}, overrides));
    assertEquals(0, serial.exitCode(), serial.output());
    MpiLauncherRun mpi = MpiLauncherRun.mpirun(LIMIT_SECONDS, 2,
        concat(new String[] {"-i", deck, "-d", two.toString()}, overrides));
    assertEquals(0, mpi.exitCode(), mpi.output());
    MpiLauncherRun threaded = MpiLauncherRun.mpirun(LIMIT_SECONDS, 2, concat(concat(
        new String[] {"-i", deck, "-d", threads.toString()}, overrides),
        new String[] {"metope/threads=2", "parthenon/mesh/pack_size=2"}));
    assertEquals(0, threaded.exitCode(), threaded.output());
    MpiLauncherRun locked = MpiLauncherRun.mpirun(LIMIT_SECONDS,
        Map.of("METOPE_JAVA_OPTS", "-Dmetope.mpi.threads=serialized"), 2, concat(concat(
            new String[] {"-i", deck, "-d", serialized.toString()}, overrides),
            new String[] {"metope/threads=2", "parthenon/mesh/pack_size=2"}));
    assertEquals(0, locked.exitCode(), locked.output());
    String hst = "advection_2d.out0.hst";
    String expected = Files.readString(one.resolve(hst));
    assertTrue(expected.lines().count() > 10, expected);
    assertEquals(expected, Files.readString(two.resolve(hst)));
    assertEquals(expected, Files.readString(threads.resolve(hst)), "2 ranks, 2 threads each");
    assertEquals(expected, Files.readString(serialized.resolve(hst)),
        "2 ranks, 2 threads each, MPI_THREAD_SERIALIZED");
  }

  private static String[] concat(String[] a, String[] b) {
    String[] out = new String[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
