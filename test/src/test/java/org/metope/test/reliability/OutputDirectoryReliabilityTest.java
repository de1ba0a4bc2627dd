package org.metope.test.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.outputs.AtomicFile;
import org.metope.outputs.OutputDirectoryLock;
import org.metope.outputs.PauseBeforeRename;
import org.metope.test.ProcessResult;
import org.metope.comm.ProgressDeadline;
import org.metope.test.outputs.PausingMetope;

/**
 * The output directory as a second run, a planted link or a SIGTERM would leave it: a directory
 * is written by one run at a time (a second is refused in one line naming the holder; a lock left
 * by a dead process is taken over), outputs never follow a symbolic link out of it, and a run
 * ended by SIGTERM in the middle of an output leaves neither its temporary file nor its lock.
 */
class OutputDirectoryReliabilityTest {
  @TempDir Path dir;

  private static final String DECK = "advection_1d.in";

  private static List<String> javaCommand(String... jvmOptions) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx128m");
    cmd.addAll(List.of(jvmOptions));
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add("org.metope.app.Metope");
    return cmd;
  }

  /**
   * A run paused in the middle of writing its second history-free output ({@link PausingMetope}
   * waits before the rename) holds the directory: a second run is refused naming its pid; SIGTERM
   * then ends the first, which removes its temporary file and its lock; the second run then runs.
   */
  @Test
  void givenARunHoldingTheDirectory_thenASecondIsRefusedUntilSigtermEndsIt() throws Exception {
    Path out = Files.createDirectory(dir.resolve("out"));
    List<String> cmd = javaCommand();
    cmd.set(cmd.size() - 1, PausingMetope.class.getName());
    cmd.addAll(List.of(".*\\.00001\\.phdf", "-i", MetopeProcess.input(DECK).toString(), "-d", out.toString(),
        "parthenon/output2/file_type=hdf5", "parthenon/output2/dt=0.1",
        "parthenon/output2/variables=advected"));
    Process first = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(dir.resolve("first.log").toFile()).start();
    try {
      awaitPaused(first, out);
      assertTrue(Files.exists(out.resolve(OutputDirectoryLock.NAME)));
      ProcessResult second = MetopeProcess.run(dir, "-i", MetopeProcess.input(DECK).toString(),
          "-d", out.toString());
      assertEquals(2, second.exitCode(), second.output());
      assertEquals(List.of("-d " + out + ": the output directory is in use by pid " + first.pid()
          + " on host " + host() + " (lock file " + out.resolve(OutputDirectoryLock.NAME)
          + "): expected a directory no other run writes into: wait for that run to end, or"
          + " choose another -d"), second.output().lines().toList());

      // The launcher's check before the ranks of -np 2 start says the same.
      List<String> check = javaCommand();
      check.set(check.size() - 1, "org.metope.app.LaunchCheck");
      check.addAll(List.of("2", "-i", MetopeProcess.input(DECK).toString(), "-d", out.toString()));
      ProcessResult checked = ProcessResult.run(dir, 60, java.util.Map.of(),
          check.toArray(new String[0]));
      assertEquals(2, checked.exitCode(), checked.output());
      assertEquals(second.output().strip(), checked.output().strip());

      first.destroy(); // SIGTERM
      first.waitFor();
      assertEquals(List.of(), temporaries(out), "temporary files after SIGTERM");
      assertFalse(Files.exists(out.resolve(OutputDirectoryLock.NAME)), "lock after SIGTERM");

      ProcessResult third = MetopeProcess.run(dir, "-i", MetopeProcess.input(DECK).toString(),
          "-d", out.toString());
      assertEquals(0, third.exitCode(), third.output());
      assertFalse(Files.exists(out.resolve(OutputDirectoryLock.NAME)), "lock after the run");
    } finally {
      first.destroyForcibly();
    }
  }

  /**
   * Locks no live process holds: one naming a process that has ended, one naming this JVM's pid
   * with another start time (a reused pid). Each is taken over and the run ends normally.
   */
  @Test
  void givenAStaleLock_thenItIsTakenOver() throws Exception {
    Process ended = new ProcessBuilder("true").start();
    ended.waitFor();
    long me = ProcessHandle.current().pid();
    String[] stale = {ended.pid() + " " + host() + " 1", me + " " + host() + " 1"};
    for (int n = 0; n < stale.length; n++) {
      Path out = Files.createDirectory(dir.resolve("stale" + n));
      Files.writeString(out.resolve(OutputDirectoryLock.NAME), stale[n] + "\n");
      ProcessResult r = MetopeProcess.run(dir, "-i", MetopeProcess.input(DECK).toString(), "-d",
          out.toString());
      assertEquals(0, r.exitCode(), stale[n] + ": " + r.output());
      assertFalse(Files.exists(out.resolve(OutputDirectoryLock.NAME)), stale[n]);
    }
  }

  /**
   * A history file planted as a symbolic link to a file outside {@code -d}: the run is refused in
   * one line and the target is unchanged (before: the history was appended to it).
   */
  @Test
  void givenAHistoryFileThatIsALink_thenTheRunRefusesToWriteThroughIt() throws Exception {
    Path out = Files.createDirectory(dir.resolve("linked"));
    Path outside = Files.writeString(dir.resolve("outside.txt"), "precious\n");
    Path history = out.resolve("advection_1d.out1.hst");
    Files.createSymbolicLink(history, outside);
    ProcessResult r = MetopeProcess.run(dir, "-i", MetopeProcess.input(DECK).toString(), "-d",
        out.toString());
    assertEquals(1, r.exitCode(), r.output());
    assertEquals(List.of("metope: cannot write the history file " + history + " (it is a"
        + " symbolic link; outputs are written only into the output directory, never through a"
        + " link)"), MetopeProcess.errorLines(r), r.output());
    assertFalse(MetopeProcess.hasStackTrace(r.output()), r.output());
    assertEquals("precious\n", Files.readString(outside));
  }

  private static String host() throws Exception {
    return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
  }

  /** Waits until the writer announces its pause (a file {@code *.paused}) or the run ends. */
  private static void awaitPaused(Process p, Path out) throws Exception {
    String stalled = ProgressDeadline.until(List.of(p.toHandle()), Duration.ofSeconds(60),
        () -> !p.isAlive() || paused(out));
    if (!paused(out)) {
      fail("the run did not pause in its output (" + (stalled == null ? "it ended" : stalled)
          + ")");
    }
  }

  private static boolean paused(Path out) {
    try (Stream<Path> files = Files.list(out)) {
      return files.anyMatch(f -> f.getFileName().toString().endsWith(PauseBeforeRename.MARKER));
    } catch (java.io.IOException e) {
      return false;
    }
  }

  private static List<Path> temporaries(Path out) throws Exception {
    try (Stream<Path> files = Files.list(out)) {
      return files.filter(AtomicFile::isTemporary).toList();
    }
  }
}
