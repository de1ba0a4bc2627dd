package org.metope.outputs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * Files a run removes however its JVM ends short of {@code kill -9} (a SIGTERM or SIGINT included):
 * the temporary file of a write in progress ({@link AtomicFile}) and the lock of the output
 * directory ({@link OutputDirectoryLock}, which releases itself its own way). One shutdown hook
 * removes what is registered when the JVM exits; a file is unregistered once it is renamed or
 * released. A thread that registers a file after the JVM began to shut down (a signal that came
 * before the first registration, or after the hook ran) removes it at once and waits for the JVM
 * to end: a file it went on to write would outlive the hook, and the run is over anyway.
 */
final class ExitCleanup {
  /** Per registered file, what removes it. */
  private static final Map<Path, Runnable> FILES = new LinkedHashMap<>();
  private static boolean hooked;
  /** Set when the hook has run: what is registered after it would stay. */
  private static boolean exited;

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
  static void register(Path file, Runnable removal) {
    synchronized (ExitCleanup.class) {
      if (!exited && (hooked || hook())) {
        FILES.put(file, removal);
        return;
      }
    }
    removal.run();
    awaitExit();
  }

  /** Adds the shutdown hook; false when the JVM is already shutting down. */
  private static boolean hook() {
    try {
      Runtime.getRuntime().addShutdownHook(new Thread(ExitCleanup::removeAll,
          "metope-exit-cleanup"));
    } catch (IllegalStateException shuttingDown) {
      return false;
    }
    hooked = true;
    return true;
  }

  /** Parks the calling thread until the JVM, which is shutting down, ends it. */
  private static void awaitExit() {
    while (true) {
      LockSupport.park();
    }
  }

  /** {@code file} is no longer to be removed at exit (renamed into place, or released). */
  static synchronized void forget(Path file) {
    FILES.remove(file);
  }

  private static void removeAll() {
    List<Runnable> removals;
    synchronized (ExitCleanup.class) {
      exited = true;
      removals = new ArrayList<>(FILES.values());
      FILES.clear();
    }
    for (Runnable removal : removals) {
      removal.run();
    }
  }
}
