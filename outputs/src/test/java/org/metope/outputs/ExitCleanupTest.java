package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExitCleanupTest {
  @TempDir
  Path tmp;

  /**
   * A signal can end a run before its first output registers a file, so the registration meets a
   * JVM that is already shutting down, where no shutdown hook can be added. The file is removed
   * at once and the thread waits for the end: the process ends with the exit's own code, prints
   * nothing, and leaves nothing. Before, the registration threw ("Shutdown in progress") and the
   * file stayed.
   */
  @Test
  void givenTheJvmShuttingDown_whenAFileIsRegistered_thenItIsRemovedAndNothingIsPrinted()
      throws Exception {
    Path file = tmp.resolve("advection.out0.00000.phdf.tmp-1-1");
    Path log = tmp.resolve("child.log");
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-cp", System.getProperty("java.class.path"),
        LateRegistration.class.getName(), file.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    // A hang guard only: the child ends in well under a second.
    assertTrue(child.waitFor(5, TimeUnit.MINUTES), "the child JVM did not end");
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertEquals(3, child.exitValue(), output);
    assertFalse(Files.exists(file), "the registered file is left: " + output);
    assertEquals("", output);
  }
}
