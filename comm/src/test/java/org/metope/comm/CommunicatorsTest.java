package org.metope.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Without MPJ the world is one in-process rank, created once; an installed world belongs to the
 * installing thread and the threads it starts, as MPJ multicore ranks sharing one JVM need.
 */
class CommunicatorsTest {

  @Test
  void givenNoInstalledWorld_thenTheWorldIsOneInProcessRankAndCannotBeReplaced() {
    Communicator world = Communicators.world();
    assertSame(world, Communicators.world());
    assertEquals(0, world.rank());
    assertEquals(1, world.size());
    assertEquals(1.5, world.allreduce(1.5, ReduceOp.SUM));
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> Communicators.install(InProcessCluster.singleRank()));
    assertTrue(e.getMessage().startsWith("a world communicator is already in use: world="
        + "in-process, 1 rank"), e.getMessage());
  }

  @Test
  void givenTwoRankThreadsThatInstallTheirWorlds_thenEachThreadAndItsChildrenSeeOnlyItsOwn() {
    Communicator[] installed = new Communicator[2];
    Communicator[] seen = new Communicator[4];
    InProcessRun.run(2, world -> {
      int rank = world.rank();
      Communicators.install(world);
      installed[rank] = world;
      seen[rank] = Communicators.world();
      Thread child = new Thread(() -> seen[2 + rank] = Communicators.world());
      child.start();
      try {
        child.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    for (int r = 0; r < 2; r++) {
      assertSame(installed[r], seen[r], "rank thread " + r);
      assertSame(installed[r], seen[2 + r], "a thread that rank " + r + " started");
    }
    assertEquals(0, seen[0].rank());
    assertEquals(1, seen[1].rank());
  }
}
