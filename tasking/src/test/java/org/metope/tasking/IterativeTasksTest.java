package org.metope.tasking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

  /**
   * GIVEN a group that never converges, set to report its limit, followed by a task outside it,
   * THEN the collection completes after exactly max_iterations sweeps, the task after the group
   * runs once, and the group says it reached its limit; a second execution that converges clears
   * it. (With the default {@code FAIL} the same group fails, as the test above shows.)
   */
  @Test
  void givenGroupReportingItsLimit_thenCollectionCompletesAndLimitIsReported() {
    TaskCollection tc = new TaskCollection();
    TaskList tl = tc.addRegion(1).get(0);
    int[] sweeps = {0};
    int[] after = {0};
    boolean[] converge = {false};
    IterativeTasks group = tl.addIteration("poisson").maxIterations(5).checkInterval(2)
        .atLimit(IterativeTasks.AtLimit.REPORT);
    TaskId s = group.addTask(TaskId.NONE, "sweep", () -> {
      sweeps[0]++;
      return TaskStatus.COMPLETE;
    });
    TaskId done = group.setCompletionTask(s, "check",
        () -> converge[0] ? TaskStatus.COMPLETE : TaskStatus.ITERATE);
    tl.addTask(done, "after", () -> {
      after[0]++;
      return TaskStatus.COMPLETE;
    });
    tc.execute();
    assertEquals(5, sweeps[0]);
    assertEquals(1, after[0]);
    assertTrue(group.limitReached());
    assertEquals(5, group.iterations());
    converge[0] = true;
    tc.execute();
    assertFalse(group.limitReached());
    assertEquals(2, group.iterations());
  }

  @Test
  void givenGroupWithoutCompletionTask_thenExecutionIsRefused() {
    TaskCollection tc = new TaskCollection();
    TaskList tl = tc.addRegion(1).get(0);
    tl.addIteration("g").addTask(TaskId.NONE, "sweep", () -> TaskStatus.COMPLETE);
    IllegalStateException e = assertThrows(IllegalStateException.class, tc::execute);
    assertTrue(e.getMessage().contains("no completion task"), e.getMessage());
  }

  /**
   * A global convergence check over the lists of a region: each list's partial residual halves
   * per iteration from its own start, the first list sums the partials, and every list's
   * completion reads the sum. The sums of every iteration are known in closed form, so a reduce
   * that ran before every list wrote its partial shows as a wrong sum.
   */
  private static void regionalConvergence(int lists, TaskThreadPool pool) {
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(lists);
    double[] partial = new double[lists];
    double[] global = {0.0};
    List<Double> sums = new ArrayList<>();
    int[][] iterationsSeen = new int[lists][1];
    IterativeTasks[] groups = new IterativeTasks[lists];
    for (int p = 0; p < lists; p++) {
      final int list = p;
      TaskList tl = region.get(p);
      IterativeTasks solve = tl.addIteration("solve").maxIterations(100);
      groups[p] = solve;
      TaskId local = solve.addRegionalTask(TaskId.NONE, "partial_residual", () -> {
        iterationsSeen[list][0]++;
        partial[list] = (list + 1) * Math.pow(0.5, iterationsSeen[list][0]);
        return TaskStatus.COMPLETE;
      });
      TaskId reduce = solve.addRegionalTask(local, "global_residual", () -> {
        if (list == 0) {
          double sum = 0.0;
          for (double r : partial) {
            sum += r;
          }
          global[0] = sum;
          sums.add(sum);
        }
        return TaskStatus.COMPLETE;
      });
      solve.setCompletionTask(reduce, "converged",
          () -> global[0] < 1e-3 ? TaskStatus.COMPLETE : TaskStatus.ITERATE);
    }
    if (pool == null) {
      tc.execute();
    } else {
      tc.execute(pool);
    }
    double total = lists * (lists + 1) / 2.0;
    int expected = (int) Math.ceil(Math.log(total / 1e-3) / Math.log(2.0));
    assertEquals(expected, sums.size());
    for (int k = 1; k <= expected; k++) {
      assertEquals(total * Math.pow(0.5, k), sums.get(k - 1), 1e-15 * total, "iteration " + k);
    }
    for (int p = 0; p < lists; p++) {
      assertEquals(expected, groups[p].iterations(), "list " + p);
      assertEquals(expected, iterationsSeen[p][0], "list " + p);
    }
  }

  @Test
  void givenRegionalTasksInAnIterativeGroup_thenEveryIterationReducesOverAllLists() {
    regionalConvergence(1, null);
    regionalConvergence(3, null);
  }

  @Test
  void givenRegionalTasksInAnIterativeGroupOnThreads_thenTheSameIterations() {
    try (TaskThreadPool pool = new TaskThreadPool(3)) {
      for (int run = 0; run < 20; run++) {
        regionalConvergence(4, pool);
      }
    }
  }
}
