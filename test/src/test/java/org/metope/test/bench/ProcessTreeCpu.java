package org.metope.test.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The CPU time (user + system, every thread) of a process and all its descendants, for a figure
 * that does not depend on what else the machine runs: a daemon thread reads {@code
 * /proc/PID/stat} of the whole tree every {@value #PERIOD_MILLIS} ms and keeps the last value per
 * process, so processes that end during the run still count (up to their last sample). Linux
 * only; elsewhere the total is NaN.
 */
final class ProcessTreeCpu implements AutoCloseable {
  private static final long PERIOD_MILLIS = 20;
  /** Clock ticks per second of {@code /proc/PID/stat}: 100 on every Linux we run on. */
  private static final double TICKS_PER_SECOND = 100;

  private final ProcessHandle root;
  private final Map<Long, Long> ticks = new HashMap<>();
  private final Thread poller;
  private volatile boolean stop;

  /** Starts sampling {@code process} and its descendants. */
  ProcessTreeCpu(Process process) {
    this.root = process.toHandle();
    this.poller = new Thread(this::pollUntilStopped, "cpu-poller");
    poller.setDaemon(true);
    poller.start();
  }

  private void pollUntilStopped() {
    while (!stop) {
      sample();
      try {
        Thread.sleep(PERIOD_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private synchronized void sample() {
    record(root.pid());
    root.descendants().forEach(h -> record(h.pid()));
  }

  private void record(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // Fields after the command name (which may hold spaces) in parentheses: utime and stime are
      // fields 14 and 15 of the line, 12 and 13 after the name.
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      ticks.put(pid, Long.parseLong(fields[11]) + Long.parseLong(fields[12]));
    } catch (IOException | RuntimeException e) {
      // The process ended between listing and reading: its last sample stands.
    }
  }

  /** Stops sampling and returns the CPU seconds of the tree (NaN without {@code /proc}). */
  double stopSeconds() {
    stop = true;
    poller.interrupt();
    try {
      poller.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (this) {
      if (!Files.isDirectory(Path.of("/proc/self"))) {
        return Double.NaN;
      }
      long sum = 0;
      for (long t : ticks.values()) {
        sum += t;
      }
      return sum / TICKS_PER_SECOND;
    }
  }

  @Override
  public void close() {
    stopSeconds();
  }
}
