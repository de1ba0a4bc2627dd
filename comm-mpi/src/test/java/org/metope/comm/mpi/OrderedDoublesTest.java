package org.metope.comm.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The keys MPI's integer minimum and maximum reduce in place of doubles: their order must be
 * {@link Math#min} and {@link Math#max}'s, bit for bit, on every pair of numbers (signed zeros,
 * infinities, subnormals and random values), and a key must give back its double's exact bits.
 */
class OrderedDoublesTest {

  private static List<Double> values() {
    List<Double> values = new ArrayList<>(List.of(0.0, -0.0, 1.0, -1.0, Double.MIN_VALUE,
        -Double.MIN_VALUE, Double.MIN_NORMAL, -Double.MIN_NORMAL, Double.MAX_VALUE,
        -Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e16, -2.5e-300));
    SplittableRandom random = new SplittableRandom(36);
    for (int i = 0; i < 300; i++) {
      values.add(Double.longBitsToDouble(random.nextLong()));
      values.add(random.nextDouble(-1e6, 1e6));
    }
    values.removeIf(v -> Double.isNaN(v));
    return values;
  }

  @Test
  void givenTwoNumbers_thenTheLargerKeyIsMathMaxAndTheSmallerMathMin() {
    List<Double> values = values();
    for (double a : values) {
      for (double b : values) {
        long max = Math.max(OrderedDoubles.key(a), OrderedDoubles.key(b));
        long min = Math.min(OrderedDoubles.key(a), OrderedDoubles.key(b));
        assertEquals(Double.doubleToRawLongBits(Math.max(a, b)),
            Double.doubleToRawLongBits(OrderedDoubles.value(max)), "max(" + a + ", " + b + ")");
        assertEquals(Double.doubleToRawLongBits(Math.min(a, b)),
            Double.doubleToRawLongBits(OrderedDoubles.value(min)), "min(" + a + ", " + b + ")");
      }
    }
  }

  @Test
  void givenANumber_thenItsKeyGivesBackItsBits() {
    for (double v : values()) {
      assertEquals(Double.doubleToRawLongBits(v),
          Double.doubleToRawLongBits(OrderedDoubles.value(OrderedDoubles.key(v))), "" + v);
    }
  }
}
