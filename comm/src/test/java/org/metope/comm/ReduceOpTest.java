package org.metope.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
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

  private static final double[] SPECIAL = {Double.NEGATIVE_INFINITY, -Double.MAX_VALUE, -1.5,
    -Double.MIN_NORMAL, -Double.MIN_VALUE, -0.0, 0.0, Double.MIN_VALUE, Double.MIN_NORMAL, 1e-300,
    0.1, 1.0, 1e300, Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NaN};

  @Test
  void givenEveryPairOfSpecialDoubles_thenTheirEncodedMinAndMaxDecodeToMathMinAndMax() {
    for (ReduceOp op : new ReduceOp[] {ReduceOp.MIN, ReduceOp.MAX}) {
      for (double a : SPECIAL) {
        for (double b : SPECIAL) {
          double expected = op.apply(a, b);
          double actual = ReduceOp.decode(op.apply(op.encode(a), op.encode(b)));
          if (Double.isNaN(expected)) {
            assertTrue(Double.isNaN(actual), op + "(" + a + ", " + b + ")");
          } else {
            assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(actual),
                op + "(" + a + ", " + b + ")");
          }
        }
      }
    }
  }

  @Test
  void givenRandomDoubles_thenEncodedOrderIsMathMinAndMaxAndDecodingGivesBackTheBits() {
    SplittableRandom random = new SplittableRandom(36);
    double[] values = new double[400];
    for (int i = 0; i < values.length; i++) {
      double v = i % 2 == 0 ? Double.longBitsToDouble(random.nextLong())
          : random.nextDouble(-1e6, 1e6);
      values[i] = Double.isNaN(v) ? SPECIAL[i % (SPECIAL.length - 1)] : v;
    }
    for (double a : values) {
      assertEquals(Double.doubleToRawLongBits(a),
          Double.doubleToRawLongBits(ReduceOp.decode(ReduceOp.MIN.encode(a))), "" + a);
      for (double b : values) {
        for (ReduceOp op : new ReduceOp[] {ReduceOp.MIN, ReduceOp.MAX}) {
          assertEquals(Double.doubleToRawLongBits(op.apply(a, b)),
              Double.doubleToRawLongBits(ReduceOp.decode(op.apply(op.encode(a), op.encode(b)))),
              op + "(" + a + ", " + b + ")");
        }
      }
    }
  }

  @Test
  void givenASum_thenADoubleCannotBeEncoded() {
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> ReduceOp.SUM.encode(1.0));
    assertEquals("a double SUM cannot travel as a long: op=SUM", e.getMessage());
  }
}
