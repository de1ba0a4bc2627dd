package org.metope.outputs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Files a run removes however its JVM ends short of {@code kill -9} (a SIGTERM or SIGINT included):
 * the temporary file of a write in progress ({@link AtomicFile}) and the lock of the output
 * directory ({@link OutputDirectoryLock}, which releases itself its own way). One shutdown hook
 * removes what is registered when the JVM exits; a file is unregistered once it is renamed or
 * released.
 */
final class ExitCleanup {
  /** Per registered file, what removes it. */
  private static final Map<Path, Runnable> FILES = new LinkedHashMap<>();
  private static boolean hooked;

  private ExitCleanup() {}

  /** Removes {@code file} when the JVM exits, unless {@link #forget} comes first. */
  static void register(Path file) {
    register(file, () -> {
      try {
        Files.deleteIfExists(file);
      } catch (IOException | RuntimeException e) {
        // The JVM is ending; what cannot be removed stays, as after kill -9.
      }
    });
  }

  /** Runs {@code removal} when the JVM exits, unless {@link #forget}{@code (file)} comes first. */
  static synchronized void register(Path file, Runnable removal) {
    if (!hooked) {
      Runtime.getRuntime().addShutdownHook(new Thread(ExitCleanup::removeAll,
          "metope-exit-cleanup"));
      hooked = true;
    }
    FILES.put(file, removal);
  }

  /** {@code file} is no longer to be removed at exit (renamed into place, or released). */
  static synchronized void forget(Path file) {
    FILES.remove(file);
  }

  private static void removeAll() {
    List<Runnable> removals;
    synchronized (ExitCleanup.class) {
      removals = new ArrayList<>(FILES.values());
      FILES.clear();
    }
    for (Runnable removal : removals) {
      removal.run();
    }
  }
}
