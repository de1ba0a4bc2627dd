package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;

class AdvectionHistoryTest {
  @Test
  void givenAConstantInteriorAndDifferentGhosts_thenInteriorSumsTimesVolumeAndExtrema() {
    Mesh mesh = AdvectionMeshes.mesh(AdvectionMeshes.pin(AdvectionMeshes.deck(2, 8, 4, "")));
    MeshData md = mesh.meshData("base").get(0);
    int q = md.state().fieldId("advected");
    int length = md.layout().blockLength(md.layout().dataInstance(q, 0));
    Arrays.fill(md.data(), md.dataOffset(q, 1), md.dataOffset(q, 1) + length, 50.0);
    for (int j = 2; j < 6; j++) {
      for (int i = 2; i < 6; i++) {
        md.data()[md.index(q, 1, 0, 0, j, i)] = 2.0;
      }
    }
    md.data()[md.index(q, 1, 0, 0, 3, 4)] = -1.0;
    double cellVolume = 1.0 / 64;
    double expectedSum = (15 * 2.0 - 1.0) * cellVolume;
    assertEquals(expectedSum, AdvectionHistory.totalAdvected(md, 1), 1e-15);
    double[] powers = new double[3];
    AdvectionHistory.advectedPowers(md, 1, powers);
    assertArrayEquals(new double[] {expectedSum, (15 * 4.0 + 1.0) * cellVolume,
        (15 * 8.0 - 1.0) * cellVolume}, powers, 1e-15);
    assertEquals(2.0, AdvectionHistory.maxAdvected(md, 1));
    assertEquals(-1.0, AdvectionHistory.minAdvected(md, 1));
  }

  /**
   * {@code total_advected} and {@code advected_powers} are separate sweeps (one per history
   * variable, so that C2 compiles each once); each sum must still be the cell-order sum of {@code
   * StrictMath.pow(v, n + 1) * volume}, to the bit, and the total the first power's bits, for any
   * output length. Random interior values; the expected sums are formed here in k, j, i order.
   */
  @Test
  void givenRandomInteriorValues_thenTotalAndPowersAreTheCellOrderSumsOfPowToTheBit() {
    Mesh mesh = AdvectionMeshes.mesh(AdvectionMeshes.pin(AdvectionMeshes.deck(2, 8, 4, "")));
    MeshData md = mesh.meshData("base").get(0);
    int q = md.state().fieldId("advected");
    SplittableRandom random = new SplittableRandom(20261128L);
    double[] expected = new double[3];
    double cellVolume = 1.0 / 64;
    for (int j = 2; j < 6; j++) {
      for (int i = 2; i < 6; i++) {
        double v = random.nextDouble(-3.0, 3.0);
        md.data()[md.index(q, 1, 0, 0, j, i)] = v;
        for (int n = 0; n < 3; n++) {
          expected[n] += StrictMath.pow(v, n + 1) * cellVolume;
        }
      }
    }
    assertEquals(Double.doubleToRawLongBits(expected[0]),
        Double.doubleToRawLongBits(AdvectionHistory.totalAdvected(md, 1)));
    for (int length = 1; length <= 3; length++) {
      double[] powers = new double[length];
      AdvectionHistory.advectedPowers(md, 1, powers);
      assertArrayEquals(Arrays.copyOf(expected, length), powers, 0.0, "length " + length);
    }
  }

  /**
   * The history's powers skip {@code StrictMath.pow} for the powers 1 and 2 because fdlibm
   * returns {@code q} and {@code q * q} for them: checked here on random bit patterns (every
   * class of double: subnormal, infinite, signed zero) and on values of the advected profile's
   * range, so that a JDK whose {@code StrictMath.pow} did otherwise fails this test instead of
   * changing the histories that match Parthenon's.
   */
  @Test
  void givenAnyDouble_thenStrictMathPowOfOneAndTwoAreTheValueAndItsSquare() {
    SplittableRandom random = new SplittableRandom(20261124L);
    for (int n = 0; n < 2_000_000; n++) {
      double v = n % 2 == 0 ? Double.longBitsToDouble(random.nextLong())
          : random.nextDouble(-2.0, 2.0);
      if (Double.isNaN(v)) {
        continue;
      }
      assertEquals(Double.doubleToRawLongBits(v), Double.doubleToRawLongBits(StrictMath.pow(v, 1)),
          () -> "pow(v, 1) for v=" + v);
      assertEquals(Double.doubleToRawLongBits(v * v),
          Double.doubleToRawLongBits(StrictMath.pow(v, 2)), () -> "pow(v, 2) for v=" + v);
    }
  }
}
