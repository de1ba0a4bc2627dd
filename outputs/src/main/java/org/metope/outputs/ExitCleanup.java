package org.metope.outputs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Files a run removes however its JVM ends short of {@code kill -9} (a SIGTERM or SIGINT included):
 * the temporary file of a write in progress ({@link AtomicFile}) and the lock of the output
 * directory ({@link OutputDirectoryLock}). One shutdown hook removes what is registered when the
 * JVM exits; a file is unregistered once it is renamed or released.
 */
final class ExitCleanup {
  private static final Set<Path> FILES = new LinkedHashSet<>();
  private static boolean hooked;

  private ExitCleanup() {}

  /** Removes {@code file} when the JVM exits, unless {@link #forget} comes first. */
  static synchronized void register(Path file) {
    if (!hooked) {
      Runtime.getRuntime().addShutdownHook(new Thread(ExitCleanup::removeAll,
          "metope-exit-cleanup"));
      hooked = true;
    }
    FILES.add(file);
  }

  /** {@code file} is no longer to be removed at exit (renamed into place, or released). */
  static synchronized void forget(Path file) {
    FILES.remove(file);
  }

  private static void removeAll() {
    List<Path> files;
    synchronized (ExitCleanup.class) {
      files = new ArrayList<>(FILES);
      FILES.clear();
    }
    for (Path file : files) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException | RuntimeException e) {
        // The JVM is ending; what cannot be removed stays, as after kill -9.
      }
    }
  }
}
