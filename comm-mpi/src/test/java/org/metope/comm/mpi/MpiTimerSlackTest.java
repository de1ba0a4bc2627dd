package org.metope.comm.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every thread of an MPI rank sleeps with {@link TimerSlack#RANK_NANOS} of timer slack: the main
 * thread, which {@link MpiRankMain} sets, and a thread it starts, which inherits it. The control is
 * this test's own JVM, not started as a rank, whose threads keep the system's slack.
 */
class MpiTimerSlackTest {
  private static final long LIMIT_SECONDS = 120;

  @BeforeAll
  static void prerequisites() {
    MpiLauncherRun.requirePrerequisites();
  }

  @Test
  void givenRanksUnderMpirun_thenMainAndStartedThreadsHaveTheRankSlack() throws Exception {
    long own = TimerSlack.get();
    assertTrue(own > 0, "prctl(PR_GET_TIMERSLACK) here: " + own);
    assertNotEquals(TimerSlack.RANK_NANOS, own, "a JVM that is no rank keeps the system's slack");
    String classes = MpiLauncherRun.root().resolve("comm-mpi/target/test-classes").toString();
    MpiLauncherRun r = MpiLauncherRun.metope(LIMIT_SECONDS, "-np", "2", "--dev", "mpi", "-cp",
        classes, "--class", TimerSlackProbe.class.getName());
    assertEquals(0, r.exitCode(), r.output());
    String expected = " timer slack: main=" + TimerSlack.RANK_NANOS + " thread="
        + TimerSlack.RANK_NANOS;
    assertTrue(r.output().contains("rank 0" + expected), r.output());
    assertTrue(r.output().contains("rank 1" + expected), r.output());
  }
}
