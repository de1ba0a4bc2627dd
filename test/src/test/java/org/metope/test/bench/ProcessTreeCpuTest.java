package org.metope.test.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link ProcessTreeCpu} counts the CPU of a grandchild (the benchmark's ranks are grandchildren
 * of the launcher) and not the wall time of a process that only waits. The work is a fixed
 * number of shell additions, so the CPU it takes does not depend on the machine's load. The JIT
 * compilers' CPU is counted for a JVM that compiles every method it runs ({@code -Xcomp}) and is
 * zero for shells, which have no compiler threads.
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

  private static ProcessTreeCpu.Sample sampleOf(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    ProcessTreeCpu cpu = new ProcessTreeCpu(p);
    assertEquals(0, p.waitFor());
    return cpu.stop();
  }

  @Test
  void countsTheCompilerThreadsOfAJvmThatCompilesEverything() throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    ProcessTreeCpu.Sample s = sampleOf("sh", "-c", "'" + java + "' -Xcomp -Xshare:off -version");
    assertTrue(s.compilerSeconds() >= 0.1, "JIT CPU seconds of java -Xcomp -version: " + s);
    assertTrue(s.compilerSeconds() <= s.cpuSeconds() + 0.05, "JIT within the total: " + s);
  }

  @Test
  void negativeControlAShellHasNoCompilerTime() throws Exception {
    ProcessTreeCpu.Sample s = sampleOf("sh", "-c", "i=0; while [ $i -lt 200000 ]; do "
        + "i=$((i+1)); done");
    assertTrue(s.cpuSeconds() >= 0.1, "CPU seconds of 200,000 shell additions: " + s);
    assertEquals(0.0, s.compilerSeconds(), "JIT CPU seconds of a shell: " + s);
  }

  @Test
  void recognisesHotSpotCompilerThreadsByName() {
    assertTrue(ProcessTreeCpu.isCompilerThread("C2 CompilerThre"));
    assertTrue(ProcessTreeCpu.isCompilerThread("C1 CompilerThre"));
    assertFalse(ProcessTreeCpu.isCompilerThread("metope-tasks-1"));
    assertFalse(ProcessTreeCpu.isCompilerThread("G1 Conc#0"));
  }

  @Test
  void aWindowIsTheDifferenceOfTwoSamples() {
    ProcessTreeCpu.Sample w = new ProcessTreeCpu.Sample(3.0, 1.0, 70.0)
        .since(new ProcessTreeCpu.Sample(1.0, 0.5, 60.0));
    assertEquals(2.0, w.cpuSeconds(), 1e-12);
    assertEquals(0.25, w.compilerShare(), 1e-12);
    assertEquals(70.0, w.peakRssMb(), 1e-12, "the memory peak is the later sample's");
    assertTrue(Double.isNaN(new ProcessTreeCpu.Sample(0, 0, 0).compilerShare()));
  }

  @Test
  void seesThePeakMemoryOfAProcessThatFillsAnArray() throws Exception {
    // A grandchild writes 300 MB, holds them a moment and ends: its peak stands after it is gone.
    ProcessTreeCpu.Sample s = sampleOf("sh", "-c",
        "python3 -c 'import time; b = b\"x\" * (300 << 20); time.sleep(0.5)'; sleep 0.2");
    assertTrue(s.peakRssMb() >= 290, "peak RSS of a process holding 300 MB: " + s);
  }

  @Test
  void negativeControlASmallShellHasASmallPeak() throws Exception {
    ProcessTreeCpu.Sample s = sampleOf("sh", "-c", "sleep 0.3");
    assertTrue(s.peakRssMb() > 0 && s.peakRssMb() < 50, "peak RSS of a sleeping shell: " + s);
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
