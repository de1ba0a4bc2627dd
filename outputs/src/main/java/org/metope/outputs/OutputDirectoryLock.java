package org.metope.outputs;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.metope.mesh.input.InputError;

/**
 * An output directory is written by one run at a time: the run holds the lock file {@value
 * #NAME} in it, locked by the operating system ({@link FileChannel#tryLock}) for as long as the
 * run lasts, and naming the run's process id, host and the process's start time for the message
 * that refuses a second run (before, two runs interleaved one history file and overwrote each
 * other's outputs). The system drops the lock when its process ends however it ends, so a lock
 * file left by {@code kill -9} is taken over, and of several runs taking it at once exactly one
 * gets it. A lock file that names another host's process, or a live process of this host, is
 * held even where the system lock is free (a file system without shared locks). The lock file is
 * removed when the run ends, also on SIGTERM or SIGINT ({@link ExitCleanup}).
 */
public final class OutputDirectoryLock implements AutoCloseable {
  /** The lock file's name in the output directory. */
  public static final String NAME = ".metope-run.lock";
  private static final int ATTEMPTS = 3;
  /** What a lock file holds once its run released it. */
  private static final String RELEASED = "released\n";
  /**
   * Lock files this JVM holds: a second channel to one of them must never be opened, since
   * closing it would drop the system lock of the first.
   */
  private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

  /** The lock file; null when none could be written. */
  private final Path file;
  /** The open lock file, whose system lock lasts until it is closed. */
  private final FileChannel channel;

  private OutputDirectoryLock(Path file, FileChannel channel) {
    this.file = file;
    this.channel = channel;
  }

  /**
   * Takes the lock of {@code directory} (which exists) for this process. Where no lock file can
   * be written (a full disk, a directory without write permission) the run goes on unlocked: it
   * cannot write its outputs there either, and the first one says why in one line.
   *
   * @throws InputError naming the holder when a live process holds it
   */
  public static OutputDirectoryLock acquire(Path directory) {
    return acquire(directory, () -> { });
  }

  /**
   * {@link #acquire(Path)}, running {@code beforeLocking} between opening the lock file and
   * asking for the system lock: where racing takers meet (tests widen that window with it).
   */
  static OutputDirectoryLock acquire(Path directory, Runnable beforeLocking) {
    Path file = directory.resolve(NAME).toAbsolutePath().normalize();
    if (!HELD.add(file)) {
      throw refusal(directory, who(ProcessHandle.current().pid(), hostName()));
    }
    try {
      for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
        OutputDirectoryLock taken = tryTake(directory, file, beforeLocking);
        if (taken != null) {
          return taken;
        }
      }
      throw refusal(directory, "another run that keeps taking it");
    } catch (RuntimeException e) {
      HELD.remove(file);
      throw e;
    }
  }

  /**
   * One attempt: the lock, or null when the file this attempt opened is no longer the lock (its
   * holder released it while we looked); unlocked where the file cannot be written. Once the
   * system lock is ours, the file is read and written through {@code channel} only: closing any
   * other channel to it would drop the lock.
   *
   * @throws InputError naming the holder
   */
  private static OutputDirectoryLock tryTake(Path directory, Path file, Runnable beforeLocking) {
    FileChannel channel;
    try {
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
          StandardOpenOption.WRITE);
    } catch (IOException e) {
      HELD.remove(file);
      return new OutputDirectoryLock(null, null); // its outputs will say why
    }
    beforeLocking.run();
    boolean locked;
    try {
      locked = channel.tryLock() != null;
    } catch (IOException e) {
      locked = true; // no system locks on this file system: the content decides alone
    }
    String content = locked ? read(channel) : read(file);
    if (content == null || RELEASED.equals(content) || (!locked && !Files.exists(file))) {
      closeQuietly(channel);
      return null; // released or removed while we looked: try again
    }
    String holder = holder(content);
    if (!locked || holder != null) {
      closeQuietly(channel);
      throw refusal(directory, holder != null ? holder : "another run (starting now)");
    }
    return claim(file, channel);
  }

  /** Writes this process into the locked file; unlocked when that fails. */
  private static OutputDirectoryLock claim(Path file, FileChannel channel) {
    if (!write(channel, describe(ProcessHandle.current()))) {
      try {
        Files.deleteIfExists(file); // ours and empty: a full disk leaves no lock behind
      } catch (IOException e) {
        // The run goes on unlocked; its outputs will say why they cannot be written.
      }
      closeQuietly(channel);
      HELD.remove(file);
      return new OutputDirectoryLock(null, null); // a full disk; its outputs will say so
    }
    OutputDirectoryLock lock = new OutputDirectoryLock(file, channel);
    ExitCleanup.register(file, lock::close);
    return lock;
  }

  /** Writes {@code text} as the whole content of the open lock file; false when that fails. */
  private static boolean write(FileChannel channel, String text) {
    try {
      channel.truncate(0);
      ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
      long at = 0;
      while (bytes.hasRemaining()) {
        at += channel.write(bytes, at);
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
    Path file = directory.resolve(NAME).toAbsolutePath().normalize();
    if (HELD.contains(file)) {
      throw refusal(directory, who(ProcessHandle.current().pid(), hostName()));
    }
    String content = read(file);
    String holder = content == null || RELEASED.equals(content) ? null : holder(content);
    if (holder == null && content != null && systemLocked(file)) {
      holder = "another run (starting now)";
    }
    if (holder != null) {
      throw refusal(directory, holder);
    }
  }

  /** Whether another process holds the system lock of {@code file} (false where none exist). */
  private static boolean systemLocked(Path file) {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ,
        StandardOpenOption.WRITE); FileLock lock = channel.tryLock()) {
      return lock == null;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /**
   * Marks the lock file released, removes it, then drops the system lock: a taker that opened
   * the file before it was removed finds the mark once the lock is its, and opens the path again.
   */
  @Override
  public void close() {
    if (file == null) {
      return;
    }
    synchronized (this) {
      if (!channel.isOpen()) {
        return;
      }
      ExitCleanup.forget(file);
      write(channel, RELEASED);
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // A lock file left behind is marked released and not locked: the next run takes it.
      }
      closeQuietly(channel); // drops the system lock
      HELD.remove(file);
    }
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      // Closing drops the lock whatever it reports.
    }
  }

  /** The content of {@code file}, or null when it cannot be read (removed). */
  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The content of the open lock file, read through its own channel; null when it fails. */
  private static String read(FileChannel channel) {
    try {
      ByteBuffer bytes = ByteBuffer.allocate((int) Math.min(channel.size(), 4096));
      while (bytes.hasRemaining() && channel.read(bytes, bytes.position()) > 0) {
        // reads until full or at the end
      }
      return new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return null;
    }
  }

  private static InputError refusal(Path directory, String holder) {
    return InputError.at("-d " + directory, "the output directory is in use by " + holder
        + " (lock file " + directory.resolve(NAME) + ")", "a directory no other run writes into:"
        + " wait for that run to end, or choose another -d");
  }

  /** {@code pid host start}: what a lock file holds. */
  static String describe(ProcessHandle process) {
    long start = process.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
    return process.pid() + " " + hostName() + " " + start + "\n";
  }

  /**
   * Who holds a lock file with {@code content}, as {@code pid 123 on host h}, or null when nobody
   * does: an empty file (made just now by a taker, whose system lock decides), or one naming a
   * process of this host that no longer runs. A lock of another host is held (its process cannot
   * be checked from here); an unreadable one too.
   */
  private static String holder(String content) {
    String text = content.strip();
    if (text.isEmpty()) {
      return null;
    }
    List<String> fields = List.of(text.split(" "));
    if (fields.size() != 3 || !fields.get(0).matches("[0-9]{1,18}")
        || !fields.get(2).matches("[0-9]{1,18}")) {
      return "a run whose lock cannot be read";
    }
    long pid = Long.parseLong(fields.get(0));
    String host = fields.get(1);
    String who = who(pid, host);
    if (!host.equals(hostName())) {
      return who;
    }
    boolean alive = ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
        .filter(p -> !ended(p.pid()))
        .map(p -> describe(p).strip().equals(String.join(" ", fields))).orElse(false);
    return alive ? who : null;
  }

  /**
   * Whether the process has ended but its parent has not reaped it (Linux state {@code Z}): Java
   * counts it alive, yet the system dropped its locks with its files (a run killed under a parent
   * that does not wait for it, as a wrapper that execs into another program).
   */
  static boolean ended(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"),
          StandardCharsets.UTF_8);
      int name = stat.lastIndexOf(')');
      return name > 0 && name + 2 < stat.length() && stat.charAt(name + 2) == 'Z';
    } catch (IOException | RuntimeException e) {
      return false; // no /proc: Java's answer stands
    }
  }

  private static String who(long pid, String host) {
    return "pid " + pid + " on host " + host;
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
