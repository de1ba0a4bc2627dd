package org.metope.outputs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
  /** A temporary name: group 1 is the writer's process id. */
  private static final Pattern TEMPORARY = Pattern.compile(".*\\.tmp-([0-9]{1,18})-[0-9]+");

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
    write(target, what, content, null);
  }

  /**
   * {@link #write(Path, String, Content)}, with the flush to disk and the rename left to {@code
   * renames} (null: done here), once the content is complete; a failure there is thrown later,
   * by the queue.
   */
  static void write(Path target, String what, Content content, RenameQueue renames) {
    Path absolute = target.toAbsolutePath();
    Path temporary = temporaryName(absolute);
    ExitCleanup.register(temporary);
    try {
      Files.deleteIfExists(temporary);
      content.writeTo(temporary);
    } catch (IOException | RuntimeException e) {
      throw failed(target, what, temporary, e);
    }
    if (renames == null) {
      renameIntoPlace(target, what, temporary);
      return;
    }
    try {
      renames.submit(() -> renameIntoPlace(target, what, temporary),
          () -> removeTemporary(temporary));
    } catch (DriverError earlier) {
      removeTemporary(temporary);
      throw earlier;
    }
  }

  /** Flushes the complete {@code temporary} to disk, renames it to {@code target}, flushes that. */
  private static void renameIntoPlace(Path target, String what, Path temporary) {
    Path absolute = target.toAbsolutePath();
    try {
      beforeRename.reached(absolute, temporary);
      force(temporary);
      move(temporary, absolute);
      forceDirectory(absolute.getParent());
    } catch (IOException | RuntimeException e) {
      throw failed(target, what, temporary, e);
    }
    ExitCleanup.forget(temporary);
  }

  /** Removes the temporary file of a failed write; the one line that says why. */
  private static DriverError failed(Path target, String what, Path temporary, Exception e) {
    removeTemporary(temporary);
    return new DriverError("cannot write the " + what + " " + target + " ("
        + reason(e, target) + ")");
  }

  private static void removeTemporary(Path temporary) {
    try {
      Files.deleteIfExists(temporary);
    } catch (IOException ignored) {
      // The write has failed already; a stray temporary file is all that can be left.
    }
    ExitCleanup.forget(temporary);
  }

  /**
   * What a write does between filling its temporary file and flushing and renaming it: nothing,
   * unless a test installs a hook ({@code PauseBeforeRename} in this module's test jar lands a
   * kill exactly mid-output that way).
   */
  @FunctionalInterface
  interface BeforeRename {
    /** Called with the final name and the complete temporary file, before the rename. */
    void reached(Path target, Path temporary) throws IOException;
  }

  private static final BeforeRename NOTHING = (target, temporary) -> { };
  private static volatile BeforeRename beforeRename = NOTHING;

  /** Installs {@code hook} for every later write of this process; null restores nothing. */
  static void beforeRename(BeforeRename hook) {
    beforeRename = hook == null ? NOTHING : hook;
  }

  /** Writes {@code text} (UTF-8) to {@code target} through a temporary file and a rename. */
  public static void writeString(Path target, String what, String text) {
    writeString(target, what, text, null);
  }

  /** {@link #writeString(Path, String, String)}, renamed into place by {@code renames}. */
  static void writeString(Path target, String what, String text, RenameQueue renames) {
    writeBytes(target, what, text.getBytes(StandardCharsets.UTF_8), renames);
  }

  /**
   * Writes {@code bytes} to {@code target} through a temporary file (in one write call where the
   * system takes them at once) and a rename by {@code renames} (null: here).
   */
  static void writeBytes(Path target, String what, byte[] bytes, RenameQueue renames) {
    write(target, what, temporary -> {
      try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE,
          StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
        Hdf5File.writeFully(channel, ByteBuffer.wrap(bytes), 0);
      }
    }, renames);
  }

  /**
   * Appends {@code bytes} to {@code target} all or nothing: when a write fails (a full disk), the
   * file is cut back to its previous length, or removed if this call created it, so it never ends
   * in a partial record and is never left empty. A file that grows by appends (a history) cannot
   * be renamed into place cheaply; one record is one write call, so a kill leaves whole records.
   *
   * @param what how the message of a failure names the file, e.g. {@code history file}
   * @throws DriverError when the append fails; {@code target} is then as it was
   */
  public static void append(Path target, String what, byte[] bytes) {
    if (Files.isSymbolicLink(target)) {
      throw new DriverError("cannot write the " + what + " " + target + " (it is a symbolic link;"
          + " outputs are written only into the output directory, never through a link)");
    }
    boolean existed = Files.exists(target);
    long before = 0;
    try (FileChannel channel = FileChannel.open(target, StandardOpenOption.CREATE,
        StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
      before = channel.size();
      channel.position(before);
      try {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
      } catch (IOException e) {
        channel.truncate(before);
        throw e;
      }
    } catch (IOException | RuntimeException e) {
      if (!existed) {
        try {
          Files.deleteIfExists(target);
        } catch (IOException ignored) {
          // The append has failed already; the message below says so.
        }
      }
      throw new DriverError("cannot write the " + what + " " + target + " ("
          + reason(e, target) + ")");
    }
  }

  /**
   * Removes temporary files ({@link #isTemporary}) in {@code directory} left by processes that no
   * longer run (killed during a write): the process id in the name is not alive on this machine
   * and the file has not changed for a minute (so that a writer on another machine sharing the
   * directory is left alone). Returns the number removed; failures are ignored.
   */
  public static int removeStaleTemporaries(Path directory) {
    int removed = 0;
    long minute = System.currentTimeMillis() - 60_000;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*.tmp-*-*")) {
      for (Path file : files) {
        Matcher m = TEMPORARY.matcher(file.getFileName().toString());
        if (!m.matches() || ProcessHandle.of(Long.parseLong(m.group(1))).isPresent()) {
          continue;
        }
        try {
          if (Files.getLastModifiedTime(file).toMillis() < minute && Files.deleteIfExists(file)) {
            removed++;
          }
        } catch (IOException ignored) {
          // Another run may have removed it, or it is not ours to remove.
        }
      }
    } catch (IOException | RuntimeException e) {
      // An unreadable directory: the outputs themselves will report it.
    }
    return removed;
  }

  /** The temporary name of {@code target}: same directory, {@code <name>.tmp-<pid>-<n>}. */
  static Path temporaryName(Path target) {
    return target.resolveSibling(target.getFileName() + ".tmp-" + ProcessHandle.current().pid()
        + "-" + SEQUENCE.incrementAndGet());
  }

  /** Whether {@code file}'s name is one {@link #temporaryName} gives. */
  public static boolean isTemporary(Path file) {
    return TEMPORARY.matcher(file.getFileName().toString()).matches();
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

  /**
   * Why a write failed, for its one line: the first message among {@code e}'s causes, or the
   * cause that says "No space left on device", which is also added when {@code target}'s disk has
   * no room left (not every failed write says so).
   */
  private static String reason(Exception e, Path target) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c.getMessage() != null && c.getMessage().contains("No space left on device")) {
        return c.getMessage().lines().findFirst().orElse("No space left on device");
      }
    }
    try {
      Path directory = target.toAbsolutePath().getParent();
      if (directory != null && Files.getFileStore(directory).getUsableSpace() == 0) {
        return reason(e) + "; No space left on device";
      }
    } catch (IOException | RuntimeException unknown) {
      // The store cannot be asked; the message stands as it is.
    }
    return reason(e);
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
