package org.metope.examples.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * Ends this JVM when the launcher process that started the run is gone: first every process this
 * JVM started (an MPJ daemon's rank processes), then the run directory, then the JVM itself with
 * exit code {@value #EXIT_CODE}. Polls every {@value #POLL_MILLIS} ms. A launcher that has become a
 * zombie (ended, not yet reaped by its parent) counts as gone, and so does a new process that
 * reuses its pid (the handle remembers the start time).
 *
 * <p>The clean-up must finish even when the JVM ends on its own meanwhile: MPJ's multicore starter
 * returns from {@code main} as soon as the rank JVM the watchdog ended is gone, and a JVM whose
 * last ordinary thread ends does not wait for daemon threads such as this one, so a removal cut
 * short left part of the run directory behind. A shutdown hook therefore runs the same clean-up
 * (or waits for the one under way) whenever the JVM exits after its launcher.
 */
final class LauncherWatchdog {
  /** The exit code of a JVM ended because its launcher vanished (as for SIGKILL: 128 + 9). */
  static final int EXIT_CODE = 137;
  private static final long POLL_MILLIS = 250;

  /** Guards {@link #cleanedUp}: the watchdog and the shutdown hook may both clean up. */
  private static final Object CLEAN_UP_LOCK = new Object();
  private static boolean cleanedUp;

  private LauncherWatchdog() {}

  /** Starts the watchdog thread; ends this JVM at once when {@code launcherPid} is already gone. */
  static void start(long launcherPid, Path runDir) {
    ProcessHandle launcher = ProcessHandle.of(launcherPid).orElse(null);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      if (!alive(launcher)) {
        cleanUp(runDir);
      }
    }, "metope-launcher-cleanup"));
    Thread watchdog = new Thread(() -> watch(launcher, runDir), "metope-launcher-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
  }

  private static void watch(ProcessHandle launcher, Path runDir) {
    while (alive(launcher)) {
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
    cleanUp(runDir);
    Runtime.getRuntime().halt(EXIT_CODE);
  }

  /**
   * Ends every process this JVM started, then removes the run directory; once per JVM, and a
   * second caller waits until the first is done.
   */
  private static void cleanUp(Path runDir) {
    synchronized (CLEAN_UP_LOCK) {
      if (cleanedUp) {
        return;
      }
      endChildren();
      removeRunDirectory(runDir);
      cleanedUp = true;
    }
  }

  private static void endChildren() {
    List<ProcessHandle> children = ProcessHandle.current().descendants().toList();
    children.forEach(ProcessHandle::destroyForcibly);
    for (ProcessHandle child : children) {
      try {
        child.onExit().get(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      } catch (ExecutionException | TimeoutException e) {
        // Gone or stuck: removal after this is best effort either way.
      }
    }
  }

  static boolean alive(ProcessHandle process) {
    return process != null && process.isAlive() && !zombie(process.pid());
  }

  /** Whether Linux reports {@code pid} as a zombie (state Z in /proc/PID/stat). */
  private static boolean zombie(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      int end = stat.lastIndexOf(')');
      return end > 0 && end + 2 < stat.length() && stat.charAt(end + 2) == 'Z';
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /**
   * Deletes {@code dir} and everything in it, as far as it can. Other JVMs of the run race for it
   * and their ranks may write a status file into it until they halt too, so a pass that leaves
   * the directory behind is repeated until it stays absent, for up to about three seconds.
   */
  static void removeRunDirectory(Path dir) {
    if (dir == null) {
      return;
    }
    // Done once the directory has stayed absent for several checks in a row.
    int absent = 0;
    for (int pass = 0; pass < 60 && absent < 5; pass++) {
      if (Files.exists(dir)) {
        absent = 0;
        removeOnce(dir);
      } else {
        absent++;
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private static void removeOnce(Path dir) {
    try (Stream<Path> all = Files.walk(dir)) {
      all.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          // Another JVM of the run may remove it at the same time, or a rank still writes.
        }
      });
    } catch (IOException | RuntimeException e) {
      // Best effort: the launcher is gone and nobody else will report.
    }
  }
}
