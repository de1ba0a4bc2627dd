package org.metope.mesh.view;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.metope.comm.ReduceOp;
import org.metope.mesh.geometry.IndexRange;

/** ParReduce folds in ParFor's order: blocks, then k, j, i, one running value. */
class ParReduceTest {
  private static final IndexBox BOX = new IndexBox(new IndexRange(0, 1), new IndexRange(2, 3),
      new IndexRange(1, 4));

  /** A value whose sum depends on the order of addition: huge values cancel late. */
  private static double value(int b, int k, int j, int i) {
    return (i == 1 && j == 2 ? 1e16 : 1.0) * (k == 1 && i == 1 && j == 2 ? -1 : 1) + b;
  }

  @Test
  void givenACellValue_thenTheSumIsTheFoldInLoopOrder() {
    double expected = 0.0;
    for (int b = 1; b <= 2; b++) {
      for (int k = 0; k <= 1; k++) {
        for (int j = 2; j <= 3; j++) {
          for (int i = 1; i <= 4; i++) {
            expected += value(b, k, j, i);
          }
        }
      }
    }
    double sum = ParReduce.reduce(1, 2, BOX, ReduceOp.SUM, 0.0, ParReduceTest::value);
    assertEquals(expected, sum);
    // The control: adding in i-slowest order gives another value, so the order is tested.
    double other = 0.0;
    for (int b = 1; b <= 2; b++) {
      for (int i = 1; i <= 4; i++) {
        for (int k = 0; k <= 1; k++) {
          for (int j = 2; j <= 3; j++) {
            other += value(b, k, j, i);
          }
        }
      }
    }
    assertEquals(false, other == sum);
  }

  @Test
  void givenACellValue_thenMaxAndMinAreTheExtremes() {
    assertEquals(1e16 + 2, ParReduce.reduce(0, 2, BOX, ReduceOp.MAX, Double.NEGATIVE_INFINITY,
        ParReduceTest::value));
    assertEquals(-1e16, ParReduce.reduce(0, 2, BOX, ReduceOp.MIN, Double.POSITIVE_INFINITY,
        ParReduceTest::value));
  }
}
