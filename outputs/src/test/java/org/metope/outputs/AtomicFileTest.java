package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.mesh.DriverError;

class AtomicFileTest {
  @TempDir Path dir;

  private List<String> names() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void givenANewFile_thenItHasTheContentAndNoTemporaryFileRemains() throws IOException {
    Path file = dir.resolve("a.phdf");
    AtomicFile.writeString(file, "output file", "first");
    AtomicFile.writeString(file, "output file", "second");
    assertEquals("second", Files.readString(file));
    assertEquals(List.of("a.phdf"), names());
  }

  @Test
  void givenAWriteThatFailsHalfway_thenThePreviousFileIsIntactAndTheErrorNamesTheFile()
      throws IOException {
    Path file = dir.resolve("run.out1.00003.phdf");
    AtomicFile.writeString(file, "output file", "complete");
    DriverError e = assertThrows(DriverError.class, () -> AtomicFile.write(file, "output file",
        temporary -> {
          Files.writeString(temporary, "half");
          throw new IOException("No space left on device");
        }));
    assertEquals("cannot write the output file " + file + " (No space left on device)",
        e.getMessage());
    assertEquals("complete", Files.readString(file));
    assertEquals(List.of("run.out1.00003.phdf"), names());
  }

  @Test
  void givenAMissingDirectory_thenOneLineNamingTheFile() {
    Path file = dir.resolve("missing").resolve("x.rhdf");
    DriverError e = assertThrows(DriverError.class,
        () -> AtomicFile.writeString(file, "restart file", "x"));
    assertTrue(e.getMessage().startsWith("cannot write the restart file " + file + " ("),
        e.getMessage());
    assertEquals(1, e.getMessage().lines().count());
  }

  @Test
  void givenTemporaryNames_thenTheyAreRecognisedAndSitBesideTheTarget() {
    Path target = dir.resolve("a.phdf");
    Path temporary = AtomicFile.temporaryName(target);
    assertEquals(dir, temporary.getParent());
    assertTrue(AtomicFile.isTemporary(temporary), temporary.toString());
    assertTrue(!AtomicFile.isTemporary(target));
  }

  /**
   * A hook installed before the rename sees the complete temporary file under its own name while
   * the final name does not exist yet; once removed, writes no longer call it. Negative control:
   * a hook that throws makes the write fail with the usual one line and leaves no file at all.
   */
  @Test
  void givenAHookBeforeTheRename_thenItSeesTheCompleteTemporaryAndNoFinalFile() throws IOException {
    Path file = dir.resolve("b.phdf");
    List<String> seen = new java.util.ArrayList<>();
    AtomicFile.beforeRename((target, temporary) -> {
      seen.add(target.getFileName() + " " + Files.readString(temporary) + " "
          + Files.exists(target));
    });
    try {
      AtomicFile.writeString(file, "output file", "whole");
      AtomicFile.beforeRename((target, temporary) -> {
        throw new IOException("stopped by the test");
      });
      DriverError e = assertThrows(DriverError.class,
          () -> AtomicFile.writeString(dir.resolve("c.phdf"), "output file", "never"));
      assertEquals("cannot write the output file " + dir.resolve("c.phdf")
          + " (stopped by the test)", e.getMessage());
    } finally {
      AtomicFile.beforeRename(null);
    }
    AtomicFile.writeString(file, "output file", "again");
    assertEquals(List.of("b.phdf whole false"), seen);
    assertEquals("again", Files.readString(file));
    assertEquals(List.of("b.phdf"), names());
  }
}
