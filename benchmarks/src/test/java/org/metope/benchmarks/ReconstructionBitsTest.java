package org.metope.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;
import org.metope.examples.burgers.Reconstruction;

/**
 * The vectorised reconstructions ({@link Reconstruction#weno5Row}, {@link
 * Reconstruction#linearRow}) write the same bits as the plain per-cell loops they replaced ({@link
 * ReconstructionReference}) on every face state: rows of many lengths (shorter and longer than one
 * chunk of their stages) and strides, filled with smooth, discontinuous, random, constant,
 * signed-zero, tiny and huge values.
 */
class ReconstructionBitsTest {
  private static final int[] STRIDES = {1, 3, 24, 576};
  private static final int[] LENGTHS = {1, 7, 16, 18, 255, 256, 257, 424, 700};
  private static final int SWEEPS = 12;

  /**
   * Face states of the reference and of the new kernel on one row, {@code [0]} the reference's and
   * {@code [1]} the new, each {@code {ql, qr}}.
   */
  private static double[][][] states(boolean weno5, double[] a, int from, int s, int count) {
    double[][][] out = new double[2][2][a.length];
    if (weno5) {
      ReconstructionReference.weno5Row(a, from, s, count, out[0][0], from + s, out[0][1], from);
      Reconstruction.weno5Row(a, from, s, count, out[1][0], from + s, out[1][1], from);
    } else {
      ReconstructionReference.linearRow(a, from, s, count, out[0][0], from + s, out[0][1], from);
      Reconstruction.linearRow(a, from, s, count, out[1][0], from + s, out[1][1], from);
    }
    return out;
  }

  /** Face states whose bits differ between the kernels ({@code ql} and {@code qr} counted). */
  private static int differing(double[][][] states) {
    int differing = 0;
    for (int side = 0; side < 2; side++) {
      double[] expected = states[0][side];
      double[] actual = states[1][side];
      for (int i = 0; i < expected.length; i++) {
        if (Double.doubleToRawLongBits(expected[i]) != Double.doubleToRawLongBits(actual[i])) {
          differing++;
        }
      }
    }
    return differing;
  }

  /** A value family; each call of the supplier is one cell value. */
  private record Family(String name, DoubleSupplier values) {}

  private static Family[] families(Random random) {
    double[] phase = {0.0};
    return new Family[] {
      new Family("smooth", () -> Math.sin(phase[0] += 0.05)),
      new Family("steps", () -> random.nextInt(8) == 0 ? random.nextInt(3) - 1.0 : 0.25),
      new Family("random signs", random::nextGaussian),
      new Family("zeros", () -> random.nextBoolean() ? 0.0 : -0.0),
      new Family("equal neighbours", () -> random.nextInt(4) == 0 ? 2.5 : -1.0),
      new Family("tiny", () -> random.nextGaussian() * Double.MIN_VALUE * random.nextInt(1 << 20)),
      new Family("small", () -> random.nextGaussian() * 1e-160),
      new Family("huge", () -> random.nextGaussian() * 1e300),
      new Family("mixed magnitudes", () -> random.nextGaussian()
          * Math.pow(10, random.nextInt(600) - 300)),
    };
  }

  /**
   * Every family, stride and length, with fresh values each sweep; the sweeps are repeated so that
   * the later ones run the kernels as C2 compiles them (vector loops), not interpreted.
   */
  @Test
  void givenRowsOfEveryFamilyLengthAndStride_thenEveryFaceStateHasTheReferenceBits() {
    Random random = new Random(17);
    int rows = 0;
    for (int sweep = 0; sweep < SWEEPS; sweep++) {
      for (Family family : families(random)) {
        for (int s : STRIDES) {
          for (int count : LENGTHS) {
            double[] a = new double[count + 4 * s + 5];
            for (int i = 0; i < a.length; i++) {
              a[i] = family.values().getAsDouble();
            }
            int from = 2 * s + random.nextInt(3);
            for (boolean weno5 : new boolean[] {true, false}) {
              double[][][] states = states(weno5, a, from, s, count);
              assertEquals(0, differing(states), (weno5 ? "weno5, " : "linear, ") + family.name()
                  + ", stride " + s + ", " + count + " cells, sweep " + sweep);
              rows++;
            }
          }
        }
      }
    }
    assertEquals(SWEEPS * 9 * STRIDES.length * LENGTHS.length * 2, rows);
  }

  @Test
  void givenNonFiniteValues_thenNaNWhereTheReferenceIsNaNAndTheSameBitsElsewhere() {
    Random random = new Random(5);
    double[] special = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
    double[] a = new double[700];
    for (int i = 0; i < a.length; i++) {
      a[i] = random.nextInt(50) == 0 ? special[random.nextInt(3)] : random.nextGaussian();
    }
    for (boolean weno5 : new boolean[] {true, false}) {
      assertNaNWhereTheReferenceIsNaN(states(weno5, a, 2, 1, 696));
    }
  }

  private static void assertNaNWhereTheReferenceIsNaN(double[][][] states) {
    int nan = 0;
    for (int side = 0; side < 2; side++) {
      for (int i = 0; i < states[0][side].length; i++) {
        double expected = states[0][side][i];
        double actual = states[1][side][i];
        if (Double.isNaN(expected)) {
          nan++;
          assertTrue(Double.isNaN(actual), "state " + i + " of side " + side);
        } else {
          assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(actual),
              "state " + i + " of side " + side);
        }
      }
    }
    assertTrue(nan > 0, "the row makes NaN states");
  }

  @Test
  void givenOneInputOneUlpApart_thenTheComparisonSeesIt() {
    double[] a = new double[40];
    for (int i = 0; i < a.length; i++) {
      a[i] = Math.sin(0.3 * i);
    }
    double[][][] states = states(true, a, 2, 1, 36);
    assertEquals(0, differing(states));
    a[20] = Math.nextUp(a[20]);
    Reconstruction.weno5Row(a, 2, 1, 36, states[1][0], 3, states[1][1], 2);
    assertTrue(differing(states) > 0, "a changed input changes some face state");
  }
}
