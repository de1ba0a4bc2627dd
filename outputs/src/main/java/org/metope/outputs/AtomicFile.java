package org.metope.outputs;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;
import org.metope.mesh.DriverError;

/**
 * Writes a file so that its final name only ever names a complete file: the content goes to a
 * temporary file in the same directory ({@code <name>.tmp-<pid>-<n>}), which is flushed to disk
 * and then renamed over the final name in one step. A crash or a kill during the write leaves at
 * most a stray temporary file; the previous file under the final name, if any, stays intact.
 *
 * <p>A failed write removes the temporary file and throws a {@link DriverError} whose message is
 * one line naming the file, e.g. {@code cannot write the output file out/run.out1.00003.phdf (No
 * space left on device)}.
 */
public final class AtomicFile {
  /** Distinguishes temporary files of one process (several ranks may write at once). */
  private static final AtomicLong SEQUENCE = new AtomicLong();

  private AtomicFile() {}

  /** What fills the temporary file. */
  @FunctionalInterface
  public interface Content {
    /** Writes the whole content into {@code temporary}, a new empty file. */
    void writeTo(Path temporary) throws IOException;
  }

  /**
   * Writes {@code target} through a temporary file and a rename.
   *
   * @param what how the message of a failure names the file, e.g. {@code output file}
   * @throws DriverError when any step fails; {@code target} is then unchanged
   */
  public static void write(Path target, String what, Content content) {
    Path absolute = target.toAbsolutePath();
    Path temporary = temporaryName(absolute);
    try {
      Files.deleteIfExists(temporary);
      content.writeTo(temporary);
      force(temporary);
      move(temporary, absolute);
      forceDirectory(absolute.getParent());
    } catch (IOException | RuntimeException e) {
      try {
        Files.deleteIfExists(temporary);
      } catch (IOException ignored) {
        // The write has failed already; a stray temporary file is all that can be left.
      }
      throw new DriverError("cannot write the " + what + " " + target + " (" + reason(e) + ")");
    }
  }

  /** Writes {@code text} (UTF-8) to {@code target} through a temporary file and a rename. */
  public static void writeString(Path target, String what, String text) {
    write(target, what, temporary -> Files.writeString(temporary, text, StandardCharsets.UTF_8));
  }

  /** The temporary name of {@code target}: same directory, {@code <name>.tmp-<pid>-<n>}. */
  static Path temporaryName(Path target) {
    return target.resolveSibling(target.getFileName() + ".tmp-" + ProcessHandle.current().pid()
        + "-" + SEQUENCE.incrementAndGet());
  }

  /** Whether {@code file}'s name is one {@link #temporaryName} gives. */
  public static boolean isTemporary(Path file) {
    return file.getFileName().toString().matches(".*\\.tmp-\\d+-\\d+");
  }

  private static void force(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.force(true);
    }
  }

  private static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      // Only on file systems without an atomic rename; the temporary is complete already.
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** Makes the rename durable where the platform lets a directory be opened (Linux does). */
  private static void forceDirectory(Path directory) {
    if (directory == null) {
      return;
    }
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // Not every platform can sync a directory; the rename itself has happened.
    }
  }

  private static String reason(Exception e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getMessage() == null) {
      cause = cause.getCause();
    }
    if (cause instanceof java.nio.file.NoSuchFileException) {
      return "no such file or directory";
    }
    if (cause instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    String message = cause.getMessage();
    return message == null ? cause.getClass().getSimpleName() : message.lines().findFirst()
        .orElse(message);
  }
}
