package org.metope.test.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.test.ProcessResult;

/**
 * Outputs on a full disk, a real one: a 64 KiB tmpfs mounted for the test (which needs root; the
 * test is skipped, saying so, where it cannot mount). Whatever the run manages to write, no file
 * under a final name is partial or empty: the history keeps whole lines, and a file whose first
 * record does not fit is not created. Stale temporary files of dead runs are removed.
 */
class DiskReliabilityTest {
  @TempDir Path dir;
  private Path disk;
  private boolean mounted;

  /** advection_1d with a history record every 0.01 (about 100) and the error file. */
  private static final String[] OVERRIDES = {"parthenon/output1/dt=0.01",
      "parthenon/time/tlim=1.0", "Advection/compute_error=true"};

  private void mountTinyDisk() throws Exception {
    disk = Files.createDirectory(dir.resolve("disk"));
    String user = System.getProperty("user.name");
    assumeTrue("root".equals(user), "mounting a 64 KiB tmpfs needs root; this JVM runs as "
        + user + ", so the full-disk test cannot run here");
    ProcessResult r = ProcessResult.run(dir, 30, java.util.Map.of(), "mount", "-t", "tmpfs",
        "-o", "size=64k", "tmpfs", disk.toString());
    assumeTrue(r.exitCode() == 0, "root, but mount -t tmpfs failed (no CAP_SYS_ADMIN in this"
        + " container?): " + r.output().strip());
    mounted = true;
  }

  @AfterEach
  void unmount() throws Exception {
    if (mounted) {
      ProcessResult.run(dir, 30, java.util.Map.of(), "umount", disk.toString());
    }
  }

  /** Fills the disk with 4 KiB files (tmpfs counts pages), then frees {@code pages} of them. */
  private void fillLeaving(int pages) throws IOException {
    byte[] page = new byte[4096];
    int n = 0;
    try {
      while (true) {
        Files.write(disk.resolve("fill" + n), page);
        n++;
      }
    } catch (IOException full) {
      Files.deleteIfExists(disk.resolve("fill" + n));
    }
    for (int p = 0; p < pages; p++) {
      Files.delete(disk.resolve("fill" + (n - 1 - p)));
    }
  }

  private ProcessResult runOnDisk() throws Exception {
    String[] args = new String[4 + OVERRIDES.length];
    args[0] = "-i";
    args[1] = MetopeProcess.input("advection_1d.in").toString();
    args[2] = "-d";
    args[3] = disk.toString();
    System.arraycopy(OVERRIDES, 0, args, 4, OVERRIDES.length);
    return MetopeProcess.run(dir, args);
  }

  @Test
  void givenAFullDisk_thenNoHistoryOrErrorFileIsCreatedAndOneLineSaysWhy() throws Exception {
    mountTinyDisk();
    fillLeaving(0);
    ProcessResult r = runOnDisk();
    assertEquals(1, r.exitCode(), r.output());
    assertFalse(MetopeProcess.hasStackTrace(r.output()), r.output());
    List<String> lines = MetopeProcess.errorLines(r);
    assertEquals(1, lines.size(), r.output());
    assertTrue(lines.get(0).matches("metope: cannot write the history file .*advection_1d\\.out1"
        + "\\.hst \\(No space left on device\\)"), lines.get(0));
    assertEquals(List.of(), outputs(), "no empty file under a final name");
  }

  @Test
  void givenADiskThatFillsDuringTheRun_thenTheHistoryHoldsOnlyWholeLines() throws Exception {
    mountTinyDisk();
    fillLeaving(2); // one page for the run's lock of the directory, one for its history
    ProcessResult r = runOnDisk();
    assertEquals(1, r.exitCode(), r.output());
    assertFalse(MetopeProcess.hasStackTrace(r.output()), r.output());
    assertTrue(MetopeProcess.errorLines(r).get(0).startsWith("metope: cannot write the history"
        + " file "), r.output());
    Path hst = disk.resolve("advection_1d.out1.hst");
    String text = Files.readString(hst);
    assertTrue(text.endsWith("\n"), "the last record is whole");
    List<String> records = text.lines().filter(l -> !l.startsWith("#")).toList();
    assertTrue(records.size() > 5 && records.size() < 100, "the disk filled mid-run: "
        + records.size() + " records");
    int columns = records.get(0).trim().split("\\s+").length;
    for (String record : records) {
      assertEquals(columns, record.trim().split("\\s+").length, "a whole record: " + record);
    }
    assertTrue(Files.size(hst) <= 4096, "the history kept no byte of the record that did not"
        + " fit in its one page");
  }

  @Test
  void givenStaleTemporariesOfADeadRun_thenTheNextRunRemovesThemAndKeepsLiveOnes()
      throws Exception {
    Process gone = new ProcessBuilder("true").start();
    assertEquals(0, gone.waitFor());
    long deadPid = gone.pid();
    long livePid = ProcessHandle.current().pid();
    Path stale = Files.writeString(dir.resolve("advection_1d.out2.00003.phdf.tmp-" + deadPid
        + "-7"), "half an output");
    Path fresh = Files.writeString(dir.resolve("x.phdf.tmp-" + deadPid + "-8"), "just now");
    Path live = Files.writeString(dir.resolve("y.phdf.tmp-" + livePid + "-1"), "being written");
    FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 120_000);
    Files.setLastModifiedTime(stale, old);
    Files.setLastModifiedTime(live, old);
    ProcessResult r = MetopeProcess.run(dir, "-i", MetopeProcess.input("advection_1d.in")
        .toString(), "-d", dir.toString(), "parthenon/time/nlim=1");
    assertEquals(0, r.exitCode(), r.output());
    assertFalse(Files.exists(stale), "a dead run's temporary older than a minute is removed");
    assertTrue(Files.exists(fresh), "a temporary changed within the minute is left alone");
    assertTrue(Files.exists(live), "a live process's temporary is left alone");
  }

  private List<Path> outputs() throws IOException {
    try (Stream<Path> files = Files.list(disk)) {
      return files.filter(f -> !f.getFileName().toString().startsWith("fill")).toList();
    }
  }
}
