package org.metope.tasking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FailureAndStallTest {

  @Test
  void givenFailingTask_thenCollectionStopsNamingTaskAndList() {
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(2);
    boolean[] ranAfter = {false};
    TaskId f = region.get(1).addTask(TaskId.NONE, "compute_fluxes", () -> TaskStatus.FAIL);
    region.get(1).addTask(f, "after", () -> {
      ranAfter[0] = true;
      return TaskStatus.COMPLETE;
    });
    region.get(0).addTask(TaskId.NONE, "fine", () -> TaskStatus.COMPLETE);
    TaskFailureException e = assertThrows(TaskFailureException.class, tc::execute);
    assertEquals("task 'compute_fluxes' in list 'region0[1]' returned FAIL", e.getMessage());
    assertFalse(ranAfter[0]);
  }

  @Test
  void givenThrowingTask_thenFailureWrapsCauseAndNamesTask() {
    TaskCollection tc = new TaskCollection();
    tc.addRegion(1).get(0).addTask(TaskId.NONE, "boom", () -> {
      throw new IllegalStateException("bad state");
    });
    TaskFailureException e = assertThrows(TaskFailureException.class, tc::execute);
    assertTrue(e.getMessage().startsWith("task 'boom' in list 'region0[0]' threw"), e.getMessage());
    assertTrue(e.getCause() instanceof IllegalStateException);
  }

  @Test
  void givenIterateOutsideAGroup_thenFailure() {
    TaskCollection tc = new TaskCollection();
    tc.addRegion(1).get(0).addTask(TaskId.NONE, "odd", () -> TaskStatus.ITERATE);
    TaskFailureException e = assertThrows(TaskFailureException.class, tc::execute);
    assertTrue(e.getMessage().contains("not the completion task"), e.getMessage());
  }

  @Test
  void givenTaskThatNeverCompletes_thenStallReportListsPendingTasksAndWhatTheyWaitOn() {
    TaskCollection tc = new TaskCollection().stallTimeout(Duration.ofMillis(200));
    TaskList tl = tc.addRegion(1).get(0);
    TaskId recv = tl.addTask(TaskId.NONE, "receive_bound_bufs", () -> TaskStatus.INCOMPLETE);
    TaskId done = tl.addTask(TaskId.NONE, "done", () -> TaskStatus.COMPLETE);
    tl.addTask(recv.and(done), "set_bounds", () -> TaskStatus.COMPLETE);
    long start = System.nanoTime();
    TaskStallException e = assertThrows(TaskStallException.class, tc::execute);
    long elapsedMs = (System.nanoTime() - start) / 1_000_000;
    String msg = e.getMessage();
    // The first line, all a multi-rank launcher relays, names the task that waits on a message,
    // not the one that waits on it in turn.
    String first = msg.lines().findFirst().orElse("");
    assertEquals("no task made progress for 200 ms; waiting: task 'receive_bound_bufs' in list"
        + " 'region0[0]', which returned INCOMPLETE; pending tasks:", first);
    assertFalse(first.contains("set_bounds"), first);
    assertTrue(msg.contains("task 'receive_bound_bufs': ready, last returned INCOMPLETE"), msg);
    assertTrue(msg.contains("task 'set_bounds': waiting on 'receive_bound_bufs'"), msg);
    assertFalse(msg.contains("'done'"), msg);
    assertTrue(elapsedMs >= 200, "stalled after " + elapsedMs + " ms");
  }

  @Test
  void givenRegionalTaskMissingInOneList_thenStallReportSaysItWaitsForOtherLists() {
    TaskCollection tc = new TaskCollection().stallTimeout(Duration.ofMillis(100));
    TaskRegion region = tc.addRegion(2);
    region.get(0).addRegionalTask(TaskId.NONE, "reduce", () -> TaskStatus.COMPLETE);
    region.get(1).addRegionalTask(TaskId.NONE, "reduce", () -> TaskStatus.INCOMPLETE);
    TaskStallException e = assertThrows(TaskStallException.class, tc::execute);
    assertTrue(e.getMessage().contains(
        "list 'region0[0]' task 'reduce': regional, completed here, waiting"), e.getMessage());
  }

  /**
   * A stall timeout below a millisecond (a deck's {@code recv_bdry_buf_timeout_sec = 1e-9}) is
   * said in nanoseconds, not as 0 ms; the waiting task is found in whichever list holds it, and
   * says what it waits for ({@link Task#waitingFor}).
   */
  @Test
  void givenATimeoutBelowAMillisecond_thenTheReportSaysItInNanoseconds() {
    TaskCollection tc = new TaskCollection().stallTimeout(Duration.ofNanos(1));
    TaskRegion region = tc.addRegion(2);
    region.get(0).addTask(TaskId.NONE, "quick", () -> TaskStatus.COMPLETE);
    region.get(1).addTask(TaskId.NONE, "never", new Task() {
      @Override
      public TaskStatus run() {
        return TaskStatus.INCOMPLETE;
      }

      @Override
      public String waitingFor() {
        return "a message from rank 3";
      }
    });
    TaskStallException e = assertThrows(TaskStallException.class, tc::execute);
    String first = e.getMessage().lines().findFirst().orElse("");
    assertEquals("no task made progress for 1 ns; waiting: task 'never' in list 'region0[1]'"
        + " (waiting for a message from rank 3), which returned INCOMPLETE; pending tasks:",
        first);
  }
}
