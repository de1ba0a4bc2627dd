package org.metope.mesh.driver;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * What the command line gives a driver besides the deck.
 *
 * @param outputDirectory where output files go ({@code -d DIR})
 * @param wallTimeDeadlineNanos the {@link System#nanoTime()} at which the run must stop ({@code
 *     -t HH:MM:SS} after start-up), or {@link Long#MAX_VALUE} for no limit
 * @param out where rank 0 prints its status lines and summary
 */
public record RunOptions(Path outputDirectory, long wallTimeDeadlineNanos, PrintStream out) {
  /** Options without a wall-time limit. */
  public static RunOptions of(Path outputDirectory, PrintStream out) {
    return new RunOptions(outputDirectory, Long.MAX_VALUE, out);
  }

  /** Whether a wall-time limit was given. */
  public boolean hasWallTimeLimit() {
    return wallTimeDeadlineNanos != Long.MAX_VALUE;
  }
}
