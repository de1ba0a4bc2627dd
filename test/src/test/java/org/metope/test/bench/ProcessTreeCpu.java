package org.metope.test.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.metope.comm.PeakResidentMemory;

/**
 * The CPU time (user + system, every thread) of a process and all its descendants, for a figure
 * that does not depend on what else the machine runs: a daemon thread reads {@code
 * /proc/PID/stat} of the whole tree every {@value #PERIOD_MILLIS} ms and keeps the last value per
 * process, so processes that end during the run still count (up to their last sample). The same
 * pass reads the JIT compiler threads of every JVM in the tree ({@code /proc/PID/task/TID/stat},
 * thread names {@code C1 CompilerThre...} and {@code C2 CompilerThre...}), whose share says how
 * much of a short run is warm-up, and the peak resident memory of each process ({@code VmHWM} of
 * {@code /proc/PID/status}), whose largest is the memory one rank needs. Linux only; elsewhere the
 * figures are NaN.
 */
final class ProcessTreeCpu implements AutoCloseable {
  private static final long PERIOD_MILLIS = 20;
  /** Clock ticks per second of {@code /proc/PID/stat}: 100 on every Linux we run on. */
  private static final double TICKS_PER_SECOND = 100;

  /**
   * CPU seconds of the tree at one moment: all of it, and its JIT compiler threads'; and the
   * largest peak resident memory of one of its processes so far, in MB.
   */
  record Sample(double cpuSeconds, double compilerSeconds, double peakRssMb) {
    /** What was spent between {@code earlier} and this sample (the memory peak is this one's). */
    Sample since(Sample earlier) {
      return new Sample(cpuSeconds - earlier.cpuSeconds, compilerSeconds - earlier.compilerSeconds,
          peakRssMb);
    }

    /** The compilers' part of the CPU time, 0 to 1 (NaN without CPU time). */
    double compilerShare() {
      return cpuSeconds > 0 ? compilerSeconds / cpuSeconds : Double.NaN;
    }
  }

  private final ProcessHandle root;
  private final Map<Long, Long> ticks = new HashMap<>();
  /** Ticks of each compiler thread, by thread id (unique across the tree's processes). */
  private final Map<Long, Long> compilerTicks = new HashMap<>();
  /** The largest {@code VmHWM} (kB) seen of any process of the tree. */
  private long peakRssKb;
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
    Path proc = Path.of("/proc", Long.toString(pid));
    Long t = ticksOf(proc.resolve("stat"));
    if (t == null) {
      return; // the process ended between listing and reading: its last sample stands
    }
    ticks.put(pid, t);
    peakRssKb = Math.max(peakRssKb, PeakResidentMemory.kilobytesOf(proc.resolve("status")));
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(proc.resolve("task"))) {
      for (Path task : tasks) {
        String name = threadName(task.resolve("stat"));
        if (name != null && isCompilerThread(name)) {
          Long c = ticksOf(task.resolve("stat"));
          if (c != null) {
            compilerTicks.put(Long.parseLong(task.getFileName().toString()), c);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // The process ended while its threads were listed: their last samples stand.
    }
  }

  /** Whether a thread named {@code name} (as {@code /proc} shows it) is a HotSpot JIT compiler. */
  static boolean isCompilerThread(String name) {
    return name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre");
  }

  /** utime + stime of a {@code stat} file, or null when it cannot be read. */
  private static Long ticksOf(Path stat) {
    try {
      String line = Files.readString(stat);
      // Fields after the command name (which may hold spaces) in parentheses: utime and stime are
      // fields 14 and 15 of the line, 12 and 13 after the name.
      String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static String threadName(Path stat) {
    try {
      String line = Files.readString(stat);
      return line.substring(line.indexOf('(') + 1, line.lastIndexOf(')'));
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The tree's CPU time so far (sampled now); NaN without {@code /proc}. */
  synchronized Sample now() {
    if (!Files.isDirectory(Path.of("/proc/self"))) {
      return new Sample(Double.NaN, Double.NaN, Double.NaN);
    }
    sample();
    return new Sample(sum(ticks) / TICKS_PER_SECOND, sum(compilerTicks) / TICKS_PER_SECOND,
        peakRssKb / 1024.0);
  }

  private static long sum(Map<Long, Long> values) {
    long s = 0;
    for (long v : values.values()) {
      s += v;
    }
    return s;
  }

  /** Stops sampling and returns the tree's CPU time (NaN without {@code /proc}). */
  Sample stop() {
    stop = true;
    poller.interrupt();
    try {
      poller.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (this) {
      if (!Files.isDirectory(Path.of("/proc/self"))) {
        return new Sample(Double.NaN, Double.NaN, Double.NaN);
      }
      return new Sample(sum(ticks) / TICKS_PER_SECOND, sum(compilerTicks) / TICKS_PER_SECOND,
          peakRssKb / 1024.0);
    }
  }

  /** Stops sampling and returns the CPU seconds of the tree (NaN without {@code /proc}). */
  double stopSeconds() {
    return stop().cpuSeconds();
  }

  @Override
  public void close() {
    stop();
  }
}
