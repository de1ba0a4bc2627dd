package org.metope.examples.sparseadvection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.comm.InProcessCluster;
import org.metope.mesh.Mesh;
import org.metope.mesh.input.ParameterInput;

/**
 * What sparse allocation saves on sparse_advection (Parthenon's deck cut to {@code tlim = 0.1},
 * 31 cycles, 2 in-process ranks): values sent between the ranks per cycle in both message modes,
 * and the field arena, with {@code enable_sparse} on and off. Prints the figures quoted in
 * docs/PERFORMANCE.md ("Sparse fields"); the counts are deterministic, so they do not depend on
 * the machine's load.
 *
 * <p>Per channel, an unallocated or negligible sender sends an empty message, so sparse on sends
 * fewer bytes; coalesced messages carry every member's full region whether it holds data or not
 * (docs/ARCHITECTURE.md, "Coalesced messages"), so their bytes do not depend on allocation.
 */
class SparseAdvectionTrafficTest {
  @TempDir Path dir;

  private record Traffic(long messages, long bytes, long arenaBytes, int cycles) {}

  private Traffic run(boolean sparse, boolean coalesce) throws IOException {
    Path out = Files.createTempDirectory(dir, "t");
    String deck = Files.readString(SparseAdvectionRuns.resource("sparse.in"));
    List<String> overrides = List.of("parthenon/time/tlim=0.1", "parthenon/output0/dt=-1",
        "parthenon/output1/dt=-1", "parthenon/sparse/enable_sparse=" + sparse,
        "parthenon/comm/coalesce=" + coalesce);
    AtomicLong messages = new AtomicLong();
    AtomicLong bytes = new AtomicLong();
    AtomicLong arena = new AtomicLong();
    int[] cycles = new int[1];
    InProcessCluster.run(2, world -> {
      CountingCommunicator comm = new CountingCommunicator(world);
      ParameterInput pin = ParameterInput.parse("sparse.in", deck, overrides);
      Mesh mesh = SparseAdvectionRuns.run(pin, out, comm).mesh();
      messages.addAndGet(comm.messages());
      bytes.addAndGet(comm.bytes());
      arena.addAndGet((long) mesh.fields().data().length * Double.BYTES);
      if (comm.rank() == 0) {
        cycles[0] = 31;
      }
    });
    return new Traffic(messages.get(), bytes.get(), arena.get(), cycles[0]);
  }

  @Test
  void givenSparseOnAndOff_thenPerChannelMessagesSendLessAndCoalescedTheSame()
      throws IOException {
    List<String> lines = new ArrayList<>();
    Traffic[][] t = new Traffic[2][2];
    for (int s = 0; s < 2; s++) {
      for (int c = 0; c < 2; c++) {
        t[s][c] = run(s == 1, c == 1);
        lines.add(String.format(Locale.ROOT,
            "enable_sparse=%s coalesce=%s: %.1f messages and %.1f kB per cycle (both ranks),"
                + " field arenas %.1f kB at the end", s == 1, c == 1,
            t[s][c].messages() / 31.0, t[s][c].bytes() / 31.0 / 1000.0,
            t[s][c].arenaBytes() / 1000.0));
      }
    }
    lines.forEach(System.out::println);
    assertTrue(t[1][0].bytes() < t[0][0].bytes(), lines.toString());
    assertEquals(t[0][1].bytes(), t[1][1].bytes(), lines.toString());
    assertTrue(t[1][1].arenaBytes() < t[0][1].arenaBytes(), lines.toString());
  }
}
