package org.metope.tasking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskListTest {

  private static Task record(List<String> log, String name) {
    return () -> {
      log.add(name);
      return TaskStatus.COMPLETE;
    };
  }

  /** Returns INCOMPLETE {@code misses} times, then COMPLETE; logs each call. */
  private static Task lateTask(List<String> log, String name, int misses) {
    int[] calls = {0};
    return () -> {
      log.add(name + "#" + calls[0]);
      return calls[0]++ < misses ? TaskStatus.INCOMPLETE : TaskStatus.COMPLETE;
    };
  }

  @Test
  void givenDependencies_thenTasksRunAfterWhatTheyDependOn() {
    List<String> log = new ArrayList<>();
    TaskCollection tc = new TaskCollection();
    TaskList tl = tc.addRegion(1).get(0);
    // Added in an order opposite to the dependency order of c on a and b.
    TaskId a = tl.addTask(TaskId.NONE, "a", record(log, "a"));
    TaskId b = tl.addTask(a, "b", record(log, "b"));
    tl.addTask(a.and(b), "c", record(log, "c"));
    tl.addTask(TaskId.NONE, "d", record(log, "d"));
    tc.execute();
    assertEquals(List.of("a", "b", "c", "d"), log);
  }

  @Test
  void givenIncompleteTask_thenLaterIndependentTasksStillRunInTheSamePass() {
    List<String> log = new ArrayList<>();
    TaskCollection tc = new TaskCollection();
    TaskList tl = tc.addRegion(1).get(0);
    TaskId recv = tl.addTask(TaskId.NONE, "recv", lateTask(log, "recv", 2));
    tl.addTask(TaskId.NONE, "compute", record(log, "compute"));
    tl.addTask(recv, "use", record(log, "use"));
    tc.execute();
    assertEquals(List.of("recv#0", "compute", "recv#1", "recv#2", "use"), log);
  }

  @Test
  void givenRegion_thenListsAdvanceRoundRobin() {
    List<String> log = new ArrayList<>();
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(2);
    // List 0 waits for a message; list 1 computes in the meantime.
    TaskId w = region.get(0).addTask(TaskId.NONE, "wait", lateTask(log, "L0.wait", 1));
    region.get(0).addTask(w, "after", record(log, "L0.after"));
    TaskId c1 = region.get(1).addTask(TaskId.NONE, "c1", lateTask(log, "L1.c1", 0));
    region.get(1).addTask(c1, "c2", lateTask(log, "L1.c2", 1));
    tc.execute();
    assertEquals(List.of("L0.wait#0", "L1.c1#0", "L1.c2#0", "L0.wait#1", "L0.after", "L1.c2#1"), log);
  }

  @Test
  void givenRegionalTask_thenDependentsWaitUntilEveryListCompletedIt() {
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(3);
    double[] partial = new double[3];
    double[] seen = new double[3];
    for (int i = 0; i < 3; i++) {
      final int list = i;
      // List i needs i extra passes before its partial sum is ready.
      int[] calls = {0};
      TaskId reduce = region.get(i).addRegionalTask(TaskId.NONE, "partial", () -> {
        if (calls[0]++ < list) {
          return TaskStatus.INCOMPLETE;
        }
        partial[list] = list + 1.0;
        return TaskStatus.COMPLETE;
      });
      region.get(i).addTask(reduce, "use", () -> {
        seen[list] = partial[0] + partial[1] + partial[2];
        return TaskStatus.COMPLETE;
      });
    }
    tc.execute();
    for (double s : seen) {
      assertEquals(6.0, s);
    }
  }

  @Test
  void givenListsWithDifferentRegionalTasks_thenExecutionIsRefused() {
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(2);
    region.get(0).addRegionalTask(TaskId.NONE, "r", () -> TaskStatus.COMPLETE);
    region.get(1).addTask(TaskId.NONE, "r", () -> TaskStatus.COMPLETE);
    IllegalStateException e = assertThrows(IllegalStateException.class, tc::execute);
    assertTrue(e.getMessage().contains("regional"), e.getMessage());
  }

  @Test
  void givenRegions_thenTheyRunInSequence() {
    List<String> log = new ArrayList<>();
    TaskCollection tc = new TaskCollection();
    TaskRegion first = tc.addRegion(1);
    TaskRegion second = tc.addRegion(1);
    second.get(0).addTask(TaskId.NONE, "s", record(log, "second"));
    first.get(0).addTask(TaskId.NONE, "f", lateTask(log, "first", 2));
    tc.execute();
    assertEquals(List.of("first#0", "first#1", "first#2", "second"), log);
  }

  @Test
  void givenCollectionExecutedTwice_thenEveryTaskRunsAgain() {
    List<String> log = new ArrayList<>();
    TaskCollection tc = new TaskCollection();
    TaskList tl = tc.addRegion(1).get(0);
    TaskId a = tl.addTask(TaskId.NONE, "a", record(log, "a"));
    tl.addTask(a, "b", record(log, "b"));
    tc.execute();
    tc.execute();
    assertEquals(List.of("a", "b", "a", "b"), log);
  }

  @Test
  void givenIdsOfAnotherList_thenAddingIsRefused() {
    TaskRegion region = new TaskCollection().addRegion(2);
    TaskId foreign = region.get(1).addTask(TaskId.NONE, "x", () -> TaskStatus.COMPLETE);
    TaskList tl = region.get(0);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> tl.addTask(foreign, "y", () -> TaskStatus.COMPLETE));
    assertTrue(e.getMessage().contains("region0[1]"), e.getMessage());
    TaskId own = tl.addTask(TaskId.NONE, "z", () -> TaskStatus.COMPLETE);
    assertThrows(IllegalArgumentException.class, () -> own.and(foreign));
  }

  @Test
  void givenAnd_thenDuplicatesAndEmptyIdsCollapse() {
    TaskList tl = new TaskCollection().addRegion(1).get(0);
    TaskId a = tl.addTask(TaskId.NONE, "a", () -> TaskStatus.COMPLETE);
    TaskId b = tl.addTask(TaskId.NONE, "b", () -> TaskStatus.COMPLETE);
    assertEquals(a.and(b), b.and(a).and(a).and(TaskId.NONE));
    assertEquals(a, TaskId.NONE.and(a));
    assertTrue(TaskId.NONE.isEmpty());
  }
}
