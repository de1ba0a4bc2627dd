package org.metope.examples.sparseadvection;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * Parthenon's sparse_advection deck, cut to {@code tlim = 0.1} (31 cycles, four remeshes, fields
 * allocated on receive and freed), gives the same bits whatever the decomposition: 1, 2 and 4
 * in-process ranks, one or several partitions on 1 or 4 task threads, coalesced or per-channel
 * messages; the same blocks hold the same fields, and the printed allocation counts agree.
 */
class SparseAdvectionDeterminismTest {
  @TempDir Path dir;

  private record Outcome(Map<LogicalLocation, double[]> fields, String history,
      List<String> allocations) {}

  private Outcome run(int ranks, String... overrides) throws IOException {
    Path out = Files.createTempDirectory(dir, "r" + ranks);
    Map<LogicalLocation, double[]> fields = new ConcurrentHashMap<>();
    List<String> printed = new ArrayList<>();
    List<String> all = new ArrayList<>(List.of("parthenon/time/tlim=0.1",
        "parthenon/output0/dt=-1", "parthenon/output1/dt=-1"));
    all.addAll(List.of(overrides));
    String deck = Files.readString(SparseAdvectionRuns.resource("sparse.in"));
    InProcessRun.run(ranks, comm -> {
      ParameterInput pin = ParameterInput.parse("sparse.in", deck, all);
      SparseAdvectionRuns.Result result = SparseAdvectionRuns.run(pin, out, comm);
      SparseAdvectionRuns.interiors(result.mesh(), fields);
      if (comm.rank() == 0) {
        synchronized (printed) {
          printed.addAll(result.out().lines()
              .filter(l -> l.startsWith("\tNumber of allocations")).toList());
        }
      }
    });
    return new Outcome(new TreeMap<>(fields), Files.readString(out.resolve("sparse.out3.hst")),
        printed);
  }

  private static void assertSameBits(Outcome expected, Outcome actual, String what) {
    assertEquals(expected.fields().keySet(), actual.fields().keySet(), what + ": blocks");
    for (Map.Entry<LogicalLocation, double[]> e : expected.fields().entrySet()) {
      assertArrayEquals(e.getValue(), actual.fields().get(e.getKey()), what + " " + e.getKey());
    }
    assertEquals(expected.history(), actual.history(), what + ": history");
    assertEquals(expected.allocations(), actual.allocations(), what + ": allocation counts");
  }

  @Test
  void givenRanksThreadsAndMessageModes_thenFieldsAllocationsAndHistoryAreBitIdentical()
      throws IOException {
    Outcome reference = run(1);
    assertSameBits(reference, run(1, "parthenon/mesh/pack_size=8", "metope/threads=4"),
        "1 rank, 4 threads");
    assertSameBits(reference, run(2, "parthenon/comm/coalesce=false"), "2 ranks, per channel");
    assertSameBits(reference, run(2, "parthenon/mesh/pack_size=4", "metope/threads=3"),
        "2 ranks, 3 threads, coalesced");
    assertSameBits(reference, run(4, "parthenon/mesh/pack_size=16", "metope/threads=2",
        "parthenon/comm/coalesce=false"), "4 ranks, 2 threads, per channel");
    // The run allocated and freed fields: the counts changed, and blocks were created.
    assertTrue(reference.allocations().stream().distinct().count() > 2,
        reference.allocations().toString());
    List<Integer> counts = reference.history().lines().filter(l -> !l.startsWith("#"))
        .map(l -> Integer.parseInt(l.trim().split("\\s+")[3])).toList();
    assertTrue(!counts.get(0).equals(counts.get(counts.size() - 1)), counts.toString());
  }
}
