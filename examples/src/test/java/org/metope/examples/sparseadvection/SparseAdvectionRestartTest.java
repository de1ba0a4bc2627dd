package org.metope.examples.sparseadvection;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.comm.InProcessRun;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.input.ParameterInput;

/**
 * Restarts of sparse_advection: resumed from a restart file written while fields were being
 * allocated and freed, the run ends with the same blocks, the same fields allocated on them, the
 * same values and the same history as the run that was never interrupted, on 1 and 2 ranks. The
 * file carries every block's allocation ({@code SparseInfo}) and deallocation counter ({@code
 * SparseDeallocCount}); without the counters, fields are freed up to five cycles late and the
 * allocation counts differ (checked by not restoring them).
 */
class SparseAdvectionRestartTest {
  @TempDir Path dir;

  private static final String[] OVERRIDES = {"parthenon/time/tlim=0.12",
      "parthenon/output0/dt=-1", "parthenon/output1/dt=0.02", "parthenon/output3/dt=0.0",
      "parthenon/output3/data_format=%.17e"};

  private static List<String> historyAfter(Path directory, int cycle) throws IOException {
    return Files.readAllLines(directory.resolve("sparse.out3.hst")).stream()
        .filter(l -> !l.startsWith("#"))
        .filter(l -> Integer.parseInt(l.trim().split("\\s+")[2]) > cycle).toList();
  }

  private static List<String> allocationLines(String out) {
    return out.lines().filter(l -> l.startsWith("\tNumber of allocations")).toList();
  }

  @Test
  void givenARestartWhileFieldsAreFreed_thenTheRunContinuesBitIdentical() throws IOException {
    Path whole = Files.createDirectory(dir.resolve("whole"));
    Map<LogicalLocation, double[]> expected = new TreeMap<>();
    SparseAdvectionRuns.Result full = SparseAdvectionRuns.run(
        SparseAdvectionRuns.resource("sparse.in"), whole, OVERRIDES);
    SparseAdvectionRuns.interiors(full.mesh(), expected);
    // Restart files every 0.02: the third (t = 0.06, cycle 19) has 48 fields one cycle away
    // from being freed.
    Path file = whole.resolve("sparse.out1.00003.rhdf");
    int cycle;
    try (HdfFile h5 = new HdfFile(file)) {
      cycle = (Integer) h5.getByPath("Info").getAttribute("NCycle").getData();
      int[][] counts = (int[][]) h5.getDatasetByPath("SparseDeallocCount").getData();
      assertTrue(Arrays.stream(counts).flatMapToInt(Arrays::stream).anyMatch(c -> c > 0),
          "some field is counting towards its deallocation at the restart");
    }
    List<String> history = historyAfter(whole, cycle);
    List<String> allocations = allocationLines(full.out());
    List<String> afterRestart = allocations.subList(cycle, allocations.size());
    assertTrue(afterRestart.stream().distinct().count() > 1,
        "allocations change after the restart: " + afterRestart);
    for (int ranks = 1; ranks <= 2; ranks++) {
      Path resumed = Files.createDirectory(dir.resolve("resumed" + ranks));
      Map<LogicalLocation, double[]> fields = new ConcurrentHashMap<>();
      StringBuilder printed = new StringBuilder();
      InProcessRun.run(ranks, comm -> {
        SparseAdvectionRuns.Result r = SparseAdvectionRuns.restart(file, resumed, comm,
            OVERRIDES);
        SparseAdvectionRuns.interiors(r.mesh(), fields);
        if (comm.rank() == 0) {
          printed.append(r.out());
        }
      });
      assertEquals(history, historyAfter(resumed, cycle), ranks + " ranks: history");
      assertEquals(afterRestart, allocationLines(printed.toString()),
          ranks + " ranks: allocation counts");
      assertEquals(expected.keySet(), new TreeMap<>(fields).keySet(), ranks + " ranks: blocks");
      for (Map.Entry<LogicalLocation, double[]> e : expected.entrySet()) {
        assertArrayEquals(e.getValue(), fields.get(e.getKey()), ranks + " ranks " + e.getKey());
      }
    }
  }
}
