package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.mesh.input.InputError;

class OutputDirectoryLockTest {
  private static final int RACES = 30;

  @TempDir Path dir;

  /** A lock file naming a process of this host that has ended. */
  private void plantStaleLock() throws Exception {
    Process ended = new ProcessBuilder("true").start();
    ended.waitFor();
    String host = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    Files.writeString(dir.resolve(OutputDirectoryLock.NAME), ended.pid() + " " + host + " 1\n");
  }

  /**
   * Two processes take one stale lock at the same instant, {@value #RACES} times (each waits
   * {@link LockTaker#WINDOW_MILLIS} between opening the lock file and asking for the system lock,
   * so that they meet there): exactly one wins each time, and the other is refused naming the
   * winner or a run starting now. Negative control: the takeover by looking, removing and
   * creating (the lock before it used the system lock), with the same window between looking and
   * removing, lets both win at least once.
   */
  @Test
  void givenTwoProcessesTakingOneStaleLockAtOnce_thenExactlyOneWinsEveryTime() throws Exception {
    List<Process> takers = new ArrayList<>();
    try {
      for (int t = 0; t < 2; t++) {
        takers.add(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "-cp", System.getProperty("java.class.path"), LockTaker.class.getName())
            .redirectError(ProcessBuilder.Redirect.INHERIT).start());
      }
      List<BufferedReader> answers = new ArrayList<>();
      for (Process p : takers) {
        answers.add(new BufferedReader(new InputStreamReader(p.getInputStream(),
            StandardCharsets.UTF_8)));
      }
      int naiveDoubleWins = 0;
      for (int race = 0; race < RACES; race++) {
        plantStaleLock();
        List<String> said = tell(takers, answers, "take " + dir);
        assertEquals(1, said.stream().filter("won"::equals).count(), "race " + race + ": " + said);
        for (String s : said) {
          assertTrue(s.equals("won") || s.startsWith("refused -d " + dir
              + ": the output directory is in use by "), s);
        }
        tell(takers, answers, "release");
        assertFalse(Files.exists(dir.resolve(OutputDirectoryLock.NAME)), "released");

        plantStaleLock();
        List<String> naive = tell(takers, answers, "naive " + dir);
        if (naive.stream().filter("won"::equals).count() == 2) {
          naiveDoubleWins++;
        }
        tell(takers, answers, "release");
        Files.deleteIfExists(dir.resolve(OutputDirectoryLock.NAME));
      }
      assertTrue(naiveDoubleWins > 0, "negative control: the naive takeover let both win in "
          + naiveDoubleWins + " of " + RACES + " races");
    } finally {
      for (Process p : takers) {
        p.destroyForcibly();
      }
    }
  }

  /** Sends {@code line} to every taker at once; their answers, in order. */
  private static List<String> tell(List<Process> takers, List<BufferedReader> answers,
      String line) throws IOException {
    for (Process p : takers) {
      Writer w = new java.io.OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
      w.write(line + "\n");
      w.flush();
    }
    List<String> said = new ArrayList<>();
    for (BufferedReader r : answers) {
      String answer = r.readLine();
      assertTrue(answer != null, "a taker ended");
      said.add(answer);
    }
    return said;
  }

  /**
   * In one JVM: a second take of a held lock is refused naming this process (a second channel
   * would drop the first's system lock when closed), the launcher's check refuses too, and once
   * closed the lock file is gone and the lock can be taken again; a stale lock is taken over.
   */
  @Test
  void givenALockHeldInThisJvm_thenASecondTakeIsRefusedUntilItIsClosed() throws Exception {
    long me = ProcessHandle.current().pid();
    try (OutputDirectoryLock held = OutputDirectoryLock.acquire(dir)) {
      String content = Files.readString(dir.resolve(OutputDirectoryLock.NAME));
      assertTrue(content.startsWith(me + " "), content);
      InputError e = assertThrows(InputError.class, () -> OutputDirectoryLock.acquire(dir));
      assertTrue(e.getMessage().contains("in use by pid " + me + " on host "), e.getMessage());
      assertThrows(InputError.class, () -> OutputDirectoryLock.requireFree(dir));
    }
    assertFalse(Files.exists(dir.resolve(OutputDirectoryLock.NAME)));
    plantStaleLock();
    OutputDirectoryLock.requireFree(dir);
    try (OutputDirectoryLock taken = OutputDirectoryLock.acquire(dir)) {
      assertTrue(Files.readString(dir.resolve(OutputDirectoryLock.NAME)).startsWith(me + " "));
    }
  }

  /**
   * A lock file naming a run killed under a parent that does not reap it (a zombie: its system
   * lock is gone, Java still counts it alive) is taken over; control: the same lock naming that
   * parent, which runs, is refused.
   */
  @Test
  void givenALockOfAnUnreapedProcess_thenItIsTakenOverAndALiveOnesIsNot() throws Exception {
    Process parent = new ProcessBuilder("sh", "-c", "sleep 0 & echo $!; exec sleep 30").start();
    try {
      long child = Long.parseLong(new BufferedReader(new InputStreamReader(
          parent.getInputStream(), StandardCharsets.UTF_8)).readLine().strip());
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (!OutputDirectoryLock.ended(child) && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      ProcessHandle zombie = ProcessHandle.of(child).orElseThrow();
      assertTrue(zombie.isAlive() && OutputDirectoryLock.ended(child));
      Path file = dir.resolve(OutputDirectoryLock.NAME);
      Files.writeString(file, OutputDirectoryLock.describe(parent.toHandle()));
      assertThrows(InputError.class, () -> OutputDirectoryLock.acquire(dir));
      Files.writeString(file, OutputDirectoryLock.describe(zombie));
      OutputDirectoryLock.requireFree(dir);
      OutputDirectoryLock.acquire(dir).close();
    } finally {
      parent.destroyForcibly().waitFor();
    }
  }
}
