package org.metope.test.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.jhdf.HdfFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.outputs.SealedCopy;
import org.metope.test.ProcessResult;

/**
 * Command lines a careless user types, run as real processes: each is refused with one line and
 * exit code 2 before any work, or handled exactly.
 */
class CommandLineReliabilityTest {
  @TempDir Path dir;

  private ProcessResult metope(String... args) throws Exception {
    return MetopeProcess.run(dir, args);
  }

  private static void assertRefused(ProcessResult r, String line) {
    assertEquals(2, r.exitCode(), r.output());
    assertEquals(List.of(line), r.output().lines().toList());
  }

  /** {@code -m} with more ranks than the mesh can have blocks: refused before it is laid out. */
  @Test
  void givenMoreRanksThanTheMeshCanHaveBlocks_thenMIsRefusedAtOnce() throws Exception {
    String deck = MetopeProcess.input("advection_2d.in").toString();
    assertRefused(metope("-m", "1000000000", "-i", deck), "metope: -m 1000000000: the mesh has at"
        + " most 16 MeshBlocks (every root block refined to the deepest level), fewer than the"
        + " number of ranks");
  }

  @Test
  void givenAWallTimeBeyondTheLongestLimit_thenItIsRefusedNotOverflowed() throws Exception {
    String deck = MetopeProcess.input("advection_1d.in").toString();
    for (String t : List.of("2600000:00:00", "99999999999999999:00:00", "1:60:00", "-1:00:00")) {
      assertRefused(metope("-i", deck, "-t", t), "metope: option -t = \"" + t
          + "\": expected a wall time HH:MM:SS of at most 100000 hours");
    }
  }

  @Test
  void givenTheLongestWallTime_thenTheRunGoesToItsEndAsWithout() throws Exception {
    String deck = MetopeProcess.input("advection_1d.in").toString();
    ProcessResult r = metope("-i", deck, "-d", dir.toString(), "-t", "100000:00:00",
        "parthenon/time/nlim=5");
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains(" cycle=5\n"), "five cycles run, not one: " + r.output());
    assertFalse(r.output().contains("wall-time limit"), r.output());
  }

  @Test
  void givenTwoDecks_thenTheSecondDoesNotSilentlyWin() throws Exception {
    String a = MetopeProcess.input("advection_1d.in").toString();
    String b = MetopeProcess.input("advection_2d.in").toString();
    assertRefused(metope("-i", a, "-i", b),
        "metope: option -i is given twice (" + a + " and " + b + "): give it once");
  }

  @Test
  void givenADirectoryForADeckOrARestart_thenTheLineSaysItIsADirectory() throws Exception {
    assertRefused(metope("-r", dir.toString()),
        "metope: restart file " + dir + " is a directory: give a .rhdf file in it");
    assertRefused(metope("-i", dir.toString()),
        "metope: input deck " + dir + " is a directory: give a deck file in it");
  }

  @Test
  void givenAnUnknownEntryClassUnderMpj_thenOneLineAndNoStackTrace() throws Exception {
    Path starter = Path.of("/usr/share/mpj/lib/starter.jar");
    if (!Files.isRegularFile(starter)) {
      fail("MPJ Express is not installed (" + starter + " is missing): install Debian's"
          + " libmpj-java; .ci/run does");
    }
    ProcessResult r = ProcessResult.run(dir, 120, Map.of("METOPE_SKIP_BUILD", "1"),
        MetopeProcess.root().resolve("metope").toString(), "-np", "1", "--class",
        "no.such.Class");
    assertEquals(2, r.exitCode(), r.output());
    assertFalse(MetopeProcess.hasStackTrace(r.output()), r.output());
    assertTrue(r.output().contains("--class no.such.Class: no such class on the class path"),
        r.output());
  }

  @Test
  void givenAnArgfileInTheJavaOptionsUnderMpj_thenTheRanksGetItsOptions() throws Exception {
    // MPJ's starter passes on options of one word only and took "@FILE" for the class to run; a
    // two-word option ("--add-opens X") is what TornadoVM's tornado-argfile is made of, and it
    // names a collector, which the launch check's JVM (serial collector) refused as a second one.
    Path argfile = dir.resolve("argfile");
    Files.writeString(argfile, "# options, one per line\n-Xss2m\n\n"
        + "--add-opens java.base/java.lang=ALL-UNNAMED\n-XX:+UseParallelGC\n");
    ProcessResult r = ProcessResult.run(dir, 120,
        Map.of("METOPE_SKIP_BUILD", "1", "METOPE_JAVA_OPTS", "@" + argfile),
        MetopeProcess.root().resolve("metope").toString(), "-np", "2", "-i",
        MetopeProcess.input("ghost_check_1d_periodic.in").toString());
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains("wrong ghost cells = 0"), r.output());
  }

  @Test
  void givenAnUnreadableArgfileUnderMpj_thenOneLine() throws Exception {
    Path missing = dir.resolve("no-such-argfile");
    ProcessResult r = ProcessResult.run(dir, 120,
        Map.of("METOPE_SKIP_BUILD", "1", "METOPE_JAVA_OPTS", "@" + missing),
        MetopeProcess.root().resolve("metope").toString(), "-np", "2", "--class",
        "org.metope.comm.CommunicatorSelfTest");
    assertRefused(r, "metope: METOPE_JAVA_OPTS: cannot read the argfile " + missing);
  }

  /**
   * {@code metope plot} on what a careless user or a hand edit gives it (before: a
   * FileNotFoundException trace for an output it cannot create, an index error for a negative
   * level, pictures of nothing for an empty or NaN domain): one line, exit 2, no trace.
   */
  @Test
  void givenPlotsOfImpossibleFilesOrPlaces_thenOneLineEach() throws Exception {
    Path out = Files.createDirectory(dir.resolve("out"));
    ProcessResult run = metope("-i", MetopeProcess.input("advection_2d.in").toString(), "-d",
        out.toString(), "parthenon/time/nlim=1", "parthenon/output9/file_type=hdf5",
        "parthenon/output9/dt=1", "parthenon/output9/variables=advected");
    assertEquals(0, run.exitCode(), run.output());
    Path file = out.resolve("advection_2d.out9.00000.phdf");
    ProcessResult proc = MetopeProcess.plot(dir, file.toString(), "-o", "/proc/self/x.png");
    assertEquals(2, proc.exitCode(), proc.output());
    assertEquals(1, proc.output().lines().count(), proc.output());
    assertTrue(proc.output().startsWith("metope plot: cannot write the picture /proc/self/x.png"),
        proc.output());

    int blocks;
    double[] x;
    double[] domain;
    try (HdfFile h5 = new HdfFile(file)) {
      blocks = ((long[]) h5.getDatasetByPath("Levels").getDataFlat()).length;
      x = toDoubles(h5.getDatasetByPath("Locations/x").getDataFlat());
      domain = (double[]) h5.getByPath("Info").getAttribute("RootGridDomain").getData();
    }
    long[] negative = new long[blocks];
    negative[blocks - 1] = -1;
    double[] nanFace = x.clone();
    nanFace[3] = Double.NaN;
    double[] empty = domain.clone();
    empty[1] = empty[0];
    double[] huge = domain.clone();
    huge[0] = -1.7e308;
    huge[1] = 1.7e308;
    Map<String, Map<String, Object>> cases = new LinkedHashMap<>();
    cases.put("/Levels holds level -1 for block " + (blocks - 1), Map.of("Levels", negative));
    cases.put("/Locations/x of block 0 holds NaN at face 3", Map.of("Locations/x", nanFace));
    cases.put("/Info RootGridDomain spans [-0.5, -0.5] along x",
        Map.of("Info/RootGridDomain", empty));
    cases.put("/Info RootGridDomain spans [-1.7E308, 1.7E308] along x",
        Map.of("Info/RootGridDomain", huge));
    int n = 0;
    for (Map.Entry<String, Map<String, Object>> c : cases.entrySet()) {
      Path edited = dir.resolve("edited" + n++ + ".phdf");
      SealedCopy.copy(file, edited, c.getValue());
      ProcessResult r = MetopeProcess.plot(dir, edited.toString());
      assertEquals(2, r.exitCode(), r.output());
      assertEquals(1, r.output().lines().count(), r.output());
      assertTrue(r.output().contains(c.getKey()), r.output());
      assertFalse(MetopeProcess.hasStackTrace(r.output()), r.output());
    }
  }

  private static double[] toDoubles(Object data) {
    if (data instanceof double[] d) {
      return d;
    }
    float[] f = (float[]) data;
    double[] d = new double[f.length];
    for (int k = 0; k < f.length; k++) {
      d[k] = f[k];
    }
    return d;
  }
}
