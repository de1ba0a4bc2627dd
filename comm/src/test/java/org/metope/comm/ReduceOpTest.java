package org.metope.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The reduction functions every backend folds with. */
class ReduceOpTest {

  @Test
  void givenDoubles_thenSumMinMaxFollowJavaArithmetic() {
    assertEquals(0.30000000000000004, ReduceOp.SUM.apply(0.1, 0.2));
    assertEquals(-0.0, ReduceOp.MIN.apply(0.0, -0.0));
    assertEquals(0.0, ReduceOp.MAX.apply(-0.0, 0.0));
    assertTrue(Double.isNaN(ReduceOp.MIN.apply(1.0, Double.NaN)), "NaN wins a MIN");
    assertTrue(Double.isNaN(ReduceOp.MAX.apply(Double.NaN, 1.0)), "NaN wins a MAX");
  }

  @Test
  void givenLongs_thenSumWrapsAndMinMaxCompare() {
    assertEquals(Long.MIN_VALUE, ReduceOp.SUM.apply(Long.MAX_VALUE, 1L));
    assertEquals(-3L, ReduceOp.MIN.apply(-3L, 2L));
    assertEquals(2L, ReduceOp.MAX.apply(-3L, 2L));
  }
}
