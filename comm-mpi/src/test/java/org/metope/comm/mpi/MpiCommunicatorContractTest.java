package org.metope.comm.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.comm.CommunicatorContract;

/**
 * The communicator contract (comm's test-jar) on real MPI ranks: {@code ./metope -np N --dev mpi}
 * starts N JVMs under {@code mpirun}, each running every check through Open MPI. The array
 * reductions' first element (1e16 then 1.0 from every other rank) tells a rank-order fold from
 * MPI's own {@code MPI_SUM}, whose tree gives 1e16 + 2 on 4 ranks. The contract holds too with
 * {@code MPI_THREAD_SERIALIZED}, where every MPI call holds the device's lock.
 */
class MpiCommunicatorContractTest {
  private static final long LIMIT_SECONDS = 180;

  @BeforeAll
  static void prerequisites() {
    MpiLauncherRun.requirePrerequisites();
  }

  @ParameterizedTest(name = "{0} ranks")
  @ValueSource(ints = {2, 4})
  void givenRanksUnderMpirun_thenEveryContractCheckPasses(int ranks) throws Exception {
    MpiLauncherRun r = MpiLauncherRun.metope(LIMIT_SECONDS, "-np", "" + ranks, "--dev", "mpi",
        "--class", MpiLauncherRun.SELF_TEST);
    assertEquals(0, r.exitCode(), r.output());
    String passed = "communicator contract: " + CommunicatorContract.checks().size()
        + " checks passed on MPI (Open MPI ";
    assertTrue(r.output().contains(passed), r.output());
    assertTrue(r.output().contains(", " + ranks + " ranks"), r.output());
  }

  @Test
  void givenSerializedThreadLevel_thenTheContractPassesWithTheLock() throws Exception {
    MpiLauncherRun r = MpiLauncherRun.metope(LIMIT_SECONDS,
        Map.of("METOPE_JAVA_OPTS", "-Dmetope.mpi.threads=serialized"), "-np", "2", "--dev",
        "mpi", "--class", MpiLauncherRun.SELF_TEST);
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains(", MPI_THREAD_SERIALIZED), 2 ranks"), r.output());
  }
}
