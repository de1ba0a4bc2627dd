package org.metope.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/**
 * The ranks of an MPJ multicore run meeting in one in-JVM cluster: the ranks of a run share it,
 * another run never sees it, and progress, aborts and the final barrier work as the MPJ entry
 * needs them.
 */
class SharedMemoryRankTest {
  private static final String LABEL = "MPJ Express multicore";

  private static SharedMemoryRank[] join(long run, int size) {
    SharedMemoryRank[] ranks = new SharedMemoryRank[size];
    for (int r = size - 1; r >= 0; r--) {
      ranks[r] = SharedMemoryRank.join(run, r, size, LABEL);
    }
    return ranks;
  }

  @Test
  void givenTheRanksOfOneRun_thenAMessageReachesThePeerAndEachCountsItsOperation() {
    SharedMemoryRank[] ranks = join(SharedMemoryRank.newRun(), 2);
    Request send = ranks[0].world().isend(new double[] {42}, 0, 1, 1, 7);
    double[] into = new double[1];
    Request receive = ranks[1].world().irecv(into, 0, 1, 0, 7);
    assertTrue(send.test() && receive.test());
    assertEquals(42, into[0]);
    assertEquals(1, ranks[0].completedOperations());
    assertEquals(1, ranks[1].completedOperations());
    assertEquals("MPJ Express multicore, 2 ranks, in-JVM messages, communicator 0",
        ranks[1].world().describe());
  }

  @Test
  void givenTwoRunsOfTheSameSize_thenTheSecondSeesNoMessageOfTheFirst() {
    long first = SharedMemoryRank.newRun();
    long second = SharedMemoryRank.newRun();
    assertNotEquals(first, second);
    SharedMemoryRank[] old = join(first, 2);
    old[0].world().isend(new double[] {1, 2, 3}, 0, 3, 1, 5);
    assertEquals(3, old[1].world().iprobe(0, 5), "the first run's own rank sees the message");
    SharedMemoryRank[] fresh = join(second, 2);
    assertEquals(-1, fresh[1].world().iprobe(0, 5));
  }

  @Test
  void givenARankJoiningTwice_thenItIsRefused() {
    long run = SharedMemoryRank.newRun();
    SharedMemoryRank.join(run, 0, 2, LABEL);
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> SharedMemoryRank.join(run, 0, 2, LABEL));
    assertTrue(e.getMessage().contains("rank 0 cannot join run " + run + ": it has joined"),
        e.getMessage());
    e = assertThrows(IllegalStateException.class, () -> SharedMemoryRank.join(run, 1, 3, LABEL));
    assertTrue(e.getMessage().contains("the run has 2 ranks, not 3"), e.getMessage());
  }

  @Test
  void givenARankThatAborts_thenThePeerInTheFinalBarrierStopsWithItsReason() throws Exception {
    SharedMemoryRank[] ranks = join(SharedMemoryRank.newRun(), 2);
    CompletableFuture<Void> finishing = CompletableFuture.runAsync(ranks[1]::finish);
    ranks[0].abortQuietly("rank 0 failed: staged");
    ranks[1].abortQuietly("rank 1 failed: later");
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> finished(finishing).get());
    CommAbortedException abort = (CommAbortedException) e.getCause();
    assertEquals(0, abort.originRank());
    assertEquals("rank 0 failed: staged", abort.reason(), "the first abort wins");
    assertThrows(CommAbortedException.class, () -> ranks[0].world().iprobe(1, 0));
  }

  @Test
  void givenBothRanksFinishing_thenTheBarrierReturnsOnBoth() throws Exception {
    SharedMemoryRank[] ranks = join(SharedMemoryRank.newRun(), 2);
    CompletableFuture<Void> other = CompletableFuture.runAsync(ranks[1]::finish);
    ranks[0].finish();
    finished(other).get();
    assertEquals(1, ranks[0].completedOperations());
  }

  /** {@code future} once done; fails when this JVM stops making progress first. */
  private static <T> CompletableFuture<T> finished(CompletableFuture<T> future)
      throws InterruptedException {
    String stalled = ProgressDeadline.untilHere(Duration.ofSeconds(60), future::isDone);
    assertNull(stalled, "the other rank did not finish: " + stalled);
    return future;
  }
}
