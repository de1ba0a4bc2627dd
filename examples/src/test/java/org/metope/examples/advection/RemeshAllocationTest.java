package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.app.ApplicationRunner;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessCluster;
import org.metope.driver.RunOptions;
import org.metope.mesh.SteadyAllocation;
import org.metope.mesh.input.ParameterInput;

/**
 * What a remesh allocates on the driver's thread, per block of the new mesh, on Parthenon's 2D
 * adaptive deck (one rank, one thread, outputs off): the cycle from one post-step hook to the
 * next, which on a cycle that remeshed holds the remesh (plan, migration, new blocks and
 * storage, boundary set-up, ghost fill) and the driver's new task lists and time step.
 */
class RemeshAllocationTest {
  private static final int CYCLES = 300;

  @TempDir Path dir;

  @Test
  void givenRemeshes_thenEachAllocatesItsPlansAndBlocksButNoNewFieldArena() {
    long[] stamps = new long[CYCLES];
    int[] blocks = new int[CYCLES];
    boolean[] remeshed = new boolean[CYCLES];
    int[] seen = {0};
    long[] arenaBytes = {0};
    var app = HookedAdvection.withPostStepHook((mesh, pin, tm) -> {
      stamps[seen[0]] = SteadyAllocation.allocatedBytes();
      blocks[seen[0]] = mesh.totalBlocks();
      arenaBytes[0] = Math.max(arenaBytes[0],
          8L * mesh.fields().data().length / mesh.blocks().size());
      // The remesh after the previous cycle's step, if any, lies between the two hooks.
      remeshed[seen[0]++] = mesh.refinement().modified();
    });
    ParameterInput pin = ParameterInput.load(Path.of("../inputs/advection_amr_2d.in"),
        List.of("parthenon/time/nlim=" + CYCLES, "parthenon/time/ncycle_out_mesh=0",
            "parthenon/time/ncycle_out=100000"));
    PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    ApplicationRunner.simulate(app, new ApplicationRunner.Launch(pin, RunOptions.of(dir, out),
        out, InProcessCluster.singleRank(), InOneBoundaryCommunication::fromInput));
    assertTrue(seen[0] == CYCLES, seen[0] + " cycles");
    long[] perBlock = new long[CYCLES];
    long[] quiet = new long[CYCLES];
    int remeshes = 0;
    int quietCycles = 0;
    // The first 50 cycles warm up (the JIT's one-off allocations).
    for (int c = 50; c < CYCLES; c++) {
      long bytes = stamps[c] - stamps[c - 1];
      if (remeshed[c]) {
        perBlock[remeshes++] = bytes / blocks[c];
      } else {
        quiet[quietCycles++] = bytes;
      }
    }
    assertTrue(remeshes >= 10 && quietCycles >= 10, remeshes + " remeshes, " + quietCycles
        + " cycles without");
    // Control: a cycle without a remesh allocates next to nothing (measured 3,432 bytes: the
    // refinement votes), so the bytes of a cycle that remeshed are the remesh's.
    long quietMedian = median(quiet, quietCycles);
    assertTrue(quietMedian < 8192, quietMedian + " bytes in a median cycle without a remesh");
    // Measured a median of 19,870 bytes per block (2.3 MB on 118 blocks): about a third each
    // for the boundary set-up (channels), the first ghost fill (boundary tables, task lists) and
    // the new blocks, neighbours and storage objects. The field arena is reused: one allocated
    // anew would add its own size, up to 28,783 bytes per block on this run, to every remesh.
    long median = median(perBlock, remeshes);
    assertTrue(median < arenaBytes[0], median + " bytes per block in a median remesh, more than"
        + " the field arena's " + arenaBytes[0]);
    assertTrue(median < 24 * 1024, median + " bytes per block in a median remesh");
  }

  private static long median(long[] values, int count) {
    long[] sorted = Arrays.copyOf(values, count);
    Arrays.sort(sorted);
    return sorted[count / 2];
  }
}
