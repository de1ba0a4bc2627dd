package org.metope.comm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * How the ranks of an MPJ run report to the {@code ./metope} launcher. {@code mpjrun} exits 0
 * whatever its ranks do, and under the multicore device a rank's {@code System.exit} ends every
 * rank, so exit codes cannot travel the usual way. Instead each rank writes files into the
 * directory named by the system property {@value #DIRECTORY_PROPERTY}, which the launcher creates
 * and watches:
 *
 * <pre>
 * rank-R.pid       written at start: the process id of the JVM running rank R
 * rank-R.progress  touched (at most once a second) when rank R's communicator completed operations
 * rank-R.status    written once at the end, to a temporary name then renamed:
 *                    exit=CODE
 *                    outcome=OK | FAILED | ABORTED | ENDED
 *                    message=ONE LINE
 * </pre>
 *
 * <p>The launcher's exit code is 0 only when every rank wrote {@code exit=0}; a rank whose process
 * vanished without a status file, or that reported a failure, fails the run. Without the property
 * (a user running {@code mpjrun} by hand) every method does nothing.
 */
public final class RankStatus {
  /** System property naming the status directory; set by the launcher on the JVM command line. */
  public static final String DIRECTORY_PROPERTY = "metope.rank.statusDir";

  private static final int MAX_MESSAGE_CHARS = 500;
  private static final long HEARTBEAT_MILLIS = 1000;
  private static final long POLL_MILLIS = 50;

  /** How a rank ended. */
  public enum Outcome {
    /** The rank finished its work. */
    OK,
    /** The rank hit an error of its own (and aborted the others). */
    FAILED,
    /** The rank stopped because another rank aborted the run. */
    ABORTED,
    /**
     * The rank's JVM shut down before the rank finished: {@code System.exit} in the application
     * (under multicore, in any rank) or a signal; written by {@link #installExitHook()}.
     */
    ENDED
  }

  /** What a rank's status file says; see {@link #read}. */
  public record Report(int rank, int exitCode, Outcome outcome, String message) {}

  private final Path directory;
  private final int rank;
  private final int size;
  private final AtomicBoolean finished = new AtomicBoolean();

  private RankStatus(Path directory, int rank, int size) {
    this.directory = directory;
    this.rank = rank;
    this.size = size;
  }

  /** The status files of {@code rank}, in the directory the system property names, if any. */
  public static RankStatus fromSystemProperty(int rank, int size) {
    String dir = System.getProperty(DIRECTORY_PROPERTY);
    return new RankStatus(dir == null || dir.isBlank() ? null : Path.of(dir), rank, size);
  }

  /** The status files of {@code rank} in {@code directory}. */
  public static RankStatus inDirectory(Path directory, int rank, int size) {
    CommArguments.checkNotNull(directory, "directory");
    return new RankStatus(directory, rank, size);
  }

  /** True when a status directory was given. */
  public boolean enabled() {
    return directory != null;
  }

  /** Writes {@code rank-R.pid}. */
  public void started() {
    if (directory != null) {
      writeAtomically("rank-" + rank + ".pid", ProcessHandle.current().pid() + "\n");
    }
  }

  /**
   * Starts a daemon thread that touches {@code rank-R.progress} once a second while {@code
   * completedOperations} keeps changing, so the launcher's watchdog can tell a slow run from a hung
   * one.
   */
  public void startHeartbeat(LongSupplier completedOperations) {
    if (directory == null) {
      return;
    }
    Thread t = new Thread(() -> heartbeat(completedOperations), "metope-heartbeat-" + rank);
    t.setDaemon(true);
    t.start();
  }

  private void heartbeat(LongSupplier completedOperations) {
    Path file = directory.resolve("rank-" + rank + ".progress");
    long last = Long.MIN_VALUE;
    while (true) {
      long now = completedOperations.getAsLong();
      if (now != last) {
        last = now;
        try {
          if (!Files.exists(file)) {
            Files.writeString(file, "");
          }
          Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis()));
        } catch (IOException e) {
          return;
        }
      }
      try {
        Thread.sleep(HEARTBEAT_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /**
   * Registers a shutdown hook that reports {@link Outcome#ENDED} (exit code 1) if the JVM shuts
   * down before {@link #finished} was called, so a rank ended by {@code System.exit} or a signal
   * still leaves a status saying so; where the JVM is already shutting down, reports it now.
   */
  public void installExitHook() {
    if (directory == null) {
      return;
    }
    Runnable ended = () -> finished(1, Outcome.ENDED, "the JVM of rank " + rank
        + " shut down before the rank finished (System.exit in the application, or a signal)");
    try {
      Runtime.getRuntime().addShutdownHook(new Thread(ended, "metope-exit-hook-" + rank));
    } catch (IllegalStateException shuttingDown) {
      ended.run(); // a signal came first: no hook can be added now, and the rank has ended
    }
  }

  /** Writes {@code rank-R.status} once (later calls do nothing); the message is cut to one line. */
  public void finished(int exitCode, Outcome outcome, String message) {
    if (directory == null || !finished.compareAndSet(false, true)) {
      return;
    }
    String line = message == null ? "" : message.replaceAll("[\\r\\n]+", " ").strip();
    if (line.length() > MAX_MESSAGE_CHARS) {
      line = line.substring(0, MAX_MESSAGE_CHARS) + "...";
    }
    writeAtomically("rank-" + rank + ".status",
        "exit=" + exitCode + "\noutcome=" + outcome + "\nmessage=" + line + "\n");
  }

  /**
   * Waits until every rank has written its status file or {@code millis} have passed; true when
   * all have. A failing rank waits here before ending its process, so that under the multicore
   * device (one JVM for all ranks) the others can record why they stopped.
   */
  public boolean awaitAllFinished(long millis) {
    if (directory == null) {
      return true;
    }
    long deadline = System.currentTimeMillis() + millis;
    while (true) {
      int done = 0;
      for (int r = 0; r < size; r++) {
        if (Files.exists(directory.resolve("rank-" + r + ".status"))) {
          done++;
        }
      }
      if (done == size) {
        return true;
      }
      if (System.currentTimeMillis() >= deadline) {
        return false;
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }

  /** Reads rank {@code rank}'s status file in {@code directory}; null when there is none. */
  public static Report read(Path directory, int rank) {
    Path file = directory.resolve("rank-" + rank + ".status");
    if (!Files.exists(file)) {
      return null;
    }
    try {
      int exit = -1;
      Outcome outcome = null;
      String message = "";
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (line.startsWith("exit=")) {
          exit = Integer.parseInt(line.substring(5));
        } else if (line.startsWith("outcome=")) {
          outcome = Outcome.valueOf(line.substring(8));
        } else if (line.startsWith("message=")) {
          message = line.substring(8);
        }
      }
      return new Report(rank, exit, outcome, message);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read status file " + file, e);
    }
  }

  private void writeAtomically(String name, String content) {
    Path target = directory.resolve(name);
    Path temp = directory.resolve("." + name + ".tmp");
    try {
      Files.writeString(temp, content, StandardCharsets.UTF_8);
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      System.err.println("metope: rank " + rank + " cannot write " + target + ": " + e);
    }
  }
}
