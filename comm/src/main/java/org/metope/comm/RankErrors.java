package org.metope.comm;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The error stream a rank's application writes to when the launcher watches the run: lines are
 * kept instead of printed, so that N ranks failing on the same deck do not print N copies; the
 * last line that is not a warning becomes the rank's status message ({@link RankStatus}), which
 * the launcher prints once. Once a line starting {@code metope: } came, the lines after it that
 * do not are details of that message (a stall report lists its pending tasks and channels so),
 * and that headline stays the message. Warnings ({@code warning: ...}) go on to {@code warnings}
 * as they come when it is not null (rank 0's standard error), and nowhere on the other ranks,
 * whose warnings are the same.
 */
public final class RankErrors {
  private static final String WARNING = "warning: ";
  private static final String HEADLINE = "metope: ";

  private final PrintStream warnings;
  private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
  private final PrintStream stream;
  private String lastError;
  private boolean headlineSeen;

  /** Keeps the lines written to {@link #stream()}; passes warnings to {@code warnings}. */
  public RankErrors(PrintStream warnings) {
    this.warnings = warnings;
    this.stream = new PrintStream(new LineSplitter(), true, StandardCharsets.UTF_8);
  }

  /** The stream to give the application as its standard error. */
  public PrintStream stream() {
    return stream;
  }

  /** The last complete or pending line that is not a warning, or null when there was none. */
  public synchronized String lastError() {
    stream.flush();
    if (pending.size() > 0) {
      take();
    }
    return lastError;
  }

  private synchronized void write(int b) {
    if (b == '\n') {
      take();
    } else {
      pending.write(b);
    }
  }

  private void take() {
    String line = pending.toString(StandardCharsets.UTF_8).stripTrailing();
    pending.reset();
    if (line.startsWith(WARNING)) {
      if (warnings != null) {
        warnings.println(line);
      }
    } else if (line.startsWith(HEADLINE)) {
      lastError = line;
      headlineSeen = true;
    } else if (!line.isBlank() && !headlineSeen) {
      lastError = line;
    }
  }

  /** Feeds bytes to {@link #write(int)}, which splits them into lines. */
  private final class LineSplitter extends OutputStream {
    @Override
    public void write(int b) {
      RankErrors.this.write(b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
      synchronized (RankErrors.this) {
        for (int i = offset; i < offset + length; i++) {
          RankErrors.this.write(bytes[i]);
        }
      }
    }
  }
}
