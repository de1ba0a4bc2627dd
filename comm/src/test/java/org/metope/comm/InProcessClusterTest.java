package org.metope.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;

/** Failure behaviour, abort propagation and allocation of the in-process backend. */
class InProcessClusterTest {

  @Test
  void givenRankThrows_thenRanksBlockedInReceiveAreAbortedAndRunRethrowsTheOriginal() {
    AtomicReferenceArray<Throwable> seen = new AtomicReferenceArray<>(3);
    IllegalStateException thrown = assertThrows(IllegalStateException.class,
        () -> InProcessRun.run(3, c -> {
          if (c.rank() == 1) {
            throw new IllegalStateException("boom on rank 1");
          }
          try {
            c.irecv(new double[1], 0, 1, 1, 0).waitFor();
          } catch (CommAbortedException e) {
            seen.set(c.rank(), e);
            throw e;
          }
        }));
    assertEquals("boom on rank 1", thrown.getMessage());
    for (int r : new int[] {0, 2}) {
      CommAbortedException e = assertInstanceOf(CommAbortedException.class, seen.get(r));
      assertEquals(1, e.originRank());
      assertTrue(e.getMessage().contains("boom on rank 1"), e.getMessage());
    }
    assertEquals(2, thrown.getSuppressed().length);
  }

  @Test
  void givenAbort_thenEveryCallOnEveryRankThrowsIncludingNonBlockingOnes() {
    AtomicInteger aborted = new AtomicInteger();
    CommAbortedException thrown = assertThrows(CommAbortedException.class,
        () -> InProcessRun.run(2, c -> {
          Request pending = c.irecv(new double[1], 0, 1, 0, 5);
          c.barrier();
          if (c.rank() == 0) {
            c.abort("deck error in line 3");
          }
          try {
            while (!pending.test()) {
              Thread.onSpinWait();
            }
          } catch (CommAbortedException e) {
            assertThrows(CommAbortedException.class, () -> c.iprobe(0, 5));
            assertThrows(CommAbortedException.class, () -> c.isend(new double[1], 0, 1, 0, 5));
            assertThrows(CommAbortedException.class, c::barrier);
            aborted.incrementAndGet();
            throw e;
          }
        }));
    assertEquals(0, thrown.originRank());
    assertEquals("run aborted by rank 0: deck error in line 3", thrown.getMessage());
    assertEquals(1, aborted.get());
  }

  @Test
  void givenRanksBlockedInACollective_thenAbortReleasesThem() {
    assertThrows(CommAbortedException.class, () -> InProcessRun.run(4, c -> {
      if (c.rank() == 3) {
        c.abort("rank 3 gives up");
      }
      c.allreduce(1.0, ReduceOp.SUM);
    }));
  }

  @Test
  void givenDeadlock_thenTheTimeLimitEndsTheRunAndNamesTheStuckRanks() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> InProcessRun.run(2, Duration.ofMillis(200), c -> {
          if (c.rank() == 1) {
            c.irecv(new double[1], 0, 1, 0, 1).waitFor();
          }
        }));
    assertTrue(e.getMessage().contains("ranks still running=[1]"), e.getMessage());
  }

  /** A rank that never joins an allgather (a dead link) ends the run after the stall timeout. */
  @Test
  void givenARankMissingFromACollective_thenTheStallTimeoutAbortsNamingIt() {
    CommAbortedException e = assertThrows(CommAbortedException.class,
        () -> InProcessRun.run(3, c -> {
          c.setStallTimeout(Duration.ofMillis(300));
          if (c.rank() == 2) {
            c.irecv(new double[1], 0, 1, 0, 1).waitFor();
          }
          c.allgather(new double[] {c.rank()});
        }));
    assertTrue(e.getMessage().matches("run aborted by rank [01]: rank [01] waited 0\\.[3-9] s in a "
        + "collective for allgather, receiving from rank 2 \\(the stall timeout, "
        + "recv_bdry_buf_timeout_sec\\)"), e.getMessage());
  }

  /** The line names every rank missing from the collective, and the collective as MPJ's does. */
  @Test
  void givenTwoRanksMissingFromABarrier_thenTheStallTimeoutNamesBoth() {
    CommAbortedException e = assertThrows(CommAbortedException.class,
        () -> InProcessRun.run(3, c -> {
          c.setStallTimeout(Duration.ofMillis(300));
          if (c.rank() != 0) {
            c.irecv(new double[1], 0, 1, 0, 1).waitFor();
          }
          c.barrier();
        }));
    assertTrue(e.getMessage().matches("run aborted by rank 0: rank 0 waited 0\\.[3-9] s in a "
        + "collective for barrier, receiving from ranks 1, 2 \\(the stall timeout, "
        + "recv_bdry_buf_timeout_sec\\)"), e.getMessage());
  }

  @Test
  void givenRanksCallingDifferentCollectives_thenBothCallsAreNamed() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> InProcessRun.run(2, c -> {
          if (c.rank() == 0) {
            c.allreduce(new double[3], ReduceOp.SUM);
          } else {
            c.barrier();
          }
        }));
    assertTrue(e.getMessage().contains("rank 0 called ALLREDUCE_DOUBLE op=SUM length=3"),
        e.getMessage());
    assertTrue(e.getMessage().contains("rank 1 called BARRIER"), e.getMessage());
  }

  @Test
  void givenRequestOfAnotherCluster_thenItIsRejected() {
    Communicator a = InProcessCluster.singleRank();
    Communicator b = InProcessCluster.singleRank();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> b.isend(a.newRequest(), new double[1], 0, 1, 0, 0));
    assertTrue(e.getMessage().contains("does not belong"), e.getMessage());
  }

  @Test
  void givenSteadyExchangeWithReusedRequests_thenNothingIsAllocatedPerMessage() {
    int warmup = 3000;
    int measured = 2000;
    AtomicLong[] allocated = {new AtomicLong(), new AtomicLong()};
    InProcessRun.run(2, c -> {
      int peer = 1 - c.rank();
      double[] out = new double[64];
      double[] in = new double[64];
      Request[] sends = new Request[4];
      Request[] recvs = new Request[4];
      for (int k = 0; k < 4; k++) {
        sends[k] = c.newRequest();
        recvs[k] = c.newRequest();
      }
      com.sun.management.ThreadMXBean bean =
          (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
      long before = 0;
      for (int step = 0; step < warmup + measured; step++) {
        if (step == warmup) {
          before = bean.getCurrentThreadAllocatedBytes();
        }
        for (int k = 0; k < 4; k++) {
          c.irecv(recvs[k], in, 16 * k, 16, peer, k);
          c.isend(sends[k], out, 16 * k, 16, peer, k);
        }
        for (int k = 0; k < 4; k++) {
          recvs[k].waitFor();
          sends[k].waitFor();
        }
        c.allreduce(1.0, ReduceOp.MAX);
      }
      allocated[c.rank()].set(bean.getCurrentThreadAllocatedBytes() - before);
    });
    for (AtomicLong bytes : allocated) {
      assertTrue(bytes.get() < 4096, "bytes allocated in " + measured + " steady steps of 8 "
          + "messages and one allreduce: " + bytes.get());
    }
  }

  /**
   * A stall's line says how long the rank waited in a way a short deck timeout can read: tenths
   * of a second from 0.1 s, two significant digits below (before, 1e-4 s printed as 0.0 s).
   */
  @Test
  void givenWaitsLongAndShort_thenTheStallLineSaysThemReadably() {
    assertEquals("2.5 s", CollectiveRendezvous.seconds(2_500_000_000L));
    assertEquals("0.1 s", CollectiveRendezvous.seconds(100_000_000L));
    assertEquals("0.00010 s", CollectiveRendezvous.seconds(100_000L));
    assertEquals("1.0e-09 s", CollectiveRendezvous.seconds(1L));
  }
}
