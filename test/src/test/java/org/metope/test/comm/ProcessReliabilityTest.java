package org.metope.test.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.test.ProcessResult;
import org.metope.comm.ProgressDeadline;

/**
 * The launcher owns the processes of an MPJ run: whatever ends it (here {@code kill -9}, which it
 * cannot trap), the MPJ daemon, mpjrun and every rank end within seconds, nothing of the run is
 * left listening, and its run directory is removed; while it runs, it listens on the loopback
 * address only. Failures reach the launcher's standard error once: a deck mistake before any rank
 * starts, a rank's error as one line, and a collective stalled by a missing rank within the stall
 * timeout.
 */
class ProcessReliabilityTest {
  /** Limits measured by progress ({@link ProgressDeadline}): a busy machine stretches them. */
  private static final Duration START_LIMIT = Duration.ofSeconds(60);
  private static final Duration CLEANUP_LIMIT = Duration.ofSeconds(30);

  @TempDir Path tmp;

  @BeforeAll
  static void mpjIsInstalled() {
    LauncherRun.requireMpj();
  }

  @Test
  void givenANiodevRunWhoseLauncherIsKilled_thenNothingOfTheRunRemains() throws Exception {
    killedLauncherLeavesNothing("niodev");
  }

  @Test
  void givenAMulticoreRunWhoseLauncherIsKilled_thenNothingOfTheRunRemains() throws Exception {
    killedLauncherLeavesNothing("multicore");
  }

  /**
   * A trapped signal (TERM, INT, HUP) while the launcher waits for its ranks: it says so in one
   * line, exits with 128 + the signal's number, and leaves nothing. Before, the trap exited inside
   * the launcher's timed read, and bash aborted ("longjmp causes uninitialized stack frame", exit
   * 134) with the multicore run directory left in the temporary directory.
   */
  @Test
  void givenSignalsToTheLauncher_thenItStopsTheRunAndLeavesNothing() throws Exception {
    signalledLauncherLeavesNothing("multicore", "TERM", 143);
    signalledLauncherLeavesNothing("niodev", "TERM", 143);
    signalledLauncherLeavesNothing("multicore", "INT", 130);
    signalledLauncherLeavesNothing("multicore", "HUP", 129);
  }

  private void signalledLauncherLeavesNothing(String device, String signal, int code)
      throws Exception {
    String output = launcherEndedLeavesNothing(device, launcher -> {
      ProcessResult kill = ProcessResult.run(tmp, 30, Map.of(), "kill", "-" + signal,
          Long.toString(launcher.pid()));
      assertEquals(0, kill.exitCode(), kill.output());
      String hung = ProgressDeadline.await(launcher.toHandle(), CLEANUP_LIMIT);
      assertNull(hung, () -> device + " SIG" + signal + ": the launcher did not end (" + hung
          + "); its processes: " + states(launcher.toHandle()));
      // Not exitValue(): the handle may see it gone before the Process has reaped it.
      assertEquals(code, launcher.waitFor(), device + " SIG" + signal);
    });
    // The launcher's last word; a rank's output already on its way may still follow it.
    List<String> launcherLines = output.lines().filter(l -> l.startsWith("metope: ")).toList();
    assertEquals("metope: interrupted (SIG" + signal + "); stopping the MPJ run",
        launcherLines.isEmpty() ? "" : launcherLines.get(launcherLines.size() - 1),
        device + " SIG" + signal + ": " + output);
    assertFalse(output.contains("longjmp"), output);
  }

  private void killedLauncherLeavesNothing(String device) throws Exception {
    launcherEndedLeavesNothing(device, launcher -> launcher.destroyForcibly().waitFor());
  }

  /** How a test ends the launcher. */
  @FunctionalInterface
  private interface Ending {
    void end(Process launcher) throws Exception;
  }

  /** Starts a long run, ends its launcher with {@code ending}, checks nothing remains; its output. */
  private String launcherEndedLeavesNothing(String device, Ending ending) throws Exception {
    Path tmp = Files.createTempDirectory(this.tmp, device);
    Path log = tmp.resolve("launcher.log");
    // Through env --default-signal: a suite started in the background or under nohup hands its
    // children INT and HUP ignored, and bash cannot trap a signal ignored on entry, so the
    // launcher would (rightly) not react to them. A user's shell starts it with the defaults.
    ProcessBuilder pb = new ProcessBuilder("env", "--default-signal=INT,HUP,TERM",
        LauncherRun.root().resolve("metope").toString(), "-np",
        "2", "--dev", device, "-i", LauncherRun.root().resolve("inputs/advection_2d.in").toString(),
        "parthenon/time/tlim=1000", "parthenon/time/nlim=100000000", "-d",
        tmp.resolve("out").toString())
        .redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().put("METOPE_SKIP_BUILD", "1");
    pb.environment().put("TMPDIR", tmp.toString());
    Process launcher = pb.start();
    try {
      Path runDir = awaitRanksStarted(tmp, launcher, log);
      List<Long> pids = processesOf(runDir);
      assertTrue(pids.size() >= (device.equals("niodev") ? 3 : 1),
          "processes of the run: " + pids);
      List<String> listening = listeningSockets(pids);
      if (device.equals("niodev")) {
        assertFalse(listening.isEmpty(), "the MPJ daemon listens");
      }
      for (String socket : listening) {
        String local = socket.trim().split("\\s+")[3];
        assertTrue(local.matches("(127(\\.\\d+){3}|\\[::ffff:127(\\.\\d+){3}]|\\[::1]):\\d+"),
            "listens on loopback only: " + socket);
      }

      ending.end(launcher);
      List<ProcessHandle> run = new ArrayList<>();
      for (long pid : pids) {
        ProcessHandle.of(pid).ifPresent(run::add);
      }
      ProgressDeadline.until(run, CLEANUP_LIMIT, () -> processesOf(runDir).isEmpty()
          && !anyAlive(pids) && !Files.exists(runDir));
      assertEquals(List.of(), processesOf(runDir), "processes of the run after the kill");
      assertFalse(anyAlive(pids), "a process of the run outlived its launcher: " + pids);
      assertEquals(List.of(), listeningSockets(pids), "sockets of the run after the kill");
      assertFalse(Files.exists(runDir), "the run directory " + runDir + " is removed; left: "
          + leftIn(runDir));
      return Files.readString(log);
    } finally {
      launcher.descendants().forEach(ProcessHandle::destroyForcibly);
      launcher.destroyForcibly();
      for (long pid : processesNaming(tmp.toString())) {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  /** What is left under {@code dir}, for the failure message. */
  private static List<String> leftIn(Path dir) {
    try (Stream<Path> all = Files.walk(dir)) {
      return all.map(p -> dir.relativize(p).toString()).sorted().toList();
    } catch (IOException | RuntimeException e) {
      return List.of("<" + e + ">");
    }
  }

  /** The run directory once both ranks have written their pid files. */
  private static Path awaitRanksStarted(Path tmp, Process launcher, Path log) throws Exception {
    Path[] started = new Path[1];
    String stalled = ProgressDeadline.until(List.of(launcher.toHandle()), START_LIMIT,
        () -> !launcher.isAlive() || (started[0] = runDirectoryWithRanks(tmp)) != null);
    if (started[0] == null) {
      fail("the ranks did not start (" + (stalled == null ? "the launcher ended" : stalled)
          + "): " + Files.readString(log));
    }
    return started[0];
  }

  /** The run directory under {@code tmp} once both ranks have written their pid files, or null. */
  private static Path runDirectoryWithRanks(Path tmp) {
    try (Stream<Path> dirs = Files.list(tmp)) {
      for (Path dir : dirs.filter(d -> d.getFileName().toString().startsWith("metope-mpj."))
          .toList()) {
        if (Files.exists(dir.resolve("status/rank-0.pid"))
            && Files.exists(dir.resolve("status/rank-1.pid"))) {
          return dir;
        }
      }
    } catch (IOException e) {
      // Listed again at the next poll.
    }
    return null;
  }

  /**
   * {@code root} and its descendants, each as pid, state and kernel wait channel (from /proc)
   * and command line: what a launcher that does not end is waiting for.
   */
  private static List<String> states(ProcessHandle root) {
    List<String> states = new ArrayList<>();
    Stream.concat(Stream.of(root), root.descendants()).forEach(p -> {
      Path proc = Path.of("/proc", Long.toString(p.pid()));
      String stat = read(proc.resolve("stat"));
      int close = stat.lastIndexOf(')');
      String state = close < 0 || close + 2 >= stat.length() ? "?" : stat.substring(close + 2,
          close + 3);
      states.add(p.pid() + " " + state + " " + read(proc.resolve("wchan")) + " "
          + p.info().commandLine().orElse("?"));
    });
    return states;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file).strip();
    } catch (IOException | RuntimeException e) {
      return "?";
    }
  }

  /** Processes whose command line names {@code runDir} (daemon, mpjrun and ranks do). */
  private static List<Long> processesOf(Path runDir) {
    return processesNaming(runDir.toString());
  }

  private static List<Long> processesNaming(String text) {
    List<Long> pids = new ArrayList<>();
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path proc : procs.toList()) {
        String name = proc.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          String cmdline = new String(Files.readAllBytes(proc.resolve("cmdline")),
              StandardCharsets.UTF_8);
          if (cmdline.contains(text) && Long.parseLong(name) != ProcessHandle.current().pid()) {
            pids.add(Long.parseLong(name));
          }
        } catch (IOException e) {
          // The process ended while we looked.
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot list /proc", e);
    }
    return pids;
  }

  private static boolean anyAlive(List<Long> pids) {
    return pids.stream().anyMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive)
        .orElse(false));
  }

  /** The {@code ss -ltnp} lines of TCP sockets listened on by any of {@code pids}. */
  private static List<String> listeningSockets(List<Long> pids) throws Exception {
    ProcessResult ss = ProcessResult.run(Path.of("."), 30, Map.of(), "ss", "-ltnpH");
    List<String> lines = new ArrayList<>();
    for (String line : ss.output().lines().toList()) {
      for (long pid : pids) {
        if (line.contains("pid=" + pid + ",")) {
          lines.add(line);
        }
      }
    }
    return lines;
  }

  /**
   * The launcher's settings are checked before anything starts: a variable that is not a number
   * of seconds (before: bash's "unbound variable" or "integer expression expected" mid-run), and a
   * {@code -cp} entry that is neither a jar nor a directory (before: ignored on one rank, and every
   * rank of {@code -np 2} ended without reporting).
   */
  @Test
  void givenBadLauncherSettings_thenOneLineBeforeAnyRankStarts() throws Exception {
    String deck = LauncherRun.root().resolve("inputs/advection_2d.in").toString();
    for (String name : List.of("METOPE_MPJ_STALL", "METOPE_MPJ_GRACE", "METOPE_MPJ_TIMEOUT")) {
      for (String value : List.of("abc", "-1", "1.5")) {
        LauncherRun r = LauncherRun.run(60, Map.of(name, value), "-np", "2", "-i", deck,
            "parthenon/time/nlim=1", "-d", tmp.toString());
        assertEquals(2, r.exitCode(), r.output());
        assertEquals("metope: " + name + " = \"" + value + "\": expected a whole number of"
            + " seconds from 0 to 999999999", r.output().strip());
      }
    }
    Path notAJar = Files.writeString(tmp.resolve("fake.jar"), "not a zip file");
    for (List<String> ranks : List.of(List.<String>of(), List.of("-np", "2"))) {
      List<String> args = new ArrayList<>(ranks);
      args.addAll(List.of("-cp", notAJar.toString(), "-i", deck, "parthenon/time/nlim=1", "-d",
          tmp.toString()));
      LauncherRun r = LauncherRun.run(60, Map.of(), args.toArray(new String[0]));
      assertEquals(2, r.exitCode(), r.output());
      assertEquals("metope: -cp: " + notAJar + " is neither a jar (a zip file) nor a directory"
          + " of classes", r.output().strip());
    }
  }

  @Test
  void givenMoreRanksThanBlocks_thenOneLineAndNoRankStarts() throws Exception {
    LauncherRun r = LauncherRun.run(60, Map.of(), "-np", "64", "-i",
        LauncherRun.root().resolve("inputs/advection_2d.in").toString(),
        "parthenon/meshblock/nx1=64", "parthenon/meshblock/nx2=64");
    assertEquals(2, r.exitCode(), r.output());
    assertEquals("metope: -np 64: the mesh of " + LauncherRun.root().resolve(
        "inputs/advection_2d.in") + " has 4 MeshBlocks, fewer than the 64 ranks (every rank needs"
        + " at least one)", r.output().strip());
  }

  @Test
  void givenADeckValueEveryRankRejects_thenTheLineReachesTheLauncherOnce() throws Exception {
    LauncherRun r = LauncherRun.run(60, Map.of(), "-np", "3", "-i",
        LauncherRun.root().resolve("inputs/advection_2d.in").toString(), "Advection/cfl=abc",
        "parthenon/time/nlim=1");
    assertEquals(2, r.exitCode(), r.output());
    String line = "command line: Advection/cfl = \"abc\": expected a finite real number";
    assertEquals(1, occurrences(r.output(), line), r.output());
    assertTrue(r.output().contains("metope: rank ") && r.output().contains(" failed (exit 2): "
        + line), r.output());
  }

  @Test
  void givenARankMissingFromACollectiveOnNiodev_thenTheStallTimeoutEndsTheRun()
      throws Exception {
    stalledCollectiveEndsTheRun("niodev", Map.of());
  }

  @Test
  void givenARankMissingFromACollectiveOnMulticore_thenTheStallTimeoutEndsTheRun()
      throws Exception {
    stalledCollectiveEndsTheRun("multicore", Map.of());
  }

  @Test
  void givenARankMissingFromACollectiveOnMulticoreWithMpjMessages_thenTheSameLineEndsTheRun()
      throws Exception {
    stalledCollectiveEndsTheRun("multicore", MpjMulticoreTest.MPJ_MESSAGES);
  }

  private static void stalledCollectiveEndsTheRun(String device, Map<String, String> env)
      throws Exception {
    LauncherRun r = LauncherRun.run(MpjFailureScenarios.FAILURE_LIMIT_SECONDS + 30, env,
        "-np", "2", "--dev", device, "--class", LauncherRun.SELF_TEST,
        "--stall-collective-on-rank", "1");
    assertEquals(1, r.exitCode(), r.output());
    assertTrue(r.output().contains("metope: rank 0 failed (exit 1): run aborted by rank 0: rank 0"
        + " waited 2."), r.output());
    assertEquals(1, occurrences(r.output(), " s in a collective for allgather, receiving from rank"
        + " 1 (the stall timeout, recv_bdry_buf_timeout_sec)"), r.output());
  }

  private static int occurrences(String text, String part) {
    int n = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      n++;
    }
    return n;
  }
}
