package org.metope.outputs;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import org.metope.mesh.input.InputError;

/**
 * An output directory is written by one run at a time: the run holds the lock file {@value
 * #NAME} in it, which names its process id, host and the process's start time. A second run is
 * refused in one line naming the holder (before, two runs interleaved one history file and
 * overwrote each other's outputs). A lock whose process is gone (killed with {@code kill -9}; a
 * process id since reused by another process has another start time) is taken over. The lock is
 * removed when the run ends, also on SIGTERM or SIGINT ({@link ExitCleanup}).
 */
public final class OutputDirectoryLock implements AutoCloseable {
  /** The lock file's name in the output directory. */
  public static final String NAME = ".metope-run.lock";
  private static final int ATTEMPTS = 3;

  /** The lock file; null when none could be written. */
  private final Path file;

  private OutputDirectoryLock(Path file) {
    this.file = file;
  }

  /**
   * Takes the lock of {@code directory} (which exists) for this process. Where no lock file can
   * be written (a full disk, a directory without write permission) the run goes on unlocked: it
   * cannot write its outputs there either, and the first one says why in one line.
   *
   * @throws InputError naming the holder when a live process holds it
   */
  public static OutputDirectoryLock acquire(Path directory) {
    Path file = directory.resolve(NAME);
    String mine = describe(ProcessHandle.current());
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      FileChannel channel;
      try {
        channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      } catch (FileAlreadyExistsException e) {
        String holder = holder(file);
        if (holder != null) {
          throw refusal(directory, holder);
        }
        removeStale(file);
        continue;
      } catch (IOException e) {
        return new OutputDirectoryLock(null); // its outputs will say why it cannot write there
      }
      if (!write(channel, mine)) {
        removeStale(file); // ours, and empty or cut: a full disk; its outputs will say so
        return new OutputDirectoryLock(null);
      }
      ExitCleanup.register(file);
      return new OutputDirectoryLock(file);
    }
    throw refusal(directory, "another run that keeps taking it");
  }

  /** Writes {@code text} into the new lock file and closes it; false when that fails. */
  private static boolean write(FileChannel channel, String text) {
    try (channel) {
      ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Refuses {@code directory} when a live process holds its lock, without taking it: for the
   * launcher's check before the ranks of a multi-rank run start.
   *
   * @throws InputError naming the holder
   */
  public static void requireFree(Path directory) {
    String holder = holder(directory.resolve(NAME));
    if (holder != null) {
      throw refusal(directory, holder);
    }
  }

  /** Removes the lock. */
  @Override
  public void close() {
    if (file == null) {
      return;
    }
    ExitCleanup.forget(file);
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // A lock left behind names a process that has ended: the next run takes it over.
    }
  }

  private static InputError refusal(Path directory, String holder) {
    return InputError.at("-d " + directory, "the output directory is in use by " + holder
        + " (lock file " + directory.resolve(NAME) + ")", "a directory no other run writes into:"
        + " wait for that run to end, or choose another -d");
  }

  /** {@code pid host start}: what a lock file holds. */
  private static String describe(ProcessHandle process) {
    long start = process.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
    return process.pid() + " " + hostName() + " " + start + "\n";
  }

  /**
   * Who holds the lock {@code file}, as {@code pid 123 on host h}, or null when nobody does: no
   * file, or a file naming a process of this host that no longer runs. A lock of another host is
   * held (its process cannot be checked from here); an unreadable one too.
   */
  private static String holder(Path file) {
    List<String> fields;
    try {
      fields = List.of(Files.readString(file, StandardCharsets.UTF_8).strip().split(" "));
    } catch (IOException | RuntimeException e) {
      return Files.exists(file) ? "a run whose lock cannot be read" : null;
    }
    if (fields.size() != 3 || !fields.get(0).matches("[0-9]{1,18}")
        || !fields.get(2).matches("[0-9]{1,18}")) {
      return "a run whose lock cannot be read";
    }
    long pid = Long.parseLong(fields.get(0));
    String host = fields.get(1);
    String who = "pid " + pid + " on host " + host;
    if (!host.equals(hostName())) {
      return who;
    }
    boolean alive = ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
        .map(p -> describe(p).strip().equals(String.join(" ", fields))).orElse(false);
    return alive ? who : null;
  }

  private static void removeStale(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // The next attempt reports the lock as it finds it.
    }
  }

  /** This machine's name: the kernel's on Linux (no name service asked), else the JDK's. */
  private static String hostName() {
    String name;
    try {
      name = Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.UTF_8)
          .strip();
    } catch (IOException | RuntimeException e) {
      try {
        name = InetAddress.getLocalHost().getHostName();
      } catch (IOException notKnown) {
        name = "localhost";
      }
    }
    return name.isEmpty() ? "localhost" : name.replace(' ', '_');
  }
}
