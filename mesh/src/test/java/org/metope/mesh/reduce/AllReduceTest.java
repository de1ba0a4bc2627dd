package org.metope.mesh.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.comm.Communicator;
import org.metope.comm.GlobalOrderSum;
import org.metope.comm.InProcessRun;
import org.metope.comm.ReduceOp;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskStatus;

/**
 * Task reductions on 1 to 13 in-process ranks, checked against the communicator's own blocking
 * collectives and {@link GlobalOrderSum} (independent implementations of the same orders), with
 * values whose sum depends on the order of addition; and the messages each rank sends and
 * receives per reduction, bounded by the binomial tree's {@code 2 ceil(log2 P)}, a bound the
 * rank-0 star the tree replaced breaks (the negative control).
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

  @ParameterizedTest(name = "{0} ranks")
  @ValueSource(ints = {3, 5, 8, 13})
  void givenRankCountsNotPowersOfTwo_thenBlockOrderSumsAndRankOrderFoldsKeepTheirBits(int p) {
    InProcessRun.run(p, world -> {
      int[] gids = roundRobin(world);
      double[] values = new double[gids.length];
      for (int b = 0; b < gids.length; b++) {
        values[b] = BLOCK_VALUES[gids[b]];
      }
      AllReduce blocks = new AllReduce(world, "blocks", 1);
      blocks.startInBlockOrder(ReduceOp.SUM, gids, values, BLOCK_VALUES.length);
      poll(blocks);
      assertEquals(GlobalOrderSum.sumInGlobalBlockOrder(world, gids, values, 1)[0],
          blocks.value());
      for (ReduceOp op : ReduceOp.values()) {
        Reduce toLast = new Reduce(world, "to_last_" + op, 1, world.size() - 1);
        toLast.contribution()[0] = contribution(world.rank());
        toLast.startReduce(op);
        poll(toLast);
        double expected = world.allreduce(contribution(world.rank()), op);
        if (world.rank() == world.size() - 1) {
          assertEquals(expected, toLast.value(), "op=" + op + " ranks=" + p);
        }
      }
    });
  }

  @ParameterizedTest(name = "{0} ranks")
  @ValueSource(ints = {2, 3, 4, 5, 8, 13})
  void givenReductions_thenEveryRankSendsAndReceivesLogarithmicallyManyMessages(int p) {
    AtomicLongArray messages = new AtomicLongArray(p);
    InProcessRun.run(p, plain -> {
      Communicator world = counting(plain, messages);
      int[] gids = roundRobin(world);
      double[] values = new double[gids.length];
      AllReduce blocks = new AllReduce(world, "blocks", 1);
      blocks.startInBlockOrder(ReduceOp.SUM, gids, values, BLOCK_VALUES.length);
      poll(blocks);
      Reduce toOne = new Reduce(world, "to_one", 2, 1);
      toOne.startReduce(ReduceOp.MAX);
      poll(toOne);
    });
    for (int r = 0; r < p; r++) {
      assertTrue(logarithmic(messages.get(r) / 2.0, p), "rank " + r + " of " + p + ": "
          + messages.get(r) + " messages in 2 reductions");
    }
  }

  /** The negative control: the rank-0 star through the same counting breaks the same bound. */
  @ParameterizedTest(name = "{0} ranks")
  @ValueSource(ints = {8, 13})
  void givenTheRankZeroStarTheTreeReplaced_thenTheBoundRejectsIt(int p) {
    AtomicLongArray messages = new AtomicLongArray(p);
    InProcessRun.run(p, plain -> {
      Communicator world = counting(plain, messages).duplicate();
      double[] value = {world.rank()};
      if (world.rank() == 0) {
        double[] other = new double[1];
        for (int r = 1; r < p; r++) {
          world.irecv(other, 0, 1, r, 0).waitFor();
          value[0] += other[0];
        }
        for (int r = 1; r < p; r++) {
          world.isend(value, 0, 1, r, 0).waitFor();
        }
      } else {
        world.isend(value, 0, 1, 0, 0).waitFor();
        world.irecv(value, 0, 1, 0, 0).waitFor();
      }
    });
    assertEquals(2L * (p - 1), messages.get(0), "the star's messages at rank 0");
    assertTrue(!logarithmic(messages.get(0), p), "the bound must reject the star: "
        + messages.get(0));
  }

  private static boolean logarithmic(double messagesPerReduction, int p) {
    return messagesPerReduction <= 2 * (32 - Integer.numberOfLeadingZeros(p - 1));
  }

  /**
   * {@code world}, counting into {@code messages[rank]} every send and receive it or any of its
   * duplicates posts (a proxy: every call goes to the rank's own communicator).
   */
  private static Communicator counting(Communicator world, AtomicLongArray messages) {
    return (Communicator) Proxy.newProxyInstance(Communicator.class.getClassLoader(),
        new Class<?>[] {Communicator.class}, (proxy, method, args) -> {
          String name = method.getName();
          if (name.equals("isend") || name.equals("irecv")) {
            messages.incrementAndGet(world.rank());
          }
          Object result;
          try {
            result = method.invoke(world, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          return name.equals("duplicate") ? counting((Communicator) result, messages) : result;
        });
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
