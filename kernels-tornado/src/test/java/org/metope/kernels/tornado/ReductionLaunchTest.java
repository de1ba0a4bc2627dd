package org.metope.kernels.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.metope.kernels.body.DevicePack;
import org.metope.kernels.body.StageLaunch;
import org.metope.kernels.body.StageLaunch.Kind;

/**
 * The reduction shapes of a package kernel (CELLS_MINIMUM, CELLS_MAXIMUM, CELLS_SUM) over two
 * blocks of {@code N}^3 cells, interior {@code 2..N-3}: on the JVM ({@link StageLaunch#runOnHost})
 * each block's value is the analytic one (integer marks {@code 100 k + 10 j + i}: largest at the
 * box's last corner, sum in closed form), and the resident emulated device, reducing values that a
 * package body wrote on the device copy (the host copy poisoned), gives the JVM's bits on random
 * values too. Controls: the stale host copy reduces to NaN, and folding a sum in another order
 * changes its bits, so the comparison sees where and in what order the device folded.
 */
class ReductionLaunchTest {
  private static final int N = 10;
  private static final int LO = 2;
  private static final int HI = N - 3;

  /** Entries of two blocks, one component each, block e's cells from {@code e * N^3}. */
  private static int[] entries() {
    int width = DevicePack.width(1);
    int[] t = new int[2 * width];
    for (int e = 0; e < 2; e++) {
      int[] entry = {LO, HI, LO, HI, LO, HI, N, N * N, 0, 1, e * N * N * N, -1};
      System.arraycopy(entry, 0, t, e * width, width);
    }
    return t;
  }

  private static double value(double[] a, int[] t, int at, double[] r, int rat, int k, int j,
      int i) {
    return DevicePack.get(a, t, at, 0, k, j, i);
  }

  /** Writes block e's mark {@code 1000 e + 100 k + 10 j + i}, or a random value (real 0 != 0). */
  private static void mark(double[] a, int[] t, int at, double[] r, int rat, int k, int j, int i) {
    double seed = DevicePack.real(r, rat, 0);
    double mark = DevicePack.real(r, rat, 1) + 100 * k + 10 * j + i;
    DevicePack.set(a, t, at, 0, k, j, i, seed == 0.0 ? mark
        : Math.sin(seed * mark) * Math.pow(10, (k + j + i) % 7 - 3));
  }

  private static StageLaunch reduction(Kind kind) {
    return StageLaunch.reduction(kind, ReductionLaunchTest::value, DevicePack.width(1), 0,
        entries(), new double[0], 2);
  }

  private static StageLaunch marks(double seed) {
    return StageLaunch.cells(ReductionLaunchTest::mark, DevicePack.width(1), 2, entries(),
        new double[] {seed, 0, seed, 1000}, 2);
  }

  /** The sum of {@code x} over {@code LO..HI}. */
  private static long sum(long offset) {
    long n = HI - LO + 1;
    return n * offset + n * (LO + HI) / 2;
  }

  @Test
  void givenIntegerMarks_thenEachBlockGetsItsAnalyticMinimumMaximumAndSum() {
    double[] a = new double[2 * N * N * N];
    Arrays.fill(a, 1e9);
    marks(0.0).runOnHost(a, 0, 0);
    long n = HI - LO + 1;
    for (int e = 0; e < 2; e++) {
      double[] expected = {1000 * e + 111 * LO, 1000 * e + 111 * HI,
          n * n * n * 1000 * e + 100 * n * n * sum(0) + 10 * n * n * sum(0) + n * n * sum(0)};
      Kind[] kinds = {Kind.CELLS_MINIMUM, Kind.CELLS_MAXIMUM, Kind.CELLS_SUM};
      for (int r = 0; r < 3; r++) {
        StageLaunch launch = reduction(kinds[r]);
        launch.runOnHost(a, 0, 0);
        assertEquals(expected[r], launch.results[e], kinds[r] + " of block " + e);
      }
    }
  }

  @Test
  void givenAnEmptyBox_thenEachReductionGivesItsIdentity() {
    int[] t = entries();
    t[DevicePack.KE] = LO - 1;
    for (Kind kind : new Kind[] {Kind.CELLS_MINIMUM, Kind.CELLS_MAXIMUM, Kind.CELLS_SUM}) {
      StageLaunch launch = StageLaunch.reduction(kind, ReductionLaunchTest::value,
          DevicePack.width(1), 0, t, new double[0], 1);
      launch.runOnHost(new double[2 * N * N * N], 0, 0);
      assertEquals(StageLaunch.identity(kind), launch.results[0], kind.toString());
    }
  }

  /** The device's results of {@code kind} over values a body wrote on the device copy. */
  private static double[] onDevice(Kind kind, double seed, double[] arena) {
    StageLaunch launch = reduction(kind);
    try (EmulatedDeviceBackend device = EmulatedDeviceBackend.resident(
        EmulatedDeviceBackend.Fault.NONE, new DeviceTrace(null), true)) {
      device.stage(marks(seed), arena, 0, 0);
      device.stage(launch, arena, 0, 0);
      assertEquals(2, device.cellLaunches(), "both ran on the device copy");
      StageLaunch stale = reduction(kind);
      stale.runOnHost(arena, 0, 0);
      assertNotEquals(launch.results[0], stale.results[0], "control: the stale host copy");
      device.acquireHost(arena, false);
      device.releaseHost(arena);
    }
    return Arrays.copyOf(launch.results, 2);
  }

  @Test
  void givenRandomValuesWrittenOnTheDevice_thenItsReductionsHaveTheJvmBits() {
    for (Kind kind : new Kind[] {Kind.CELLS_MINIMUM, Kind.CELLS_MAXIMUM, Kind.CELLS_SUM}) {
      double[] arena = new Random(7).doubles(2 * N * N * N).toArray();
      double[] device = onDevice(kind, 0.37, arena);
      double[] host = new Random(7).doubles(2 * N * N * N).toArray();
      marks(0.37).runOnHost(host, 0, 0);
      assertArrayEquals(host, arena, "the device's values came back");
      StageLaunch jvm = reduction(kind);
      jvm.runOnHost(host, 0, 0);
      assertArrayEquals(Arrays.copyOf(jvm.results, 2), device, kind.toString());
    }
  }

  /**
   * Control: the sum's bits depend on the order of the fold, so equal bits mean equal order. A
   * box of 1e-17 after a first cell of 1: in index order each tiny value falls below half an ulp
   * of the total and the sum is exactly 1; summed from the last cell, the tiny values add up
   * first and survive.
   */
  @Test
  void givenOneThenTinyValues_whenSummedInReverseOrder_thenTheBitsDiffer() {
    double[] a = new double[2 * N * N * N];
    double reverse = 0.0;
    for (int k = HI; k >= LO; k--) {
      for (int j = HI; j >= LO; j--) {
        for (int i = HI; i >= LO; i--) {
          a[k * N * N + j * N + i] = k == LO && j == LO && i == LO ? 1.0 : 1e-17;
        }
      }
    }
    for (int k = HI; k >= LO; k--) {
      for (int j = HI; j >= LO; j--) {
        for (int i = HI; i >= LO; i--) {
          reverse += a[k * N * N + j * N + i];
        }
      }
    }
    StageLaunch launch = reduction(Kind.CELLS_SUM);
    launch.runOnHost(a, 0, 0);
    assertEquals(1.0, launch.results[0], 0.0, "index order: every tiny value absorbed");
    assertNotEquals(1.0, reverse, "reverse order: the tiny values add up first");
  }
}
