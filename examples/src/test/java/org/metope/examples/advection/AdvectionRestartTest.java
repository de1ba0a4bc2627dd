package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;
import org.metope.mesh.input.ParameterInput;

/**
 * Restart equivalence: a run resumed from a restart file written at cycle N ends with the same
 * bits as the run that was never interrupted (history lines after cycle N, the final HDF5 field
 * outputs and the final restart file), resuming on the same or another number of ranks. The deck
 * is the 2D static-refinement deck with sparse fields and ghost-zone outputs ({@code
 * static2d.in}), with restart files every 0.01 and a history output.
 */
class AdvectionRestartTest {
  @TempDir Path dir;
  private Path deck;

  private static final String[] OVERRIDES = {"parthenon/time/nlim=9",
      "parthenon/output8/file_type=hst", "parthenon/output8/dt=0.005"};
  private static final List<String> COMPARED = List.of("advected",
      "one_minus_sqrt_one_minus_advected_sq_12", "one_minus_sqrt_one_minus_advected_sq_37",
      "SparseInfo", "Locations/x");

  @BeforeEach
  void findDeck() throws URISyntaxException {
    deck = Path.of(getClass().getResource("/parthenon/hdf5/static2d.in").toURI());
  }

  private Path runFresh(String name, int ranks) throws IOException {
    Path out = Files.createDirectory(dir.resolve(name));
    InProcessRun.run(ranks, comm -> AdvectionRuns.run(
        ParameterInput.load(deck, List.of(OVERRIDES)), out, comm));
    return out;
  }

  private Path resume(String name, Path file, int ranks) throws IOException {
    Path out = Files.createDirectory(dir.resolve(name));
    InProcessRun.run(ranks, comm -> AdvectionRuns.restart(file, out, comm));
    return out;
  }

  /** Every compared dataset of {@code name} holds the same bits in both directories. */
  private static void assertSameFile(Path a, Path b, String name) {
    try (HdfFile x = new HdfFile(a.resolve(name)); HdfFile y = new HdfFile(b.resolve(name))) {
      assertEquals(x.getByPath("Info").getAttribute("NCycle").getData(),
          y.getByPath("Info").getAttribute("NCycle").getData(), name);
      assertEquals(x.getByPath("Info").getAttribute("Time").getData(),
          y.getByPath("Info").getAttribute("Time").getData(), name);
      assertEquals(x.getByPath("Info").getAttribute("dt").getData(),
          y.getByPath("Info").getAttribute("dt").getData(), name);
      for (String d : COMPARED) {
        Object p = x.getDatasetByPath(d).getDataFlat();
        Object q = y.getDatasetByPath(d).getDataFlat();
        if (p instanceof double[] pd) {
          assertArrayEquals(pd, (double[]) q, name + ":" + d);
        } else {
          assertArrayEquals((int[]) p, (int[]) q, name + ":" + d);
        }
      }
    }
  }

  /** History lines (no comments) whose cycle column is above {@code cycle}. */
  private static List<String> historyAfter(Path directory, int cycle) throws IOException {
    return Files.readAllLines(directory.resolve("rs.out8.hst")).stream()
        .filter(l -> !l.startsWith("#"))
        .filter(l -> Integer.parseInt(l.trim().split("\\s+")[2]) > cycle).toList();
  }

  private static void assertSameEnd(Path uninterrupted, Path resumed, int fromCycle)
      throws IOException {
    assertSameFile(uninterrupted, resumed, "rs.out1.final.phdf");
    assertSameFile(uninterrupted, resumed, "rs.out0.final.rhdf");
    List<String> expected = historyAfter(uninterrupted, fromCycle);
    assertTrue(expected.size() >= 3, "history lines after the restart: " + expected);
    assertEquals(expected, historyAfter(resumed, fromCycle));
  }

  @Test
  void givenARestartAtCycleThreeOnOneRank_thenTheRunEndsBitIdentical() throws IOException {
    Path a = runFresh("a", 1);
    Path rst = a.resolve("rs.out0.00002.rhdf");
    int cycle;
    try (HdfFile h5 = new HdfFile(rst)) {
      cycle = (Integer) h5.getByPath("Info").getAttribute("NCycle").getData();
    }
    assertTrue(cycle > 0 && cycle < 9, "a restart file from the middle of the run: " + cycle);
    Path b = resume("b", rst, 1);
    assertSameEnd(a, b, cycle);
    assertTrue(Files.readString(b.resolve("rs.out8.hst")).indexOf('#') < 0,
        "a resumed history continues without a new header");
    assertTrue(Files.exists(b.resolve("rs.out0.00003.rhdf")), "restart numbering continues");
  }

  /**
   * GIVEN an HDF5 output block without {@code variables}, which the deck stored in the restart
   * file records as {@code variables =} (a default, beside {@code swarms =}), THEN a run resumes
   * from that file and writes that output with the datasets of the uninterrupted run's.
   */
  @Test
  void givenAnOutputWithoutVariables_thenARunResumesFromItsRestartFile() throws IOException {
    String text = String.join("\n", "<parthenon/job>", "problem_id = novars",
        "<parthenon/mesh>", "nx1 = 32", "x1min = -0.5", "x1max = 0.5", "ix1_bc = periodic",
        "ox1_bc = periodic", "nx2 = 32", "x2min = -0.5", "x2max = 0.5", "ix2_bc = periodic",
        "ox2_bc = periodic", "nx3 = 1", "<parthenon/meshblock>", "nx1 = 16", "nx2 = 16",
        "<parthenon/time>", "tlim = 0.1", "integrator = rk2", "<Advection>", "vx = 1.0",
        "vy = 1.0", "profile = smooth_gaussian", "<parthenon/output0>", "file_type = rst",
        "dt = 0.05", "<parthenon/output1>", "file_type = hdf5", "dt = 0.05", "");
    Path a = Files.createDirectory(dir.resolve("novars"));
    AdvectionRuns.run(ParameterInput.parse("novars.in", text, List.of()), a,
        InProcessCluster.singleRank());
    Path rst = a.resolve("novars.out0.00001.rhdf");
    Path b = resume("novars-resumed", rst, 1);
    assertEquals(datasets(a.resolve("novars.out1.final.phdf")),
        datasets(b.resolve("novars.out1.final.phdf")));
  }

  private static List<String> datasets(Path file) {
    try (HdfFile h5 = new HdfFile(file)) {
      return List.copyOf(h5.getChildren().keySet());
    }
  }

  /**
   * Parthenon's adaptive deck, 60 cycles with a restart file every 0.05: a run resumed from the
   * middle counts the blocks adaptive refinement created and removed on from the file's {@code
   * NBNew} and {@code NBDel}, so its final outputs carry the uninterrupted run's counts (Parthenon
   * reads them from the file into {@code nbnew} and {@code nbdel}).
   */
  @Test
  void givenAnAdaptiveRunResumedMidway_thenNBNewAndNBDelCountFromTheStart() throws Exception {
    Path adaptive = Path.of(getClass().getResource("/parthenon/amr2d/parthinput.advection")
        .toURI());
    Path a = Files.createDirectory(dir.resolve("amr"));
    AdvectionRuns.run(adaptive, a, "parthenon/time/nlim=60");
    Path middle = a.resolve("advection.out1.00001.rhdf");
    int[] atMiddle = blockCounts(middle);
    int[] atEnd = blockCounts(a.resolve("advection.out1.final.rhdf"));
    assertTrue(atMiddle[0] > 0 && atEnd[0] > atMiddle[0] && atEnd[1] > atMiddle[1],
        "refinement created and removed blocks before and after the middle: "
        + Arrays.toString(atMiddle) + " then " + Arrays.toString(atEnd));
    Path b = resume("amr-resumed", middle, 1);
    assertArrayEquals(atEnd, blockCounts(b.resolve("advection.out1.final.rhdf")));
    assertArrayEquals(atEnd, blockCounts(b.resolve("advection.out0.final.phdf")));
  }

  private static int[] blockCounts(Path file) {
    try (HdfFile h5 = new HdfFile(file)) {
      return new int[] {(Integer) h5.getByPath("Info").getAttribute("NBNew").getData(),
          (Integer) h5.getByPath("Info").getAttribute("NBDel").getData()};
    }
  }

  @Test
  void givenTwoRanksAndRestartsAcrossRankCounts_thenEveryRunEndsWithTheSameBits()
      throws IOException {
    Path one = runFresh("one", 1);
    Path two = runFresh("two", 2);
    assertSameFile(one, two, "rs.out1.final.phdf");
    String middle = "rs.out0.00002.rhdf";
    int cycle;
    try (HdfFile h5 = new HdfFile(two.resolve(middle))) {
      cycle = (Integer) h5.getByPath("Info").getAttribute("NCycle").getData();
    }
    assertSameEnd(one, resume("two-to-two", two.resolve(middle), 2), cycle);
    assertSameEnd(one, resume("two-to-one", two.resolve(middle), 1), cycle);
    assertSameEnd(one, resume("one-to-two", one.resolve(middle), 2), cycle);
  }
}
