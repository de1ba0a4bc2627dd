package org.metope.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class WorkerPoolTest {
  @Test
  void givenAPoolOfThree_whenRunManyTimes_thenEachPartRunsOnceEachTime() {
    AtomicIntegerArray runs = new AtomicIntegerArray(3);
    int[] partsSeen = new int[3];
    try (WorkerPool pool = new WorkerPool(3, "test-pool")) {
      for (int i = 0; i < 500; i++) {
        pool.run((part, parts) -> {
          runs.incrementAndGet(part);
          partsSeen[part] = parts;
        });
      }
    }
    for (int p = 0; p < 3; p++) {
      assertEquals(500, runs.get(p));
    }
    assertArrayEquals(new int[] {3, 3, 3}, partsSeen);
  }

  @Test
  void givenAFailingWorker_whenRun_thenTheCallerSeesTheFailureAndTheNextRunSucceeds() {
    try (WorkerPool pool = new WorkerPool(2, "test-pool")) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> pool.run(
          (part, parts) -> {
            if (part == 1) {
              throw new IllegalStateException("part=1");
            }
          }));
      assertEquals("part=1", e.getMessage());
      int[] done = new int[2];
      pool.run((part, parts) -> done[part] = 1);
      assertArrayEquals(new int[] {1, 1}, done);
    }
  }

  @Test
  void givenAClosedPool_whenRun_thenItRefuses() {
    WorkerPool pool = new WorkerPool(2, "test-pool");
    pool.close();
    assertThrows(IllegalStateException.class, () -> pool.run((part, parts) -> { }));
    assertThrows(IllegalArgumentException.class, () -> new WorkerPool(1, "test-pool"));
  }
}
