package org.metope.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Runs the launcher script and the Java entry as real processes, as a user would. */
class LauncherProcessTest {

  @Test
  void givenHelp_thenBothModesAreExplainedAndExitIsZero() throws Exception {
    ProcessResult r = ProcessResult.run(Path.of("."), 30, RepoPaths.launcher().toString(), "--help");
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains("metope -i DECK"), r.output());
    assertTrue(r.output().contains("metope test"), r.output());
  }

  @Test
  void givenUnknownCommand_thenOneLineAndExitTwo() throws Exception {
    ProcessResult r = ProcessResult.run(Path.of("."), 30, RepoPaths.launcher().toString(), "frobnicate");
    assertEquals(2, r.exitCode());
    assertEquals("metope: unknown command 'frobnicate' (expected -i DECK, test, install, bench, plot or --help)",
        r.output().strip());
  }

  @Test
  void givenBadFlagToTheJavaEntry_thenOneLineNoStackTraceAndExitTwo() throws Exception {
    ProcessResult r = ProcessResult.java(30, "org.metope.app.Metope", "-i", "x.in", "--bogus");
    assertEquals(2, r.exitCode());
    assertEquals("metope: unknown option '--bogus' (see metope --help)", r.output().strip());
    assertFalse(r.output().contains("Exception"), r.output());
  }

  @Test
  void givenUnknownBenchmark_thenOneLineAndExitTwo() throws Exception {
    ProcessResult r = ProcessResult.run(Path.of("."), 30, RepoPaths.launcher().toString(), "bench",
        "nope");
    assertEquals(2, r.exitCode());
    assertEquals("metope: unknown benchmark 'nope' (expected kernels, exchange, scaling, weak,"
        + " remesh, pingpong or collectives)",
        r.output().strip());
  }
}
