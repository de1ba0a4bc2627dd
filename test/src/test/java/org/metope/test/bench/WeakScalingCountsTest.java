package org.metope.test.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.test.RepoPaths;

/**
 * The counts of {@link WeakScaling} on a mesh small enough to count by hand: the uniform 3D deck
 * on 2 ranks, 2 x 2 x 2 periodic blocks of 16^3 cells, {@code nghost = 2}, rk2. Rank 0 holds the
 * blocks of the lower z layer, rank 1 those of the upper one, so every neighbour of a block with
 * a z offset (9 below, 9 above, through the periodic wrap) is on the other rank and every other
 * neighbour on its own: per block 2 faces of 16 x 16 x 2 cells, 8 edges of 16 x 2 x 2 and 8
 * corners of 2 x 2 x 2, 1600 cells in 18 channels; per rank 6400 cells in 72 channels.
 */
class WeakScalingCountsTest {
  /** The harness gives 2 ranks 4 x 2 x 2 blocks; halving x1 leaves 2 x 2 x 2. */
  private static final List<String> HALF = List.of("parthenon/mesh/nx1=32");
  private static final int CYCLES = 2;
  private static final int STAGES = 2;
  private static final int CHANNELS = 4 * 18;
  private static final int CELLS = 4 * (2 * 16 * 16 * 2 + 8 * 16 * 2 * 2 + 8 * 2 * 2 * 2);

  private static WeakScaling.Study uniform() {
    return new WeakScaling.Study("uniform",
        RepoPaths.inputs().resolve("advection.in").toString(), 16, List.of("parthenon/output0/dt=100"));
  }

  private static long perCycle(WeakScaling.Counts setup, WeakScaling.Counts timed, int rank,
      TrafficKind kind, boolean bytes) {
    RankTraffic a = timed.ranks()[rank];
    RankTraffic b = setup.ranks()[rank];
    long d = bytes ? a.bytes[kind.ordinal()] - b.bytes[kind.ordinal()]
        : a.messages[kind.ordinal()] - b.messages[kind.ordinal()];
    return d / CYCLES;
  }

  @Test
  void givenTwoRanksOfFourBlocks_whenCoalesced_thenOneMessagePerStageOfEveryGhostCell()
      throws IOException {
    WeakScaling.Counts setup = WeakScaling.run(uniform(), 2, 0, HALF);
    WeakScaling.Counts timed = WeakScaling.run(uniform(), 2, CYCLES, HALF);
    for (int rank = 0; rank < 2; rank++) {
      assertEquals(4, timed.blocks()[rank]);
      assertEquals(STAGES, perCycle(setup, timed, rank, TrafficKind.BOUNDARY, false));
      // One message holds every channel's cells behind a header of 3 doubles and the channels'
      // flags, 52 to a double (72 channels: two).
      assertEquals(STAGES * 8L * (CELLS + 3 + 2),
          perCycle(setup, timed, rank, TrafficKind.BOUNDARY, true));
      assertEquals(0, perCycle(setup, timed, rank, TrafficKind.FLUX_CORRECTION, false));
      assertEquals(0, perCycle(setup, timed, rank, TrafficKind.REMESH, false));
      assertEquals(1, timed.ranks()[rank].peerCount());
    }
  }

  @Test
  void givenTwoRanksOfFourBlocks_whenOneMessagePerChannel_thenOneMessagePerChannelAndStage()
      throws IOException {
    List<String> perChannel = List.of(HALF.get(0), "parthenon/comm/coalesce=false");
    WeakScaling.Counts setup = WeakScaling.run(uniform(), 2, 0, perChannel);
    WeakScaling.Counts timed = WeakScaling.run(uniform(), 2, CYCLES, perChannel);
    for (int rank = 0; rank < 2; rank++) {
      assertEquals(STAGES * CHANNELS, perCycle(setup, timed, rank, TrafficKind.BOUNDARY, false));
      assertEquals(STAGES * 8L * CELLS, perCycle(setup, timed, rank, TrafficKind.BOUNDARY, true));
      // Tags of a rank pair are dense, one per channel (both directions share one).
      assertEquals(CHANNELS - 1, timed.ranks()[rank].maxTag);
    }
  }

  /**
   * A cycle's reductions (time step, wall-time check) are one collective: with a wall-time limit
   * and no history output in the counted cycles, each rank makes one collective per cycle on the
   * world communicator (two before they were merged, which fails this test).
   */
  @Test
  void givenAWallTimeLimit_thenEachCycleMakesOneCollective() throws IOException {
    List<String> noHistory = List.of(HALF.get(0), "parthenon/output3/dt=100");
    WeakScaling.Counts setup = WeakScaling.run(uniform(), 2, 0, noHistory, true);
    WeakScaling.Counts timed = WeakScaling.run(uniform(), 2, CYCLES, noHistory, true);
    for (int rank = 0; rank < 2; rank++) {
      long collectives = timed.ranks()[rank].collectives[TrafficKind.WORLD.ordinal()]
          - setup.ranks()[rank].collectives[TrafficKind.WORLD.ordinal()];
      assertEquals(CYCLES, collectives, "collectives on the world in " + CYCLES + " cycles, rank "
          + rank);
    }
  }
}
