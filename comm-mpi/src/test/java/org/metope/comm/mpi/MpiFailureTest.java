package org.metope.comm.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A failing rank ends every rank of an MPI job, with its line printed once (by rank 0) and a
 * non-zero exit code, instead of a hang: an abort on one rank of three while the others wait for
 * its message, an exception, and a collective one rank never joins (the stall timeout). The
 * process limit only guards the build against a hang; nothing here is timed.
 */
class MpiFailureTest {
  private static final long LIMIT_SECONDS = 120;

  @BeforeAll
  static void prerequisites() {
    MpiLauncherRun.requirePrerequisites();
  }

  private static MpiLauncherRun selfTest(int ranks, String... staged) throws Exception {
    String[] args = new String[6 + staged.length];
    String[] head = {"-np", "" + ranks, "--dev", "mpi", "--class", MpiLauncherRun.SELF_TEST};
    System.arraycopy(head, 0, args, 0, head.length);
    System.arraycopy(staged, 0, args, head.length, staged.length);
    return MpiLauncherRun.metope(LIMIT_SECONDS, args);
  }

  /** The output's lines that are not the contract's success line. */
  private static List<String> otherLines(MpiLauncherRun r) {
    return r.output().lines().filter(l -> !l.isBlank())
        .filter(l -> !l.startsWith("communicator contract: ")).toList();
  }

  @Test
  void givenARankThatAborts_thenEveryRankEndsWithOneLine() throws Exception {
    MpiLauncherRun r = selfTest(3, "--abort-on-rank", "1");
    assertEquals(1, r.exitCode(), r.output());
    assertEquals(List.of("metope: rank 1 failed (exit 1): run aborted by rank 1: staged abort "
        + "on rank 1 (--abort-on-rank)"), otherLines(r), r.output());
  }

  @Test
  void givenARankThatThrows_thenItsFailureIsReportedOnce() throws Exception {
    MpiLauncherRun r = selfTest(2, "--throw-on-rank", "1");
    assertEquals(1, r.exitCode(), r.output());
    String line = "metope: rank 1 failed (exit 1): java.lang.IllegalStateException: staged "
        + "failure on rank 1 (--throw-on-rank)";
    assertEquals(1, otherLines(r).stream().filter(line::equals).count(), r.output());
  }

  @Test
  void givenACollectiveOneRankNeverJoins_thenTheStallTimeoutEndsTheJob() throws Exception {
    MpiLauncherRun r = selfTest(2, "--stall-collective-on-rank", "1");
    assertEquals(1, r.exitCode(), r.output());
    List<String> lines = otherLines(r);
    assertEquals(1, lines.size(), r.output());
    assertTrue(lines.get(0).matches("metope: rank 0 failed \\(exit 1\\): run aborted by rank 0: "
        + "rank 0 waited \\d+\\.\\d s in a collective for allgather with the other ranks \\(the "
        + "stall timeout, recv_bdry_buf_timeout_sec\\)"), r.output());
  }
}
