package org.metope.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class WorkerPoolTest {
  @Test
  void givenThreeThreadsAndTwelveParts_whenRunManyTimes_thenEachPartRunsOnceEachTime() {
    AtomicIntegerArray runs = new AtomicIntegerArray(12);
    int[] partsSeen = new int[12];
    try (WorkerPool pool = new WorkerPool(3, 12, "test-pool")) {
      for (int i = 0; i < 500; i++) {
        pool.run((part, parts) -> {
          runs.incrementAndGet(part);
          partsSeen[part] = parts;
        });
        for (int p = 0; p < 12; p++) {
          assertEquals(i + 1, runs.get(p), "part " + p + " after run " + i);
        }
      }
    }
    for (int p = 0; p < 12; p++) {
      assertEquals(12, partsSeen[p]);
    }
  }

  @Test
  void givenAFailingPart_whenRun_thenTheCallerSeesTheFailureAndTheNextRunSucceeds() {
    try (WorkerPool pool = new WorkerPool(2, 4, "test-pool")) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> pool.run(
          (part, parts) -> {
            if (part == 3) {
              throw new IllegalStateException("part=3");
            }
          }));
      assertEquals("part=3", e.getMessage());
      int[] done = new int[4];
      pool.run((part, parts) -> done[part] = 1);
      assertArrayEquals(new int[] {1, 1, 1, 1}, done);
    }
  }

  @Test
  void givenAClosedPoolOrTooFewParts_whenUsed_thenItRefuses() {
    WorkerPool pool = new WorkerPool(2, 2, "test-pool");
    pool.close();
    assertThrows(IllegalStateException.class, () -> pool.run((part, parts) -> { }));
    assertThrows(IllegalArgumentException.class, () -> new WorkerPool(1, 1, "test-pool"));
    assertThrows(IllegalArgumentException.class, () -> new WorkerPool(3, 2, "test-pool"));
  }
}
