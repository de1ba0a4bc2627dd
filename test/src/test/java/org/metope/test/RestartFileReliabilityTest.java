package org.metope.test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.app.Metope;
import org.metope.outputs.SealedCopy;

/**
 * Restart files as a hostile user or a failing disk leaves them: truncated, with flipped bits,
 * from a future format version, hand-edited, or used with a different mesh. Every case either
 * resumes to the uninterrupted run's answer or is refused with one line naming the file and what
 * is wrong, exit code 2, no stack trace. The launcher runs as a real process, as a user runs it.
 */
class RestartFileReliabilityTest {
  private static final long LIMIT_SECONDS = 60;
  private static final String[] RUN = {"parthenon/time/nlim=4", "parthenon/output2/file_type=rst",
      "parthenon/output2/dn=2"};

  @TempDir static Path dir;
  private static Path restart;
  private static double[] uninterrupted;

  /** One run of the 2D advection deck (16 blocks), with restart files at cycles 0, 2 and 4. */
  @BeforeAll
  static void writeRestartFiles() throws Exception {
    Path out = Files.createDirectory(dir.resolve("uninterrupted"));
    ProcessResult r = launch("-i", RepoPaths.inputs().resolve("advection_2d.in").toString(),
        "-d", out.toString(), RUN[0], RUN[1], RUN[2]);
    assertEquals(0, r.exitCode(), r.output());
    restart = out.resolve("advection_2d.out2.00001.rhdf");
    uninterrupted = advected(out.resolve("advection_2d.out2.final.rhdf"));
  }

  private static ProcessResult launch(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(RepoPaths.launcher().toString()));
    command.addAll(List.of(args));
    return ProcessResult.run(dir, LIMIT_SECONDS, Map.of("METOPE_SKIP_BUILD", "1"),
        command.toArray(new String[0]));
  }

  private static double[] advected(Path file) {
    try (HdfFile h5 = new HdfFile(file)) {
      return (double[]) h5.getDatasetByPath("advected").getDataFlat();
    }
  }

  /** Resumes from {@code file} into a new directory; returns the run and the final field. */
  private static ProcessResult resume(Path file, String name, String... overrides)
      throws Exception {
    Path out = Files.createDirectory(dir.resolve(name));
    List<String> args = new ArrayList<>(List.of("-r", file.toString(), "-d", out.toString()));
    args.addAll(List.of(overrides));
    return launch(args.toArray(new String[0]));
  }

  /** Exit code 2 and exactly one line, naming the file, containing {@code what}. */
  private static void assertRefused(ProcessResult r, Path file, String what) {
    assertEquals(2, r.exitCode(), r.output());
    String out = r.output().strip();
    assertEquals(1, out.lines().count(), out);
    assertTrue(out.startsWith(file + ": "), out);
    assertTrue(out.contains(what), out);
    assertFalse(out.contains("Exception") || out.contains("\tat "), out);
  }

  private Path damaged(String name, byte[] content) throws Exception {
    return Files.write(dir.resolve(name), content);
  }

  @Test
  void givenAnIntactFile_thenTheRunEndsWithTheUninterruptedAnswer() throws Exception {
    ProcessResult r = resume(restart, "intact");
    assertEquals(0, r.exitCode(), r.output());
    assertArrayEquals(uninterrupted, advected(dir.resolve("intact/advection_2d.out2.final.rhdf")));
  }

  @Test
  void givenATruncatedFile_thenItIsRefusedWithTheExpectedLength() throws Exception {
    byte[] bytes = Files.readAllBytes(restart);
    for (int cut : new int[] {1, 1000, 100000}) {
      Path file = damaged("cut" + cut + ".rhdf", Arrays.copyOf(bytes, bytes.length - cut));
      assertRefused(resume(file, "cut" + cut), file, "it is truncated: it has "
          + (bytes.length - cut) + " bytes, its HDF5 superblock and integrity seal make "
          + bytes.length);
    }
  }

  /** Three flips through the real launcher: exit code and the one line on a real process. */
  @Test
  void givenFlippedBits_thenTheLauncherRefusesTheFile() throws Exception {
    byte[] bytes = Files.readAllBytes(restart);
    for (int at : new int[] {100, bytes.length / 2, bytes.length - 40}) {
      byte[] copy = bytes.clone();
      copy[at] ^= 0x08;
      Path file = damaged("flip" + at + ".rhdf", copy);
      assertRefused(resume(file, "flip" + at), file, "its content is damaged");
    }
  }

  /**
   * 200 single-bit flips at seeded positions, through the application's entry in this JVM (a
   * process each would take minutes): every one is refused with one line and exit code 2 before
   * the run starts. A flip that went unnoticed would run and exit 0.
   */
  @Test
  void givenTwoHundredFlippedBits_thenEveryOneIsRefused() throws Exception {
    byte[] bytes = Files.readAllBytes(restart);
    Random random = new Random(1815);
    Path file = dir.resolve("flipped.rhdf");
    PrintStream err = System.err;
    PrintStream out = System.out;
    try {
      for (int n = 0; n < 200; n++) {
        int bit = random.nextInt(8 * bytes.length);
        byte[] copy = bytes.clone();
        copy[bit / 8] ^= (byte) (1 << (bit % 8));
        Files.write(file, copy);
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int code = Metope.run(new String[] {"-r", file.toString(), "-d",
            dir.resolve("flips").toString()});
        String line = captured.toString(StandardCharsets.UTF_8).strip();
        String where = "bit " + bit % 8 + " of byte " + bit / 8 + ": " + line;
        assertEquals(2, code, where);
        assertEquals(1, line.lines().count(), where);
        assertTrue(line.startsWith(file + ": cannot read the restart file (it"), where);
      }
    } finally {
      System.setErr(err);
      System.setOut(out);
    }
  }

  /**
   * Every bit of the first bytes of every HDF5 object header (sizes a damaged file may make
   * gigabytes long), resumed from and drawn without its seal, in a JVM with a 64 MiB heap
   * ({@link HeaderFlipProbe}): each ends with one line and exit code 2 (or a picture), none with an
   * {@code OutOfMemoryError}. Locating the damage through a file channel, as before, ran out of
   * this heap at 6 of these flips.
   */
  @Test
  void givenFlippedHeaderSizes_thenTheCheckRunsInASmallHeap() throws Exception {
    Path scratch = Files.createDirectory(dir.resolve("headers"));
    ProcessResult r = ProcessResult.run(dir, 600, Map.of(),
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
        "-Djava.awt.headless=true", "-cp", System.getProperty("java.class.path"),
        HeaderFlipProbe.class.getName(), restart.toString(), scratch.toString());
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().strip().matches("cases [1-9][0-9]+ failures 0"), r.output());
  }

  @Test
  void givenAnUnchangedSealedCopy_thenItResumesAsTheOriginal() throws Exception {
    Path copy = dir.resolve("copy.rhdf");
    SealedCopy.copy(restart, copy, Map.of());
    ProcessResult r = resume(copy, "copy");
    assertEquals(0, r.exitCode(), r.output());
    assertArrayEquals(uninterrupted, advected(dir.resolve("copy/advection_2d.out2.final.rhdf")));
  }

  @Test
  void givenAFutureFormatVersion_thenItIsRefusedNamingBothVersions() throws Exception {
    Path file = dir.resolve("v99.rhdf");
    SealedCopy.copy(restart, file, Map.of("Info/OutputFormatVersion", 99));
    assertRefused(resume(file, "v99"), file,
        "Info/OutputFormatVersion is 99, this Metope reads version 4");
  }

  @Test
  void givenAStringWhereANumberBelongs_thenItIsRefusedNamingTheAttribute() throws Exception {
    Path file = dir.resolve("time.rhdf");
    SealedCopy.copy(restart, file, Map.of("Info/Time", "0.5"));
    assertRefused(resume(file, "time"), file,
        "attribute Info/Time is a String (0.5), expected a number");
  }

  @Test
  void givenAFileWithoutASeal_thenItIsRefused() throws Exception {
    Path copy = dir.resolve("edited.rhdf");
    SealedCopy.copy(restart, copy, Map.of("Info/Time", 0.75));
    byte[] bytes = Files.readAllBytes(copy);
    Path file = damaged("unsealed.rhdf", Arrays.copyOf(bytes, bytes.length - 32));
    assertRefused(resume(file, "unsealed"), file, "it has no integrity seal");
  }

  @Test
  void givenAChangedMeshSize_thenItIsRefusedNamingTheKey() throws Exception {
    assertMeshKeptRefusal(resume(restart, "mesh", "parthenon/mesh/nx1=256"),
        "parthenon/mesh/nx1 = \"256\": expected 128 as in the restart file " + restart);
    assertMeshKeptRefusal(resume(restart, "block", "parthenon/meshblock/nx1=16"),
        "parthenon/meshblock/nx1 = \"16\": expected 32 as in the restart file " + restart);
  }

  /** The deck check of a restart names the override, the file and the file's value. */
  private static void assertMeshKeptRefusal(ProcessResult r, String what) {
    assertEquals(2, r.exitCode(), r.output());
    String out = r.output().strip();
    assertEquals(1, out.lines().count(), out);
    assertTrue(out.startsWith("command line: ") && out.contains(what), out);
    assertFalse(out.contains("Exception") || out.contains("\tat "), out);
  }
}
