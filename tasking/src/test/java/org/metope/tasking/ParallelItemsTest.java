package org.metope.tasking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class ParallelItemsTest {

  @Test
  void givenTwoThreads_thenEveryItemRunsExactlyOnce() {
    try (TaskThreadPool pool = new TaskThreadPool(2)) {
      for (int count : new int[] {1, 2, 7, 8, 9, 1000}) {
        AtomicIntegerArray runs = new AtomicIntegerArray(count);
        ParallelItems.forEach(pool, count, runs::incrementAndGet);
        for (int i = 0; i < count; i++) {
          assertEquals(1, runs.get(i), "count=" + count + " item=" + i);
        }
      }
    }
  }

  /**
   * Item 0 waits for item 1, which only another thread can run while item 0 waits: it completes
   * only if the items really run on two threads at once. Negative control: on the calling thread
   * alone, item 0 waits in vain.
   */
  @Test
  void givenTwoThreads_thenItemsRunAtTheSameTime() throws InterruptedException {
    try (TaskThreadPool pool = new TaskThreadPool(2)) {
      assertTrue(secondItemRanWhileFirstWaited(pool, 10));
    }
    assertFalse(secondItemRanWhileFirstWaited(null, 0));
  }

  private static boolean secondItemRanWhileFirstWaited(TaskThreadPool pool, long seconds) {
    CountDownLatch second = new CountDownLatch(1);
    boolean[] seen = new boolean[1];
    ParallelItems.forEach(pool, 2, i -> {
      if (i == 1) {
        second.countDown();
        return;
      }
      try {
        seen[0] = second.await(seconds, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    return seen[0];
  }

  @Test
  void givenNoPool_thenItemsRunInOrderOnTheCallingThread() {
    List<Integer> order = new ArrayList<>();
    Thread caller = Thread.currentThread();
    ParallelItems.forEach(null, 5, i -> {
      assertSame(caller, Thread.currentThread());
      order.add(i);
    });
    assertEquals(List.of(0, 1, 2, 3, 4), order);
    ParallelItems.forEach(null, 0, i -> order.add(-1));
    assertEquals(5, order.size());
  }

  @Test
  void givenAnItemThatThrows_thenTheExceptionReachesTheCaller() {
    try (TaskThreadPool pool = new TaskThreadPool(2)) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> ParallelItems.forEach(pool, 16, i -> {
            if (i == 11) {
              throw new IllegalStateException("item 11");
            }
          }));
      assertEquals("item 11", e.getMessage());
    }
  }
}
