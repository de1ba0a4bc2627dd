package org.metope.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;
import org.metope.examples.burgers.HllRows;

/**
 * The burgers example's HLL fluxes as vector loops ({@link HllRows}) write the same bits as the
 * per-face loops they replaced ({@link HllReference}) for every component and normal direction,
 * on rows of many lengths filled with smooth, random, signed-zero, tiny, huge and non-finite
 * values. The negative control shows that the comparison sees signs of zero: the same loops with
 * the wave speeds taken by {@code Math.min}/{@code Math.max} differ on signed-zero faces.
 */
class HllBitsTest {
  private static final int NCOMP = 11;
  private static final int[] LENGTHS = {1, 7, 17, 64, 255, 377, 400};
  private static final int SWEEPS = 12;

  private record Family(String name, DoubleSupplier values) {}

  private static Family[] families(Random random) {
    double[] phase = {0.0};
    return new Family[] {
      new Family("smooth", () -> Math.sin(phase[0] += 0.05)),
      new Family("random signs", random::nextGaussian),
      new Family("zeros", () -> random.nextBoolean() ? 0.0 : -0.0),
      new Family("zeros and ones", () -> new double[] {0.0, -0.0, 1.0, -1.0}[random.nextInt(4)]),
      new Family("equal neighbours", () -> random.nextInt(4) == 0 ? 2.5 : -1.0),
      new Family("tiny", () -> random.nextGaussian() * Double.MIN_VALUE * random.nextInt(1 << 20)),
      new Family("huge", () -> random.nextGaussian() * 1e300),
      new Family("mixed magnitudes", () -> random.nextGaussian()
          * Math.pow(10, random.nextInt(600) - 300)),
      new Family("non-finite", () -> new double[] {Double.NaN, Double.POSITIVE_INFINITY,
          Double.NEGATIVE_INFINITY, 0.0, -0.0, 1.0}[random.nextInt(6)]),
    };
  }

  /** Fluxes of every component by the reference loops, component {@code n} at {@code n * count}. */
  private static double[] reference(double[] ql, double[] qr, int normal, int count) {
    double[] out = new double[NCOMP * count];
    double[] sl = new double[count];
    double[] sr = new double[count];
    HllReference.velocityRow(out, 0, ql, qr, 0, normal * count, count, count, sl, sr);
    for (int n = 3; n < NCOMP; n++) {
      HllReference.scalarRow(out, n * count, ql, qr, 0, n * count, normal * count, count, sl, sr);
    }
    return out;
  }

  /** The same with {@link HllRows}; {@code minMax}: the negative control's speeds. */
  private static double[] rows(double[] ql, double[] qr, int normal, int count, boolean minMax) {
    double[] out = new double[NCOMP * count];
    double[][] r = new double[9][count];
    HllRows.speeds(ql, qr, normal * count, count, r[0], r[1], r[2], r[3], r[4], r[5]);
    if (minMax) {
      for (int m = 0; m < count; m++) {
        double sl = Math.min(Math.min(r[0][m], r[1][m]), 0.0);
        double sr = Math.max(Math.max(r[0][m], r[1][m]), 0.0);
        r[2][m] = sl;
        r[3][m] = sr;
        r[4][m] = sr - sl + (sl * sr == 0.0 ? 1.0 : 0.0);
        r[5][m] = 1.0 / r[4][m];
      }
    }
    for (int n = 0; n < NCOMP; n++) {
      System.arraycopy(ql, n * count, r[6], 0, count);
      System.arraycopy(qr, n * count, r[7], 0, count);
      if (n < 3) {
        HllRows.velocity(r[6], r[7], r[0], r[1], r[2], r[3], r[5], r[8], count);
      } else {
        HllRows.scalar(r[6], r[7], r[0], r[1], r[2], r[3], r[4], r[8], count);
      }
      System.arraycopy(r[8], 0, out, n * count, count);
    }
    return out;
  }

  /** Values whose bits differ; two NaNs count as equal (their payloads are not compared). */
  private static int differing(double[] expected, double[] actual) {
    int differing = 0;
    for (int i = 0; i < expected.length; i++) {
      boolean bothNaN = Double.isNaN(expected[i]) && Double.isNaN(actual[i]);
      if (!bothNaN
          && Double.doubleToRawLongBits(expected[i]) != Double.doubleToRawLongBits(actual[i])) {
        differing++;
      }
    }
    return differing;
  }

  private static double[] fill(Family family, int length) {
    double[] values = new double[length];
    for (int i = 0; i < length; i++) {
      values[i] = family.values().getAsDouble();
    }
    return values;
  }

  /**
   * Every family, length and normal direction, fresh values each sweep; the later sweeps run the
   * loops as C2 compiles them.
   */
  @Test
  void givenFacesOfEveryFamily_thenEveryFluxHasTheReferenceBits() {
    Random random = new Random(23);
    int fluxes = 0;
    for (int sweep = 0; sweep < SWEEPS; sweep++) {
      for (Family family : families(random)) {
        for (int count : LENGTHS) {
          for (int direction = 0; direction < 3; direction++) {
            final int normal = direction;
            double[] ql = fill(family, NCOMP * count);
            double[] qr = fill(family, NCOMP * count);
            double[] expected = reference(ql, qr, normal, count);
            assertEquals(0, differing(expected, rows(ql, qr, normal, count, false)),
                () -> family.name() + ", " + count + " faces, normal " + normal);
            fluxes += expected.length;
          }
        }
      }
    }
    assertTrue(fluxes > 500_000, "fluxes compared: " + fluxes);
  }

  /** Negative control: speeds by min and max give other signs of zero on signed-zero faces. */
  @Test
  void givenSpeedsByMinAndMax_thenSignedZeroFacesDiffer() {
    Random random = new Random(29);
    Family zeros = families(random)[2];
    double[] ql = fill(zeros, NCOMP * 400);
    double[] qr = fill(zeros, NCOMP * 400);
    double[] expected = reference(ql, qr, 0, 400);
    assertEquals(0, differing(expected, rows(ql, qr, 0, 400, false)));
    assertTrue(differing(expected, rows(ql, qr, 0, 400, true)) > 0,
        "min/max speeds should change signs of zero fluxes");
  }
}
