package org.metope.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Without MPJ the world is one in-process rank, created once. */
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
}
