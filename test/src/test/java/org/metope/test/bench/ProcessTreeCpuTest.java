package org.metope.test.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link ProcessTreeCpu} counts the CPU of a grandchild (the benchmark's ranks are grandchildren
 * of the launcher) and not the wall time of a process that only waits. The work is a fixed
 * number of shell additions, so the CPU it takes does not depend on the machine's load.
 */
class ProcessTreeCpuTest {
  /** A shell that starts a shell that counts to {@code n}, then waits {@code sleep} seconds. */
  private static double cpuOf(int n, String sleep) throws Exception {
    String inner = "i=0; while [ $i -lt " + n + " ]; do i=$((i+1)); done; sleep " + sleep;
    Process p = new ProcessBuilder("sh", "-c", "sh -c '" + inner + "'; true").start();
    ProcessTreeCpu cpu = new ProcessTreeCpu(p);
    assertEquals(0, p.waitFor());
    return cpu.stopSeconds();
  }

  @Test
  void countsTheWorkOfAGrandchild() throws Exception {
    double busy = cpuOf(400_000, "0.2");
    assertTrue(busy >= 0.2, "CPU seconds of 400,000 shell additions in a grandchild: " + busy);
  }

  @Test
  void negativeControlAWaitingTreeCostsAlmostNothing() throws Exception {
    double idle = cpuOf(0, "1");
    assertTrue(idle < 0.1, "CPU seconds of a tree that sleeps 1 s: " + idle);
  }
}
