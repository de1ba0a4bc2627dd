package org.metope.driver;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * What the command line gives a driver besides the deck.
 *
 * @param outputDirectory where output files go ({@code -d DIR})
 * @param wallTimeDeadlineNanos the {@link System#nanoTime()} at which the run must stop ({@code
 *     -t HH:MM:SS} after start-up), or {@link Long#MAX_VALUE} for no limit
 * @param out where rank 0 prints its status lines and summary
 * @param restarted whether the run resumes from a restart file ({@code -r}): its first step is
 *     the one the file recorded instead of a new estimate, so that it continues bit for bit
 */
public record RunOptions(Path outputDirectory, long wallTimeDeadlineNanos, PrintStream out,
    boolean restarted) {
  /** Options of a run that does not resume from a restart file. */
  public RunOptions(Path outputDirectory, long wallTimeDeadlineNanos, PrintStream out) {
    this(outputDirectory, wallTimeDeadlineNanos, out, false);
  }

  /** Options without a wall-time limit. */
  public static RunOptions of(Path outputDirectory, PrintStream out) {
    return new RunOptions(outputDirectory, Long.MAX_VALUE, out);
  }

  /** Whether a wall-time limit was given. */
  public boolean hasWallTimeLimit() {
    return wallTimeDeadlineNanos != Long.MAX_VALUE;
  }
}
