package org.metope.tasking;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.StampedLock;
import org.junit.jupiter.api.Test;

class TaskThreadPoolTest {

  /**
   * Builds a two-region collection over {@code nlists} partitions of a small 1D diffusion problem:
   * region 1 updates every partition and reduces a regional sum in fixed order; region 2 rescales
   * by that sum. Some tasks return INCOMPLETE a data-dependent number of times.
   */
  private static TaskCollection build(double[][] data, double[] partial, double[] total) {
    TaskCollection tc = new TaskCollection();
    int n = data.length;
    TaskRegion update = tc.addRegion(n);
    for (int p = 0; p < n; p++) {
      final int part = p;
      int[] calls = {0};
      TaskList tl = update.get(p);
      TaskId wait = tl.addTask(TaskId.NONE, "wait",
          () -> calls[0]++ < (part * 7) % 5 ? TaskStatus.INCOMPLETE : TaskStatus.COMPLETE);
      TaskId smooth = tl.addTask(wait, "smooth", () -> {
        double[] u = data[part];
        for (int sweep = 0; sweep < 50; sweep++) {
          for (int i = 1; i < u.length - 1; i++) {
            u[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
          }
        }
        return TaskStatus.COMPLETE;
      });
      TaskId sum = tl.addRegionalTask(smooth, "partial_sum", () -> {
        double s = 0;
        for (double v : data[part]) {
          s += v;
        }
        partial[part] = s;
        return TaskStatus.COMPLETE;
      });
      tl.addTask(sum, "total", () -> {
        double s = 0;
        for (double v : partial) { // fixed order, whatever thread finished first
          s += v;
        }
        total[part] = s;
        return TaskStatus.COMPLETE;
      });
    }
    TaskRegion scale = tc.addRegion(n);
    for (int p = 0; p < n; p++) {
      final int part = p;
      scale.get(p).addTask(TaskId.NONE, "scale", () -> {
        for (int i = 0; i < data[part].length; i++) {
          data[part][i] /= total[part];
        }
        return TaskStatus.COMPLETE;
      });
    }
    return tc;
  }

  /**
   * Workers that wait for {@code hold} before their loop, as the operating system may hold a
   * thread behind the JIT compiler or another process.
   */
  private static ThreadFactory heldBack(CountDownLatch hold) {
    return body -> new Thread(() -> {
      try {
        hold.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      body.run();
    });
  }

  private static double[][] initial(int nlists) {
    double[][] data = new double[nlists][200];
    for (int p = 0; p < nlists; p++) {
      for (int i = 0; i < 200; i++) {
        data[p][i] = Math.sin(0.37 * i + p) + 1.5;
      }
    }
    return data;
  }

  @Test
  void givenThreads_thenResultsAreBitIdenticalToSerial() {
    int nlists = 7;
    double[][] serial = initial(nlists);
    double[] sp = new double[nlists];
    double[] st = new double[nlists];
    TaskCollection serialTc = build(serial, sp, st);
    serialTc.execute();
    serialTc.execute();

    for (int threads : new int[] {2, 3, 8}) {
      double[][] threaded = initial(nlists);
      double[] tp = new double[nlists];
      double[] tt = new double[nlists];
      TaskCollection tc = build(threaded, tp, tt);
      try (TaskThreadPool pool = new TaskThreadPool(threads)) {
        tc.execute(pool);
        tc.execute(pool);
      }
      for (int p = 0; p < nlists; p++) {
        assertArrayEquals(serial[p], threaded[p], "threads=" + threads + " list=" + p);
      }
      assertArrayEquals(st, tt);
    }
  }

  @Test
  void givenFailureOnAWorkerThread_thenCallerGetsItAndOtherThreadsStop() {
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(4);
    for (int p = 0; p < 4; p++) {
      final int part = p;
      TaskId r = region.get(p).addRegionalTask(TaskId.NONE, "reduce",
          () -> part == 3 ? TaskStatus.FAIL : TaskStatus.COMPLETE);
      region.get(p).addTask(r, "after", () -> TaskStatus.COMPLETE);
    }
    try (TaskThreadPool pool = new TaskThreadPool(2)) {
      TaskFailureException e = assertThrows(TaskFailureException.class, () -> tc.execute(pool));
      assertEquals("task 'reduce' in list 'region0[3]' returned FAIL", e.getMessage());
      // The pool stays usable after a failure.
      TaskCollection ok = new TaskCollection();
      int[] ran = {0};
      TaskRegion r2 = ok.addRegion(3);
      for (int p = 0; p < 3; p++) {
        r2.get(p).addTask(TaskId.NONE, "t", () -> {
          synchronized (ran) {
            ran[0]++;
          }
          return TaskStatus.COMPLETE;
        });
      }
      ok.execute(pool);
      assertEquals(3, ran[0]);
    }
  }

  /**
   * GIVEN a task that writes an array it read before another thread's task moves the array
   * (copies it into a larger one, as a sparse allocation grows the field arena), THEN with the
   * move in {@link TaskThreadPool#runExclusive} the write is in the new array: the writer writes
   * once the mover waits at the pool's gate, and the move waits until the writer's pass ends.
   * (With runExclusive reduced to {@code action.run()}, the mover copies at once, the writer
   * writes the old array, and the 42 is lost: this test fails so.)
   */
  @Test
  void givenAnArrayMovedWhileAnotherTaskWritesIt_whenMovedExclusively_thenNoWriteIsLost() {
    AtomicReference<double[]> arena = new AtomicReference<>(new double[4]);
    AtomicBoolean writerRead = new AtomicBoolean();
    AtomicReference<Thread> mover = new AtomicReference<>();
    Thread caller = Thread.currentThread();
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(2);
    region.get(0).addTask(TaskId.NONE, "kernel", () -> {
      double[] a = arena.get();
      writerRead.set(true);
      PoolProgress.until("the mover to wait at the gate (or to move)",
          PoolProgress.otherPoolThreads(caller),
          () -> arena.get() != a || waitsAtTheGate(mover.get()));
      a[0] = 42.0;
      return TaskStatus.COMPLETE;
    });
    region.get(1).addTask(TaskId.NONE, "allocate", () -> {
      PoolProgress.until("the writer to read the array", PoolProgress.otherPoolThreads(caller),
          writerRead::get);
      mover.set(Thread.currentThread());
      TaskThreadPool.runExclusive(() -> arena.set(Arrays.copyOf(arena.get(), 8)));
      return TaskStatus.COMPLETE;
    });
    try (TaskThreadPool pool = new TaskThreadPool(2)) {
      tc.execute(pool);
    }
    assertEquals(8, arena.get().length);
    assertEquals(42.0, arena.get()[0], "the write to the old array was lost");
  }

  /** The pool's gate is a {@link StampedLock}: {@code thread} is parked on it. */
  private static boolean waitsAtTheGate(Thread thread) {
    return thread != null && LockSupport.getBlocker(thread) instanceof StampedLock;
  }

  /** Outside a pool's tasks, and on a pool of one thread, the action runs at once. */
  @Test
  void givenNoConcurrentTasks_whenRunExclusive_thenTheActionRunsAtOnce() {
    int[] ran = {0};
    TaskThreadPool.runExclusive(() -> ran[0]++);
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(3);
    for (int p = 0; p < 3; p++) {
      region.get(p).addTask(TaskId.NONE, "t", () -> {
        TaskThreadPool.runExclusive(() -> ran[0]++);
        return TaskStatus.COMPLETE;
      });
    }
    try (TaskThreadPool pool = new TaskThreadPool(1)) {
      tc.execute(pool);
    }
    tc.execute();
    assertEquals(7, ran[0]);
  }

  /** Several tasks asking at once each get the array to themselves, one after the other. */
  @Test
  void givenManyTasksMovingAtOnce_thenEveryMoveAndEveryWriteSurvives() {
    int lists = 8;
    AtomicReference<double[]> arena = new AtomicReference<>(new double[lists]);
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(lists);
    for (int p = 0; p < lists; p++) {
      final int part = p;
      TaskId write = region.get(p).addTask(TaskId.NONE, "write", () -> {
        double[] a = arena.get();
        a[part] = part + 1;
        return TaskStatus.COMPLETE;
      });
      region.get(p).addTask(write, "grow", () -> {
        TaskThreadPool.runExclusive(
            () -> arena.set(Arrays.copyOf(arena.get(), arena.get().length + 1)));
        return TaskStatus.COMPLETE;
      });
    }
    try (TaskThreadPool pool = new TaskThreadPool(4)) {
      tc.execute(pool);
    }
    assertEquals(2 * lists, arena.get().length);
    for (int p = 0; p < lists; p++) {
      assertEquals(p + 1, arena.get()[p], "write of list " + p);
    }
  }

  /**
   * A thread whose own lists are done passes over a list that waits behind another thread's: with
   * 2 threads, list 0's task holds the thread that runs it (the caller, or the worker where it
   * joins first) until list 2's task has run, so only the other thread can run list 2. Without
   * that help list 2 waits behind list 0, and list 0's task fails once the other thread makes no
   * progress ({@link PoolProgress}).
   */
  @Test
  void givenAThreadHeldByOneOfItsLists_whenTheOtherThreadIsDone_thenItRunsTheWaitingList() {
    AtomicBoolean listTwoRan = new AtomicBoolean();
    Thread caller = Thread.currentThread();
    AtomicReference<Thread> holder = new AtomicReference<>();
    AtomicReference<Thread> listTwoThread = new AtomicReference<>();
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(3);
    region.get(0).addTask(TaskId.NONE, "hold", () -> {
      holder.set(Thread.currentThread());
      PoolProgress.until("list 2's task", PoolProgress.otherPoolThreads(caller), listTwoRan::get);
      return TaskStatus.COMPLETE;
    });
    region.get(1).addTask(TaskId.NONE, "quick", () -> TaskStatus.COMPLETE);
    region.get(2).addTask(TaskId.NONE, "release", () -> {
      listTwoThread.set(Thread.currentThread());
      listTwoRan.set(true);
      return TaskStatus.COMPLETE;
    });
    try (TaskThreadPool pool = new TaskThreadPool(2)) {
      tc.execute(pool);
    }
    assertTrue(holder.get() != listTwoThread.get(),
        "list 2 ran on " + listTwoThread.get().getName() + ", not on the held "
            + holder.get().getName());
  }

  /**
   * GIVEN a pool whose worker is not running (held before its loop, as the operating system may
   * hold it behind the JIT compiler or another process) and a region whose list 0, the caller's,
   * waits for list 1, the worker's, THEN the caller runs list 1 itself once its own list makes no
   * progress, and returns when every list is complete without waiting for the worker to join;
   * the held worker later skips the region it missed and runs the next one. (With a caller that
   * helps only once its own lists are complete, list 0 waits forever and the region stalls; with
   * a start barrier that waits for every worker, the caller parks and the wait below fails.)
   */
  @Test
  void givenAWorkerThatHasNotStarted_whenTheCallersListWaitsForItsList_thenTheCallerRunsBoth() {
    CountDownLatch hold = new CountDownLatch(1);
    ThreadFactory heldBack = heldBack(hold);
    AtomicBoolean listOneRan = new AtomicBoolean();
    AtomicReference<String> listOneThread = new AtomicReference<>();
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(2);
    region.get(0).addTask(TaskId.NONE, "wait_for_list_1",
        () -> listOneRan.get() ? TaskStatus.COMPLETE : TaskStatus.INCOMPLETE);
    region.get(1).addTask(TaskId.NONE, "list_1", () -> {
      listOneThread.compareAndSet(null, Thread.currentThread().getName());
      listOneRan.set(true);
      return TaskStatus.COMPLETE;
    });
    try (TaskThreadPool pool = new TaskThreadPool(2, heldBack)) {
      AtomicBoolean done = new AtomicBoolean();
      Thread caller = new Thread(() -> {
        tc.execute(pool);
        done.set(true);
      }, "region-caller");
      caller.start();
      PoolProgress.until("the caller to complete the region", List.of(caller), done::get);
      assertEquals("region-caller", listOneThread.get());

      hold.countDown();
      listOneRan.set(false);
      listOneThread.set(null);
      tc.execute(pool);
      assertTrue(listOneRan.get(), "the next region ran after the worker joined");
    }
  }

  /**
   * GIVEN a pool whose worker is held back and six lists, each waiting for the list before it (as
   * a partition waits for its neighbour's boundary message), THEN the caller alone passes over the
   * lists in the serial order, 0 to 5, so each list's task runs once and finds its predecessor
   * done. (With lists dealt out per thread, list {@code i} to thread {@code i mod 2}, the caller
   * passes over lists 0, 2 and 4 first, and lists 2 and 4 return INCOMPLETE.)
   */
  @Test
  void givenAWorkerThatHasNotStarted_thenTheCallerPassesOverTheListsInTheSerialOrder() {
    CountDownLatch hold = new CountDownLatch(1);
    ThreadFactory heldBack = heldBack(hold);
    int n = 6;
    boolean[] done = new boolean[n];
    int[] calls = new int[n];
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(n);
    for (int p = 0; p < n; p++) {
      final int part = p;
      region.get(p).addTask(TaskId.NONE, "after_" + (p - 1), () -> {
        calls[part]++;
        if (part > 0 && !done[part - 1]) {
          return TaskStatus.INCOMPLETE;
        }
        done[part] = true;
        return TaskStatus.COMPLETE;
      });
    }
    try (TaskThreadPool pool = new TaskThreadPool(2, heldBack)) {
      tc.execute(pool);
      hold.countDown();
    }
    assertArrayEquals(new int[] {1, 1, 1, 1, 1, 1}, calls);
  }

  /**
   * GIVEN a worker that joined a region and, after a sweep without progress, is held in its wait
   * between sweeps (as the operating system holds a thread that yielded its core to the JIT
   * compiler), THEN the caller completes the region and returns while the worker is still held;
   * released, the worker finds the region closed and leaves it, and the next execution runs. (With
   * a region end that waits for every joined worker to leave, the caller waits for the held
   * worker, which waits for the caller, and the test does not finish.)
   */
  @Test
  void givenAWorkerHeldBetweenSweeps_thenTheCallerEndsTheRegionWithoutIt() {
    Thread caller = Thread.currentThread();
    AtomicBoolean held = new AtomicBoolean();
    AtomicBoolean released = new AtomicBoolean();
    AtomicBoolean callerDone = new AtomicBoolean();
    TaskThreadPool.IdleWait holdOnce = (worker, idleSweeps) -> {
      if (worker == 1 && held.compareAndSet(false, true)) {
        PoolProgress.until("the caller to end the region", List.of(caller), callerDone::get);
        released.set(true);
      } else {
        LockSupport.parkNanos(20_000L);
      }
    };
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(2);
    for (int p = 0; p < 2; p++) {
      region.get(p).addTask(TaskId.NONE, "wait_for_the_held_worker",
          () -> held.get() ? TaskStatus.COMPLETE : TaskStatus.INCOMPLETE);
    }
    try (TaskThreadPool pool = new TaskThreadPool(2, Thread::new, holdOnce)) {
      tc.execute(pool);
      boolean returnedWhileHeld = held.get() && !released.get();
      callerDone.set(true);
      assertTrue(returnedWhileHeld, "the caller returned while the worker was held");
      PoolProgress.until("the worker to be released", PoolProgress.otherPoolThreads(caller),
          released::get);
      tc.execute(pool);
      assertTrue(region.allListsComplete(), "the next execution completed every list");
    }
  }
}
