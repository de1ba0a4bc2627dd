package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * What a warm cycle of the advection example allocates on the driver's thread, the whole cycle
 * from one post-step hook to the next: the step's task lists, the time step, the refinement
 * check and the outputs due. 512 blocks of 8^3 in 8 partitions, one thread; or with the middle
 * blocks refined one level (static refinement: no remesh, no allocation change).
 */
class AdvectionCycleAllocationTest {
  private static final int CYCLES = 260;
  private static final int WARM = 100;
  private static final int WINDOW = 50;
  private static final int CELLS = 32 * 32 * 32;

  @TempDir Path dir;
  /** The mesh's blocks at the last cycle. */
  private int blocks;

  @Test
  void givenWarmCyclesWithoutOutputs_thenAStepAllocatesNothing() {
    long bytes = quietestWindow("parthenon/output3/dt=-1");
    // Measured 0. One 16-byte object a cycle would be 800 bytes in every window; building the
    // packs per launch, as before partitions kept them, was 5,872 bytes a cycle.
    assertTrue(bytes < 16 * WINDOW, bytes + " bytes in " + WINDOW + " cycles");
  }

  @Test
  void givenStaticRefinementWithoutOutputs_thenAStepAllocatesNothing() {
    // The middle 2^3 blocks refined: restriction, prolongation and flux correction every stage.
    long bytes = quietestWindow("parthenon/output3/dt=-1", "parthenon/mesh/refinement=static",
        "parthenon/mesh/numlevel=2", "parthenon/static_refinement0/x1min=-0.1",
        "parthenon/static_refinement0/x1max=0.1", "parthenon/static_refinement0/x2min=-0.1",
        "parthenon/static_refinement0/x2max=0.1", "parthenon/static_refinement0/x3min=-0.1",
        "parthenon/static_refinement0/x3max=0.1", "parthenon/static_refinement0/level=1");
    assertEquals(64 - 8 + 64, blocks, "the middle 2^3 blocks refined");
    // Measured 0 on 120 blocks. Cloning the prolongation subset per launch, a path the uniform
    // mesh never takes, gives 121,600 bytes in 50 cycles.
    assertTrue(bytes < 16 * WINDOW, bytes + " bytes in " + WINDOW + " cycles");
  }

  @Test
  void givenAHistoryRecordEveryCycle_thenItAllocatesPerBlockNotPerCell() {
    long bytes = quietestWindow("parthenon/output3/dt=1e-9");
    // Measured 83 KB a cycle: views and sums per block and column. Anything per cell is at least
    // 8 bytes a cell, 262 KB a cycle; StrictMath.pow's scratch arrays were 3.2 MB.
    assertTrue(bytes < 8L * CELLS * WINDOW, bytes / WINDOW + " bytes a cycle");
  }

  /** The fewest bytes allocated in a window of {@link #WINDOW} cycles after the warm-up. */
  private long quietestWindow(String history, String... more) {
    long[] stamps = new long[CYCLES];
    int[] seen = {0};
    var app = HookedAdvection.withPostStepHook((mesh, pin, tm) -> {
      stamps[seen[0]++] = SteadyAllocation.allocatedBytes();
      blocks = mesh.totalBlocks();
    });
    List<String> deck = new ArrayList<>(List.of("parthenon/time/nlim=" + CYCLES,
        "parthenon/time/tlim=100", "parthenon/time/ncycle_out=100000",
        "parthenon/mesh/nx1=32", "parthenon/mesh/nx2=32", "parthenon/mesh/nx3=32",
        "parthenon/meshblock/nx1=8", "parthenon/meshblock/nx2=8", "parthenon/meshblock/nx3=8",
        "parthenon/mesh/pack_size=64", "parthenon/output0/dt=-1", history));
    deck.addAll(List.of(more));
    ParameterInput pin = ParameterInput.load(Path.of("../inputs/advection.in"), deck);
    PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    ApplicationRunner.simulate(app, new ApplicationRunner.Launch(pin, RunOptions.of(dir, out),
        out, InProcessCluster.singleRank(), InOneBoundaryCommunication::fromInput));
    assertTrue(seen[0] == CYCLES, seen[0] + " cycles");
    // Windows from cycle 100 to 150, 150 to 200 and 200 to 250.
    return SteadyAllocation.fewestBytes(stamps, seen[0], WARM, WINDOW);
  }
}
