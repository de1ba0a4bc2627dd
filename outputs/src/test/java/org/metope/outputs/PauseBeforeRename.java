package org.metope.outputs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * A test's hook into {@link AtomicFile}: a write whose final file name matches a pattern stops
 * after filling its temporary file and before the rename, announces that with an empty file
 * {@code TEMPORARY.paused} beside it, and waits until the process is killed. Kill tests (module
 * {@code test}) start a run through a main that installs it, to land a kill exactly mid-output.
 */
public final class PauseBeforeRename {
  /** The suffix of the file that announces the pause, beside the temporary file. */
  public static final String MARKER = ".paused";

  private PauseBeforeRename() {}

  /** Pauses, for the rest of this process, every write whose final name matches {@code names}. */
  public static void install(Pattern names) {
    AtomicFile.beforeRename((target, temporary) -> {
      if (names.matcher(target.getFileName().toString()).matches()) {
        Files.createFile(temporary.resolveSibling(temporary.getFileName() + MARKER));
        waitForKill();
      }
    });
  }

  /** Restores writes that never pause. */
  public static void remove() {
    AtomicFile.beforeRename(null);
  }

  private static void waitForKill() throws IOException {
    try {
      Thread.sleep(Long.MAX_VALUE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while paused for a test", e);
    }
  }

  /** The paused temporary file a marker announces. */
  public static Path temporaryOf(Path marker) {
    String name = marker.getFileName().toString();
    return marker.resolveSibling(name.substring(0, name.length() - MARKER.length()));
  }
}
