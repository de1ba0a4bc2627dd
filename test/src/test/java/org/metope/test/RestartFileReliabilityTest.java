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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.app.Metope;
import org.metope.mesh.forest.LogicalLocation;
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

  /**
   * A sealed file (a hand edit sealed again) whose clock no run writes: refused in one line naming
   * the attribute, as the deck's own checks refuse such values.
   */
  @Test
  void givenAnImpossibleClock_thenItIsRefusedNamingTheValue() throws Exception {
    Map<String, Object> cases = new LinkedHashMap<>();
    cases.put("Info/Time", Double.NaN);
    cases.put("Info/dt", -1.0);
    cases.put("Info/NCycle", -3);
    for (Map.Entry<String, Object> c : cases.entrySet()) {
      Path file = dir.resolve("clock" + cases.keySet().stream().toList().indexOf(c.getKey())
          + ".rhdf");
      SealedCopy.copy(restart, file, Map.of(c.getKey(), c.getValue()));
      assertRefused(resume(file, file.getFileName() + ".out"), file, c.getKey() + " is "
          + c.getValue() + ", expected");
    }
    Path inf = dir.resolve("dtinf.rhdf");
    SealedCopy.copy(restart, inf, Map.of("Info/dt", Double.POSITIVE_INFINITY));
    assertRefused(resume(inf, "dtinf"), inf, "Info/dt is Infinity, expected a positive finite");
  }

  /**
   * A recorded step far larger than the packages allow is not taken (before: time jumped past
   * tlim in one step of garbage): the run warns and steps as the uninterrupted run did, so it ends
   * with its answer.
   */
  @Test
  void givenAHugeRecordedStep_thenTheRunTakesTheAllowedStepAndWarns() throws Exception {
    Path file = dir.resolve("dt1e300.rhdf");
    SealedCopy.copy(restart, file, Map.of("Info/dt", 1e300));
    ProcessResult r = resume(file, "dt1e300");
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains("warning: the restart file's time step dt = 1.0E300 is larger"
        + " than the packages allow"), r.output());
    assertArrayEquals(uninterrupted, advected(dir.resolve("dt1e300/advection_2d.out2.final.rhdf")));
  }

  /** A field value that is not finite is refused, naming the field and block (before: all-NaN). */
  @Test
  void givenANonFiniteFieldValue_thenItIsRefusedNamingTheField() throws Exception {
    double[] values = advected(restart);
    for (double bad : new double[] {Double.NaN, Double.NEGATIVE_INFINITY}) {
      double[] copy = values.clone();
      copy[values.length - 1] = bad;
      Path file = dir.resolve("field" + bad + ".rhdf");
      SealedCopy.copy(restart, file, Map.of("advected", copy));
      assertRefused(resume(file, "field" + bad), file, "field advected has the value " + bad
          + " in block 15, expected finite values");
    }
  }

  /**
   * Block trees no mesh has (before: an IllegalArgumentException trace from building the tree):
   * a location twice, outside the domain, off the 2D plane, at a level the mesh does not have.
   */
  @Test
  void givenAnImpossibleBlockTree_thenItIsRefusedNamingTheBlock() throws Exception {
    int[] ids;
    long[] lx;
    try (HdfFile h5 = new HdfFile(restart)) {
      ids = (int[]) h5.getDatasetByPath("Blocks/loc.level-gid-lid-cnghost-gflag").getDataFlat();
      lx = (long[]) h5.getDatasetByPath("Blocks/loc.lx123").getDataFlat();
    }
    long[] twice = lx.clone();
    System.arraycopy(lx, 0, twice, 3, 3);
    long[] outside = lx.clone();
    outside[0] = 4;
    long[] offPlane = lx.clone();
    offPlane[2] = 1;
    int[] deeper = ids.clone();
    deeper[0] = 3;
    int[] negative = ids.clone();
    negative[0] = -1;
    Map<String, Map<String, Object>> cases = new LinkedHashMap<>();
    cases.put("is given twice", Map.of("Blocks/loc.lx123", twice));
    cases.put("block 0 at " + new LogicalLocation(2, 4, lx[1], 0) + " lies outside the mesh",
        Map.of("Blocks/loc.lx123", outside));
    cases.put("block 0 at " + new LogicalLocation(2, lx[0], lx[1], 1) + " lies outside the mesh",
        Map.of("Blocks/loc.lx123", offPlane));
    cases.put("block 0 is at level 3, the mesh has levels 2 to 2",
        Map.of("Blocks/loc.level-gid-lid-cnghost-gflag", deeper));
    cases.put("level=-1", Map.of("Blocks/loc.level-gid-lid-cnghost-gflag", negative));
    int n = 0;
    for (Map.Entry<String, Map<String, Object>> c : cases.entrySet()) {
      Path file = dir.resolve("tree" + n + ".rhdf");
      SealedCopy.copy(restart, file, c.getValue());
      assertRefused(resume(file, "tree" + n++), file, c.getKey());
    }
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
