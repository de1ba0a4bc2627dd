package org.metope.tasking;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class PoolProgressTest {

  /**
   * GIVEN a producer that computes for longer than a window before it answers, THEN the wait
   * lasts until the answer: elapsed time alone never fails it.
   */
  @Test
  void givenAProducerBusyForLongerThanAWindow_thenTheWaitEndsWithItsAnswer() throws Exception {
    AtomicBoolean answered = new AtomicBoolean();
    long busyNanos = PoolProgress.WINDOW.toNanos() * 3 / 2;
    Thread producer = new Thread(() -> {
      long start = System.nanoTime();
      double x = 0;
      while (System.nanoTime() - start < busyNanos) {
        x += Math.sqrt(x + 1);
      }
      answered.set(x > 0);
    }, "busy-producer");
    producer.start();
    PoolProgress.until("the busy producer", List.of(producer), answered::get);
    producer.join();
    assertTrue(answered.get());
  }

  /** GIVEN a wait for something no thread will do (its producer is parked), THEN it fails. */
  @Test
  void givenAParkedProducer_thenTheWaitFailsOnItsLackOfProgress() throws Exception {
    Object never = new Object();
    Thread parked = new Thread(() -> {
      synchronized (never) {
        try {
          never.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }, "parked-producer");
    parked.start();
    try {
      AssertionError e = assertThrows(AssertionError.class,
          () -> PoolProgress.until("nothing", List.of(parked), () -> false));
      assertTrue(e.getMessage().startsWith("waited for nothing, but the other pool threads (1) used "),
          e.getMessage());
    } finally {
      parked.interrupt();
      parked.join();
    }
  }
}
