package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.comm.InProcessRun;
import org.metope.mesh.input.ParameterInput;

/**
 * Restarts of an adaptive run: resumed from a restart file, Parthenon's adaptive 2D deck continues
 * with the same block counts and the same history as the run that was never interrupted, on the
 * same and on another number of ranks. The file carries the mesh the run had reached and every
 * block's derefinement counter, so blocks merge on the cycle they would have.
 */
class AdvectionAmrRestartTest {
  @TempDir Path dir;

  private static final String[] OVERRIDES = {"parthenon/time/tlim=0.4",
      "parthenon/output0/dt=-1", "parthenon/output9/file_type=hst",
      "parthenon/output9/dt=0.0", "parthenon/output9/data_format=%.17e"};

  private static Path deck() {
    try {
      return Path.of(AdvectionAmrRestartTest.class.getResource(
          "/parthenon/amr2d/parthinput.advection").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** History rows (no comments) of the full-precision output whose cycle is above {@code cycle}. */
  private static List<String> historyAfter(Path directory, int cycle) throws IOException {
    return Files.readAllLines(directory.resolve("advection.out9.hst")).stream()
        .filter(l -> !l.startsWith("#"))
        .filter(l -> Integer.parseInt(l.trim().split("\\s+")[2]) > cycle).toList();
  }

  @Test
  void givenARestartDuringDerefinementOnOneAndTwoRanks_thenTheRunContinuesBitIdentical()
      throws IOException {
    Path whole = Files.createDirectory(dir.resolve("whole"));
    InProcessRun.run(2, comm -> AdvectionRuns.run(
        ParameterInput.load(deck(), List.of(OVERRIDES)), whole, comm));
    // Restart files every 0.05: the third is at t = 0.15, between merges.
    Path file = whole.resolve("advection.out1.00003.rhdf");
    int cycle;
    try (HdfFile h5 = new HdfFile(file)) {
      cycle = (Integer) h5.getByPath("Info").getAttribute("NCycle").getData();
    }
    List<String> expected = historyAfter(whole, cycle);
    assertTrue(expected.size() > 100, "cycles after the restart: " + expected.size());
    List<Integer> blocks = expected.stream()
        .map(l -> Integer.parseInt(l.trim().split("\\s+")[3])).distinct().toList();
    assertTrue(blocks.size() > 3, "the mesh keeps changing after the restart: " + blocks);
    for (int ranks = 1; ranks <= 2; ranks++) {
      Path resumed = Files.createDirectory(dir.resolve("resumed" + ranks));
      InProcessRun.run(ranks, comm -> AdvectionRuns.restart(file, resumed, comm,
          OVERRIDES));
      assertEquals(expected, historyAfter(resumed, cycle), ranks + " ranks");
    }
  }
}
