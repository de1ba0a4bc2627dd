package org.metope.mesh.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.metope.comm.Communicator;
import org.metope.comm.GlobalOrderSum;
import org.metope.comm.InProcessRun;
import org.metope.comm.ReduceOp;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskStatus;

/**
 * Task reductions on 1, 2 and 4 in-process ranks, checked against the communicator's own
 * blocking collectives and {@link GlobalOrderSum} (independent implementations of the same
 * orders), with values whose sum depends on the order of addition.
 */
class AllReduceTest {
  /** Block values whose sum changes with the order of addition (1e16 swallows a 1.0). */
  private static final double[] BLOCK_VALUES = {1e16, 1.0, -1e16, 1.0, 3.0, 1e-3, -2.5, 1e16,
      1.0, -1e16, 0.25, 7.0};

  private static void poll(TaskReduction reduction) {
    while (reduction.checkReduce() == TaskStatus.INCOMPLETE) {
      Thread.onSpinWait();
    }
  }

  private static double contribution(int rank) {
    return BLOCK_VALUES[(3 * rank) % BLOCK_VALUES.length] * (rank + 1);
  }

  @Test
  void givenEachRanksValue_thenEveryRankGetsTheRankOrderFoldOfTheCollective() {
    for (int ranks : new int[] {1, 2, 4}) {
      for (ReduceOp op : ReduceOp.values()) {
        InProcessRun.run(ranks, world -> {
          AllReduce reduction = new AllReduce(world, "x", 2);
          reduction.contribution()[0] = contribution(world.rank());
          reduction.contribution()[1] = -world.rank();
          assertEquals(TaskStatus.COMPLETE, reduction.startReduce(op));
          poll(reduction);
          double[] expected = {contribution(world.rank()), -world.rank()};
          world.allreduce(expected, op);
          assertEquals(expected[0], reduction.result()[0], "ranks=" + ranks + " op=" + op);
          assertEquals(expected[1], reduction.result()[1], "ranks=" + ranks + " op=" + op);
        });
      }
    }
  }

  @Test
  void givenARankThatStartsLate_thenTheCheckIsIncompleteUntilThenAndNeverBlocks() {
    CountDownLatch polledEarly = new CountDownLatch(1);
    InProcessRun.run(2, world -> {
      AllReduce reduction = new AllReduce(world, "late", 1);
      reduction.contribution()[0] = world.rank() + 1.0;
      if (world.rank() == 1) {
        awaitQuietly(polledEarly);
      }
      reduction.startReduce(ReduceOp.SUM);
      if (world.rank() == 0) {
        for (int n = 0; n < 100; n++) {
          assertEquals(TaskStatus.INCOMPLETE, reduction.checkReduce());
        }
        polledEarly.countDown();
      }
      poll(reduction);
      assertEquals(3.0, reduction.value());
    });
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** This rank's gids when 12 blocks are dealt round-robin (not contiguous) over the ranks. */
  private static int[] roundRobin(Communicator world) {
    int n = (BLOCK_VALUES.length - world.rank() + world.size() - 1) / world.size();
    int[] gids = new int[n];
    for (int b = 0; b < n; b++) {
      gids[b] = world.rank() + b * world.size();
    }
    return gids;
  }

  @Test
  void givenPerBlockValues_thenTheSumIsTheGlobalOrderSumWithTheSameBitsOnAnyRankCount() {
    double[] sums = new double[3];
    double[] partialSums = new double[3];
    int[] rankCounts = {1, 2, 4};
    for (int c = 0; c < rankCounts.length; c++) {
      final int slot = c;
      InProcessRun.run(rankCounts[c], world -> {
        int[] gids = roundRobin(world);
        double[] values = new double[gids.length];
        double partial = 0.0;
        for (int b = 0; b < gids.length; b++) {
          values[b] = BLOCK_VALUES[gids[b]];
          partial += values[b];
        }
        AllReduce blocks = new AllReduce(world, "blocks", 1);
        blocks.startInBlockOrder(ReduceOp.SUM, gids, values, BLOCK_VALUES.length);
        poll(blocks);
        double reference = GlobalOrderSum.sumInGlobalBlockOrder(world, gids, values, 1)[0];
        assertEquals(reference, blocks.value(), "ranks=" + world.size());
        AllReduce ranks = new AllReduce(world, "partials", 1);
        ranks.contribution()[0] = partial;
        ranks.startReduce(ReduceOp.SUM);
        poll(ranks);
        if (world.rank() == 0) {
          sums[slot] = blocks.value();
          partialSums[slot] = ranks.value();
        }
      });
    }
    assertEquals(sums[0], sums[1]);
    assertEquals(sums[0], sums[2]);
    // The control: adding per-rank partial sums gives other bits on other rank counts.
    assertNotEquals(partialSums[0], partialSums[2]);
  }

  @Test
  void givenAReduceToRankOne_thenOnlyRankOneHasTheResult() {
    InProcessRun.run(4, world -> {
      Reduce reduction = new Reduce(world, "max_rank", 1, 1);
      reduction.contribution()[0] = world.rank();
      reduction.startReduce(ReduceOp.MAX);
      poll(reduction);
      assertEquals(world.rank() == 1 ? 3.0 : 0.0, reduction.value());
    });
  }

  @Test
  void givenRanksIssuingReductionsInDifferentOrders_thenOneLineSaysSo() {
    IllegalStateException e = assertThrows(IllegalStateException.class, () ->
        InProcessRun.run(2, world -> {
          AllReduce first = new AllReduce(world, world.rank() == 0 ? "mass" : "norm", 1);
          first.startReduce(ReduceOp.SUM);
          poll(first);
        }));
    assertTrue(e.getMessage().startsWith("reduction 'mass' (call 1, SUM of 1) on rank 0 met "
        + "another collective from rank 1"), e.getMessage());
    assertTrue(e.getMessage().endsWith("collectives in task lists must be issued in the same order "
        + "on every rank"), e.getMessage());
  }

  /**
   * GIVEN two reductions started and checked by tasks of one list (Parthenon's poisson example:
   * total mass and a maximum rank), with other work between start and check, THEN both results
   * are right on every rank, repeatedly, on 2 and 4 ranks.
   */
  @Test
  void givenReductionsAsTasks_thenTheListCompletesWithBothResultsOnEveryRank() {
    for (int ranks : new int[] {2, 4}) {
      InProcessRun.run(ranks, world -> {
        AllReduce mass = new AllReduce(world, "total_mass", 1);
        AllReduce maxRank = new AllReduce(world, "max_rank", 1);
        int[] between = {0};
        TaskCollection tc = new TaskCollection();
        TaskList tl = tc.addRegion(1).get(0);
        TaskId startMass = tl.addTask(TaskId.NONE, "start_mass", () -> {
          mass.contribution()[0] = 0.5 * (world.rank() + 1);
          return mass.startReduce(ReduceOp.SUM);
        });
        TaskId startRank = tl.addTask(TaskId.NONE, "start_rank", () -> {
          maxRank.contribution()[0] = world.rank();
          return maxRank.startReduce(ReduceOp.MAX);
        });
        tl.addTask(startMass, "work", () -> {
          between[0]++;
          return TaskStatus.COMPLETE;
        });
        tl.addTask(startMass, "check_mass", mass::checkReduce);
        tl.addTask(startRank, "check_rank", maxRank::checkReduce);
        for (int repeat = 0; repeat < 3; repeat++) {
          tc.execute();
          assertEquals(0.25 * world.size() * (world.size() + 1), mass.value());
          assertEquals(world.size() - 1.0, maxRank.value());
        }
        assertEquals(3, between[0]);
      });
    }
  }
}
