package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link FdlibmCube} against the library it stands in for, bit for bit. */
class FdlibmCubeTest {
  private static final int SAMPLES = 400_000;

  @Test
  void givenTheSpecialValues_thenTheLibrarysBits() {
    double[] xs = {0.0, -0.0, 1.0, -1.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
        Double.NaN, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE,
        -Double.MAX_VALUE, 0.5, 2.0, 3.0, 1.5, Math.sqrt(1.5), Math.sqrt(3.0),
        Math.nextUp(1.0), Math.nextDown(1.0), 0x1.428a2f98d728bp341, 0x1.428a2f98d728cp341,
        0x1p-358, 0x1p-359, 0x1.6a09e667f3bcdp-359};
    for (double x : xs) {
      assertSame(x);
    }
  }

  /** Each kind draws doubles from one region, with either sign. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"any bits", "unit interval", "subnormal", "near overflow",
      "near underflow", "near one", "any exponent"})
  void givenRandomValues_thenTheLibrarysBits(String kind) {
    SplittableRandom random = new SplittableRandom(kind.hashCode());
    DoubleSupplier draw = switch (kind) {
      case "any bits" -> () -> Double.longBitsToDouble(random.nextLong());
      case "unit interval" -> random::nextDouble;
      case "subnormal" -> () -> Double.longBitsToDouble(random.nextLong(0x0010000000000000L));
      case "near overflow" -> () -> Math.scalb(1 + random.nextDouble(), 338 + random.nextInt(8));
      case "near underflow" ->
          () -> Math.scalb(1 + random.nextDouble(), -362 + random.nextInt(12));
      case "near one" -> () -> 1 + (random.nextDouble() - 0.5) * 1e-6;
      default -> () -> Math.scalb(random.nextDouble(), random.nextInt(-1074, 1024));
    };
    for (int n = 0; n < SAMPLES; n++) {
      double x = draw.getAsDouble();
      assertSame(random.nextBoolean() ? x : -x);
    }
  }

  private static void assertSame(double x) {
    assertEquals(Double.doubleToRawLongBits(StrictMath.pow(x, 3)),
        Double.doubleToRawLongBits(FdlibmCube.cube(x)), () -> "x = " + Double.toHexString(x));
  }
}
