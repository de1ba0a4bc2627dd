package org.metope.examples.particletracers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jhdf.HdfFile;
import io.jhdf.api.Group;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Array;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.examples.TestLauncher;

/**
 * Parthenon's particle_tracers regression deck, run unchanged, against the files Parthenon's own
 * binary wrote (examples/src/test/resources/parthenon/particle_tracers/README.md): the advected
 * density has Parthenon's bits at t = 0 and t = 1, every block holds as many tracers as in
 * Parthenon's run, with the same ids, and, the velocity being 1 and the box 1 wide, every tracer
 * is back where it started at t = 1. Positions are drawn by another generator than Parthenon's, so
 * they are compared with their own start, not with Parthenon's.
 */
class ParticleTracersTest {
  private static final Path RESOURCES = Path.of("src/test/resources/parthenon/particle_tracers");

  @TempDir Path dir;

  private void run(String... overrides) {
    assertEquals("0\n", launch(overrides).replaceFirst("(?s)\\n.*", "\n"));
  }

  /** The exit code of the regression deck run with {@code overrides}, a newline, its stderr. */
  private String launch(String... overrides) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream discard = new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8);
    String[] args = new String[4 + overrides.length];
    args[0] = "-i";
    args[1] = RESOURCES.resolve("regression.in").toString();
    args[2] = "-d";
    args[3] = dir.toString();
    System.arraycopy(overrides, 0, args, 4, overrides.length);
    int code = TestLauncher.run(args, discard, new PrintStream(err, true,
        StandardCharsets.UTF_8));
    return code + "\n" + err.toString(StandardCharsets.UTF_8);
  }

  private static double[] flat(HdfFile file, String path) {
    Object data = file.getDatasetByPath(path).getDataFlat();
    double[] out = new double[Array.getLength(data)];
    for (int i = 0; i < out.length; i++) {
      out[i] = ((Number) Array.get(data, i)).doubleValue();
    }
    return out;
  }

  /** Each tracer's x, y, z by id. */
  private static Map<Integer, double[]> tracers(HdfFile file) {
    double[] ids = flat(file, "/tracers/SwarmVars/id");
    double[][] x = {flat(file, "/tracers/SwarmVars/swarm.x"),
        flat(file, "/tracers/SwarmVars/swarm.y"), flat(file, "/tracers/SwarmVars/swarm.z")};
    Map<Integer, double[]> out = new TreeMap<>();
    for (int p = 0; p < ids.length; p++) {
      out.put((int) ids[p], new double[] {x[0][p], x[1][p], x[2][p]});
    }
    return out;
  }

  @Test
  void givenTheRegressionDeck_thenDensityCountsAndIdsAreParthenonsAndTracersComeBack() {
    run();
    for (String label : new String[] {"00000", "final"}) {
      try (HdfFile ours = new HdfFile(dir.resolve("particle_tracers.out0." + label + ".phdf"));
          HdfFile theirs = new HdfFile(RESOURCES.resolve("regression.out0." + label + ".phdf"))) {
        assertArrayEquals(flat(theirs, "/advected"), flat(ours, "/advected"), 0.0, label);
        assertArrayEquals(flat(theirs, "/tracers/counts"), flat(ours, "/tracers/counts"), 0.0,
            label);
        assertEquals(tracers(theirs).keySet(), tracers(ours).keySet(), label);
      }
    }
    try (HdfFile start = new HdfFile(dir.resolve("particle_tracers.out0.00000.phdf"));
        HdfFile end = new HdfFile(dir.resolve("particle_tracers.out0.final.phdf"))) {
      Map<Integer, double[]> before = tracers(start);
      Map<Integer, double[]> after = tracers(end);
      assertEquals(8, before.size());
      for (int id : before.keySet()) {
        assertArrayEquals(before.get(id), after.get(id), 1e-12, "tracer " + id);
      }
    }
    // Half way, each tracer has moved by the time elapsed in x (wrapped), not in y or z.
    try (HdfFile start = new HdfFile(dir.resolve("particle_tracers.out0.00000.phdf"));
        HdfFile middle = new HdfFile(dir.resolve("particle_tracers.out0.00010.phdf"))) {
      double time = ((Number) ((Group) middle.getChild("Info")).getAttribute("Time").getData())
          .doubleValue();
      assertEquals(0.5, time, 0.01);
      Map<Integer, double[]> after = tracers(middle);
      tracers(start).forEach((id, x) -> {
        double moved = x[0] + time >= 0.5 ? x[0] + time - 1.0 : x[0] + time;
        assertArrayEquals(new double[] {moved, x[1], x[2]}, after.get(id), 1e-12,
            "tracer " + id);
      });
    }
  }

  /** One tracer per cell it stands in: the deposition counts every tracer once. */
  @Test
  void givenTheDepositionWritten_thenItCountsEveryTracerOnce() {
    run("parthenon/output0/variables=advected, tracer_deposition");
    try (HdfFile end = new HdfFile(dir.resolve("particle_tracers.out0.final.phdf"))) {
      double sum = 0.0;
      int occupied = 0;
      for (double v : flat(end, "/tracer_deposition")) {
        sum += v;
        occupied += v > 0.0 ? 1 : 0;
      }
      assertEquals(8.0, sum);
      assertEquals(tracers(end).size(), occupied);
    }
  }

  /**
   * A negative number of tracers is one line and exit code 2 (it ran with none); more than an
   * int holds too (it ended out of memory). Zero tracers is a run, as in Parthenon. The deck's
   * own warnings (its output block given twice, as Parthenon's is) come before the line.
   */
  @Test
  void givenANumberOfTracersOutOfRange_thenOneLineNamesTheKey() {
    assertRefused("command line: Tracers/num_tracers = \"-5\": expected a number of tracers"
        + " from 0 to 2147483647", "Tracers/num_tracers=-5");
    assertRefused("command line: Tracers/num_tracers = \"1e12\": expected a number of tracers"
        + " from 0 to 2147483647", "Tracers/num_tracers=1e12");
    run("Tracers/num_tracers=0", "parthenon/time/nlim=1");
  }

  private void assertRefused(String line, String override) {
    List<String> lines = launch(override, "parthenon/time/nlim=1").lines()
        .filter(l -> !l.startsWith("warning: ")).toList();
    assertEquals(List.of("2", line), lines);
  }
}
