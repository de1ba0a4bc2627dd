package org.metope.tasking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class IterativeTasksTest {

  /** Jacobi-like iteration: halves an error until below a tolerance. */
  @Test
  void givenConvergingGroup_thenItRepeatsUntilTheCheckCompletes() {
    TaskCollection tc = new TaskCollection();
    TaskList tl = tc.addRegion(1).get(0);
    double[] error = {1.0};
    int[] sweeps = {0};
    List<String> log = new ArrayList<>();
    TaskId setup = tl.addTask(TaskId.NONE, "setup", () -> {
      log.add("setup");
      return TaskStatus.COMPLETE;
    });
    IterativeTasks solver = tl.addIteration("solver").maxIterations(100);
    TaskId sweep = solver.addTask(setup, "sweep", () -> {
      sweeps[0]++;
      error[0] *= 0.5;
      return TaskStatus.COMPLETE;
    });
    TaskId check = solver.setCompletionTask(sweep, "check",
        () -> error[0] < 0.01 ? TaskStatus.COMPLETE : TaskStatus.ITERATE);
    tl.addTask(check, "after", () -> {
      log.add("after");
      return TaskStatus.COMPLETE;
    });
    tc.execute();
    assertEquals(7, sweeps[0]); // 0.5^7 = 0.0078 < 0.01 <= 0.5^6
    assertEquals(7, solver.iterations());
    assertEquals(List.of("setup", "after"), log);
  }

  @Test
  void givenCheckInterval_thenCompletionTaskIsCalledOnlyEveryNthIteration() {
    TaskCollection tc = new TaskCollection();
    TaskList tl = tc.addRegion(1).get(0);
    int[] sweeps = {0};
    List<Integer> checkedAt = new ArrayList<>();
    IterativeTasks group = tl.addIteration("g").maxIterations(50).checkInterval(3);
    TaskId s = group.addTask(TaskId.NONE, "sweep", () -> {
      sweeps[0]++;
      return TaskStatus.COMPLETE;
    });
    group.setCompletionTask(s, "check", () -> {
      checkedAt.add(sweeps[0]);
      return sweeps[0] >= 7 ? TaskStatus.COMPLETE : TaskStatus.ITERATE;
    });
    tc.execute();
    assertEquals(List.of(3, 6, 9), checkedAt);
    assertEquals(9, sweeps[0]);
  }

  @Test
  void givenGroupThatNeverConverges_thenErrorNamesGroupListAndLimit() {
    TaskCollection tc = new TaskCollection();
    TaskList tl = tc.addRegion(1).get(0);
    int[] sweeps = {0};
    IterativeTasks group = tl.addIteration("poisson").maxIterations(5).checkInterval(2);
    TaskId s = group.addTask(TaskId.NONE, "sweep", () -> {
      sweeps[0]++;
      return TaskStatus.COMPLETE;
    });
    group.setCompletionTask(s, "check", () -> TaskStatus.ITERATE);
    TaskFailureException e = assertThrows(TaskFailureException.class, tc::execute);
    assertEquals("iterative group 'poisson' in list 'region0[0]' did not converge within"
        + " max_iterations=5", e.getMessage());
    assertEquals(5, sweeps[0]);
  }

  @Test
  void givenGroupWithoutCompletionTask_thenExecutionIsRefused() {
    TaskCollection tc = new TaskCollection();
    TaskList tl = tc.addRegion(1).get(0);
    tl.addIteration("g").addTask(TaskId.NONE, "sweep", () -> TaskStatus.COMPLETE);
    IllegalStateException e = assertThrows(IllegalStateException.class, tc::execute);
    assertTrue(e.getMessage().contains("no completion task"), e.getMessage());
  }
}
