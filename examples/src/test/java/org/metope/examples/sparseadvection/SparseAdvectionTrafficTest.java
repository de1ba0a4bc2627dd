package org.metope.examples.sparseadvection;

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
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessRun;
import org.metope.mesh.Mesh;
import org.metope.mesh.input.ParameterInput;

/**
 * What sparse allocation saves on sparse_advection (Parthenon's deck cut to {@code tlim = 0.1},
 * 31 cycles, 2 in-process ranks): values sent between the ranks per cycle in both message modes,
 * the field arenas and the boundary-buffer arenas, with {@code enable_sparse} on and off. Prints
 * the figures quoted in docs/PERFORMANCE.md ("Sparse fields"); the counts are deterministic, so
 * they do not depend on the machine's load.
 *
 * <p>Both message modes put only the data of channels that send data on the wire: per channel an
 * unallocated or negligible sender sends an empty message, in a coalesced message it costs one
 * flag bit. So with sparse on both modes send the same values, the coalesced messages adding only
 * their headers and flag words.
 */
class SparseAdvectionTrafficTest {
  private static final int CYCLES = 31;
  /** Doubles of a coalesced message's header (fingerprint, sequence, count). */
  private static final int HEADER = 3;
  /** Channel flags per flag word of a coalesced message. */
  private static final int FLAGS_PER_WORD = 52;

  @TempDir Path dir;

  private record Traffic(long messages, long bytes, long arenaBytes, long bufferBytes) {}

  private Traffic run(boolean sparse, boolean coalesce) throws IOException {
    Path out = Files.createTempDirectory(dir, "t");
    String deck = Files.readString(SparseAdvectionRuns.resource("sparse.in"));
    List<String> overrides = List.of("parthenon/time/tlim=0.1", "parthenon/output0/dt=-1",
        "parthenon/output1/dt=-1", "parthenon/sparse/enable_sparse=" + sparse,
        "parthenon/comm/coalesce=" + coalesce);
    AtomicLong messages = new AtomicLong();
    AtomicLong bytes = new AtomicLong();
    AtomicLong arena = new AtomicLong();
    AtomicLong buffers = new AtomicLong();
    InProcessRun.run(2, world -> {
      CountingCommunicator comm = new CountingCommunicator(world);
      ParameterInput pin = ParameterInput.parse("sparse.in", deck, overrides);
      InOneBoundaryCommunication[] bc = new InOneBoundaryCommunication[1];
      Mesh mesh = SparseAdvectionRuns.run(pin, out, comm, p -> {
        bc[0] = InOneBoundaryCommunication.fromInput(p);
        return bc[0];
      }).mesh();
      messages.addAndGet(comm.messages());
      bytes.addAndGet(comm.bytes());
      arena.addAndGet((long) mesh.fields().data().length * Double.BYTES);
      buffers.addAndGet((long) bc[0].bufferArenaLength() * Double.BYTES);
    });
    return new Traffic(messages.get(), bytes.get(), arena.get(), buffers.get());
  }

  @Test
  void givenSparseOnAndOff_thenBothMessageModesSendOnlyWhatIsAllocated() throws IOException {
    List<String> lines = new ArrayList<>();
    Traffic[][] t = new Traffic[2][2];
    for (int s = 0; s < 2; s++) {
      for (int c = 0; c < 2; c++) {
        t[s][c] = run(s == 1, c == 1);
        lines.add(String.format(Locale.ROOT,
            "enable_sparse=%s coalesce=%s: %.1f messages and %.1f kB per cycle (both ranks),"
                + " field arenas %.1f kB, buffer arenas %.1f kB at the end", s == 1, c == 1,
            t[s][c].messages() / (double) CYCLES, t[s][c].bytes() / (double) CYCLES / 1000.0,
            t[s][c].arenaBytes() / 1000.0, t[s][c].bufferBytes() / 1000.0));
      }
    }
    lines.forEach(System.out::println);
    for (int c = 0; c < 2; c++) {
      assertTrue(t[1][c].bytes() < t[0][c].bytes() / 4, "coalesce=" + (c == 1) + lines);
    }
    assertTrue(t[1][1].arenaBytes() < t[0][1].arenaBytes(), lines.toString());
    // Both modes flag the same channels (the same sends, the same allocation), so coalescing
    // adds to the per-channel values only its headers and flag words: per message the header and
    // one word per 52 of its channels, which each appear among the per-channel messages.
    for (int s = 0; s < 2; s++) {
      long extra = t[s][1].bytes() - t[s][0].bytes();
      long bound = Double.BYTES * ((HEADER + 1) * t[s][1].messages()
          + t[s][0].messages() / FLAGS_PER_WORD);
      assertTrue(extra > 0 && extra <= bound, "sparse=" + (s == 1) + ": coalescing added "
          + extra + " bytes, at most " + bound + " expected; " + lines);
    }
  }
}
