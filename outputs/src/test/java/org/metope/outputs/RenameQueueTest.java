package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.mesh.DriverError;

/**
 * GIVEN writes whose rename is queued, THEN the writer does not wait for it, files appear in the
 * order written, a rename that fails is thrown once, by the next write or the wait, and the files
 * queued behind it are not placed. The
 * rename thread is held at {@link AtomicFile}'s before-rename hook, so nothing here depends on
 * timing.
 */
class RenameQueueTest {
  @TempDir Path dir;
  private final RenameQueue queue = new RenameQueue();
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void removeHook() {
    release.countDown();
    AtomicFile.beforeRename(null);
  }

  private List<String> names() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /**
   * Holds every rename until {@link #release} opens; a rename on the writing thread itself fails
   * the write (it would otherwise wait for a release that never comes).
   */
  private void holdRenames() {
    Thread writer = Thread.currentThread();
    AtomicFile.beforeRename((target, temporary) -> {
      if (Thread.currentThread() == writer) {
        throw new IOException("renamed on the writing thread");
      }
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    });
  }

  @Test
  void givenRenamesHeld_thenWritesReturnAndFilesAppearInOrderAfterTheWait() throws IOException {
    holdRenames();
    Path file = dir.resolve("run.out1.00001.phdf");
    AtomicFile.writeString(file, "output file", "first", queue);
    AtomicFile.writeString(file, "output file", "second", queue);
    AtomicFile.writeString(dir.resolve("run.out1.00001.phdf.xdmf"), "XDMF file", "x", queue);
    // Both writes returned while the rename thread is held: only temporaries exist.
    assertFalse(Files.exists(file));
    assertEquals(3, names().size());
    assertTrue(names().stream().map(dir::resolve).allMatch(AtomicFile::isTemporary),
        names().toString());
    release.countDown();
    queue.await();
    assertEquals("second", Files.readString(file), "the later write is renamed last");
    assertEquals(List.of("run.out1.00001.phdf", "run.out1.00001.phdf.xdmf"), names());
  }

  /** A rename that must fail: the final name is a directory that is not empty. */
  private Path blockedName(String name) throws IOException {
    Path blocked = dir.resolve(name);
    Files.createDirectory(blocked);
    Files.writeString(blocked.resolve("inside"), "not empty");
    return blocked;
  }

  @Test
  void givenARenameThatFails_thenTheWaitThrowsItOnceInOneLineAndNoTemporaryRemains()
      throws IOException {
    Path blocked = blockedName("run.out1.00002.phdf");
    AtomicFile.writeString(blocked, "output file", "values", queue);
    DriverError e = assertThrows(DriverError.class, queue::await);
    assertTrue(e.getMessage().startsWith("cannot write the output file " + blocked + " ("),
        e.getMessage());
    assertEquals(1, e.getMessage().lines().count());
    assertEquals(List.of("run.out1.00002.phdf"), names(), "the temporary file is removed");
    queue.await(); // thrown once
    AtomicFile.writeString(dir.resolve("later.phdf"), "output file", "fine", queue);
    queue.await();
    assertEquals("fine", Files.readString(dir.resolve("later.phdf")));
  }

  /**
   * A failed file and the files queued behind it: none of those is placed (its XDMF file would
   * name a file that is not there), and the next write throws the failure.
   */
  @Test
  void givenARenameThatFailed_thenFilesQueuedBehindItAreAbandonedAndTheNextWriteThrowsIt()
      throws Exception {
    Path blocked = blockedName("run.out1.00003.phdf");
    CountDownLatch behind = new CountDownLatch(1);
    AtomicBoolean abandoned = new AtomicBoolean();
    // The rename thread waits here until all three are queued: a failure recorded earlier would
    // be thrown by the next submit, not by the write the test expects it from.
    CountDownLatch queued = new CountDownLatch(1);
    queue.submit(() -> awaitUninterruptibly(queued), () -> { });
    AtomicFile.writeString(blocked, "output file", "values", queue);
    AtomicFile.writeString(dir.resolve("run.out1.00003.phdf.xdmf"), "XDMF file", "x", queue);
    // Queued behind both, so it runs once the failure is recorded: this waits for that.
    queue.submit(behind::countDown, () -> {
      abandoned.set(true);
      behind.countDown();
    });
    queued.countDown();
    behind.await();
    assertTrue(abandoned.get(), "a file queued before the failure was thrown is abandoned");
    DriverError e = assertThrows(DriverError.class, () -> AtomicFile.writeString(
        dir.resolve("third.phdf"), "output file", "third", queue));
    assertTrue(e.getMessage().startsWith("cannot write the output file " + blocked + " ("),
        e.getMessage());
    queue.await();
    assertEquals(List.of("run.out1.00003.phdf"), names(),
        "neither the XDMF file queued behind the failed file nor a temporary is left");
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
