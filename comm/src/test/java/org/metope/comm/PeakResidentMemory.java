package org.metope.comm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The peak resident memory of a process ({@code VmHWM} of its {@code /proc/PID/status}), which the
 * benchmarks print beside their rates. The peak only grows: a row measured after others in the
 * same JVM shows the largest so far.
 */
public final class PeakResidentMemory {
  private static final Path SELF = Path.of("/proc/self/status");

  private PeakResidentMemory() {}

  /** {@code VmHWM} of a {@code status} file in kB, or 0 when it cannot be read. */
  public static long kilobytesOf(Path status) {
    try {
      for (String line : Files.readAllLines(status)) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.substring(6).trim().split("\\s+")[0]);
        }
      }
    } catch (IOException | RuntimeException e) {
      // no such process any more, or no /proc: 0 says unknown
    }
    return 0;
  }

  /** This JVM's peak so far in kB, or 0 when it cannot be read. */
  public static long kilobytesOfThisProcess() {
    return kilobytesOf(SELF);
  }

  /** This JVM's peak so far, e.g. {@code "peak RSS 61 MB"}, or {@code "peak RSS unknown"}. */
  public static String ofThisProcess() {
    return describe(kilobytesOfThisProcess());
  }

  /** A peak of {@code kb} kB as {@code "peak RSS 61 MB"}; {@code "peak RSS unknown"} for 0. */
  public static String describe(long kb) {
    return kb > 0 ? String.format(Locale.ROOT, "peak RSS %d MB", (kb + 512) / 1024)
        : "peak RSS unknown";
  }
}
