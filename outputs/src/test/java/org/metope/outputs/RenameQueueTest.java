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
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.mesh.DriverError;

/**
 * GIVEN writes whose rename is queued, THEN the writer does not wait for it, files appear in the
 * order written, and a rename that fails is thrown once, by the next write or the wait. The
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

  @Test
  void givenARenameThatFailed_thenTheNextWriteThrowsItAndRemovesItsOwnTemporary()
      throws Exception {
    Path blocked = blockedName("run.out1.00003.phdf");
    CountDownLatch afterFailure = new CountDownLatch(1);
    // The rename after the failing one starts only once the failure is recorded (one thread,
    // in order); it announces that and waits.
    AtomicFile.beforeRename((target, temporary) -> {
      if (target.getFileName().toString().equals("next.phdf")) {
        afterFailure.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    AtomicFile.writeString(blocked, "output file", "values", queue);
    AtomicFile.writeString(dir.resolve("next.phdf"), "output file", "next", queue);
    afterFailure.await();
    DriverError e = assertThrows(DriverError.class, () -> AtomicFile.writeString(
        dir.resolve("third.phdf"), "output file", "third", queue));
    assertTrue(e.getMessage().startsWith("cannot write the output file " + blocked + " ("),
        e.getMessage());
    release.countDown();
    queue.await();
    assertEquals(List.of("next.phdf", "run.out1.00003.phdf"), names(),
        "the refused write left no temporary; the one queued before it is in place");
  }
}
