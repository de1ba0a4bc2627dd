package org.metope.tasking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * GIVEN lists whose partial residuals halve each iteration from different starts, THEN the check
 * combines them in list order every iteration (the sums are known in closed form), passes the
 * combined value through the rank reduction once per iteration, and every list stops in the
 * iteration where the global value first passes the test.
 */
class RegionalConvergenceTest {
  private static void converge(int lists, TaskThreadPool pool) {
    List<Double> acrossRanks = new ArrayList<>();
    RegionalConvergence check = new RegionalConvergence(lists, Double::sum, v -> {
      acrossRanks.add(v);
      return 2.0 * v; // stands for the sum over two ranks holding the same partials
    }, residual -> residual < 1e-3);
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(lists);
    IterativeTasks[] groups = new IterativeTasks[lists];
    for (int l = 0; l < lists; l++) {
      final int list = l;
      groups[l] = region.get(l).addIteration("solve").maxIterations(100);
      check.addCompletion(groups[l], TaskId.NONE, l,
          () -> (list + 1) * Math.pow(0.5, groups[list].iterations()));
    }
    tc.execute(pool);
    double total = 2.0 * lists * (lists + 1) / 2.0;
    int expected = (int) Math.ceil(Math.log(total / 1e-3) / Math.log(2.0));
    assertEquals(expected, acrossRanks.size());
    for (int k = 1; k <= expected; k++) {
      assertEquals(total / 2.0 * Math.pow(0.5, k), acrossRanks.get(k - 1), 1e-15 * total);
    }
    assertEquals(total * Math.pow(0.5, expected), check.value(), 1e-15 * total);
    for (IterativeTasks group : groups) {
      assertEquals(expected, group.iterations());
    }
  }

  @Test
  void givenSeveralListsSerialOrThreaded_thenOneGlobalValuePerIterationAndTheSameLastIteration() {
    converge(1, null);
    converge(5, null);
    try (TaskThreadPool pool = new TaskThreadPool(3)) {
      for (int run = 0; run < 10; run++) {
        converge(5, pool);
      }
    }
  }

  @Test
  void givenAListOutsideTheRegion_thenMisuse() {
    RegionalConvergence check = new RegionalConvergence(2, Math::max, v -> v, v -> true);
    IterativeTasks group = new TaskCollection().addRegion(1).get(0).addIteration("g");
    assertThrows(IllegalArgumentException.class,
        () -> check.addCompletion(group, TaskId.NONE, 2, () -> 0.0));
  }
}
