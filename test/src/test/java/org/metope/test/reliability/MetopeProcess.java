package org.metope.test.reliability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.metope.test.ProcessResult;

/**
 * Runs the {@code metope} Java entry as a real child JVM with this build's class path, as the
 * launcher does, and judges what a user sees: one clean line for a mistake, never a stack trace.
 */
final class MetopeProcess {
  private MetopeProcess() {}

  /** The repository root: the first ancestor holding the launcher and {@code inputs/}. */
  static Path root() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !(Files.isExecutable(dir.resolve("metope"))
        && Files.isDirectory(dir.resolve("inputs")))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no repository root above " + Path.of("").toAbsolutePath());
    }
    return dir;
  }

  /** {@code inputs/NAME}. */
  static Path input(String name) {
    return root().resolve("inputs").resolve(name);
  }

  /** Runs {@code metope args...} in {@code dir} with a 256 MiB heap, killed after 60 s. */
  static ProcessResult run(Path dir, String... args) throws IOException, InterruptedException {
    return runWithHeap(dir, "256m", 60, args);
  }

  /** Runs {@code metope args...} in {@code dir} with heap {@code xmx}, killed after the limit. */
  static ProcessResult runWithHeap(Path dir, String xmx, long limitSeconds, String... args)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx" + xmx);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add("org.metope.app.Metope");
    cmd.addAll(List.of(args));
    return ProcessResult.run(dir, limitSeconds, Map.of(), cmd.toArray(new String[0]));
  }

  /** Runs {@code metope plot args...} in {@code dir} with a 256 MiB heap, headless. */
  static ProcessResult plot(Path dir, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-Djava.awt.headless=true", "-cp", System.getProperty("java.class.path"),
        "org.metope.outputs.plot.PlotCommand"));
    cmd.addAll(List.of(args));
    return ProcessResult.run(dir, 60, Map.of(), cmd.toArray(new String[0]));
  }

  /** The lines of the output that start with {@code warning: }. */
  static List<String> warnings(ProcessResult r) {
    return r.output().lines().filter(l -> l.startsWith("warning: ")).toList();
  }

  /** Whether the output shows a Java stack trace or an uncaught exception. */
  static boolean hasStackTrace(String output) {
    return output.contains("\tat ") || output.contains("Exception in thread")
        || output.matches("(?s).*\\b[a-z]+(\\.[a-z0-9_]+)+\\.[A-Z]\\w*(Exception|Error)\\b.*");
  }

  /**
   * The error lines of a run's output: those the launcher prints for a failure ({@code metope:
   * ...}) or a deck error ({@code WHERE: WHAT: expected ...}); warnings, status lines and the
   * set-up report are not among them. A clean rejection has exactly one.
   */
  static List<String> errorLines(ProcessResult r) {
    List<String> lines = new ArrayList<>();
    for (String line : r.output().lines().toList()) {
      if (!line.startsWith("warning: ")
          && (line.startsWith("metope: ") || line.contains(": expected "))) {
        lines.add(line);
      }
    }
    return lines;
  }
}
