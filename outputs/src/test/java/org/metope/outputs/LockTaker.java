package org.metope.outputs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.metope.mesh.input.InputError;

/**
 * A process that takes output directory locks when told, for {@link OutputDirectoryLockTest}'s
 * races: reads {@code take DIR}, {@code naive DIR} or {@code release} lines from standard input
 * and answers each with one line ({@code won}, {@code refused ...}, {@code released}). Both ways
 * of taking wait {@link #WINDOW_MILLIS} where two takers meet, so that they overlap there.
 */
final class LockTaker {
  /** How long a taker waits between looking at the lock and taking it. */
  static final long WINDOW_MILLIS = 200;

  private LockTaker() {}

  public static void main(String[] args) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in,
        StandardCharsets.UTF_8));
    OutputDirectoryLock held = null;
    Path naive = null;
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String answer;
      if (line.startsWith("take ")) {
        try {
          held = OutputDirectoryLock.acquire(Path.of(line.substring(5)), LockTaker::pause);
          answer = "won";
        } catch (InputError e) {
          answer = "refused " + e.getMessage();
        }
      } else if (line.startsWith("naive ")) {
        naive = takeNaively(Path.of(line.substring(6)).resolve(OutputDirectoryLock.NAME));
        answer = naive != null ? "won" : "refused";
      } else {
        if (held != null) {
          held.close();
        }
        if (naive != null) {
          Files.deleteIfExists(naive);
        }
        held = null;
        naive = null;
        answer = "released";
      }
      System.out.println(answer);
      System.out.flush();
    }
  }

  /**
   * The negative control: a takeover by looking and then removing, as the lock did before it
   * used the system's lock. Returns the lock file when this process took it, else null.
   */
  private static Path takeNaively(Path file) throws IOException {
    if (Files.exists(file)) {
      String[] fields = Files.readString(file).strip().split(" ");
      if (ProcessHandle.of(Long.parseLong(fields[0])).isPresent()) {
        return null;
      }
      pause();
      Files.deleteIfExists(file);
    }
    try {
      Files.writeString(file, ProcessHandle.current().pid() + " naive\n",
          StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      return file;
    } catch (FileAlreadyExistsException e) {
      return null;
    }
  }

  private static void pause() {
    try {
      Thread.sleep(WINDOW_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
