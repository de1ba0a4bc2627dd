package org.metope.kernels.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.metope.kernels.body.DevicePack;
import org.metope.kernels.body.StageLaunch;

/**
 * A package's own bodies compiled by TornadoVM and run resident on its device through launchers
 * made per body ({@link BodyLaunchers}): a CELLS launch of {@link #scaled} over two blocks within
 * 1e-13 of the host launcher (its {@code u * r + below} may become a fused multiply-add on the
 * device; the test prints how many values differ in their bits), a CELLS_MINIMUM and a CELLS_SUM
 * of {@link #product} (one copy, two folds) bit for bit, each round after a framework launch that
 * puts the arena on the device, twice. The bodies run on the device copy: in the second round
 * less than the arena comes back. Negative control: without {@value
 * BodyLaunchers#DIRECTORY_PROPERTY} the backend runs the bodies on the host copy, and the arena
 * comes back first.
 */
class BodyLaunchersTornadoTest {
  private static final int N = 8;
  private static final int CELLS = N * N * N;
  /** Two blocks of u, then two of v, then a spare block for a weighted sum. */
  private static final int LENGTH = 5 * CELLS;

  /** v = u * r0 + u one cell below along x1. */
  static void scaled(double[] a, int[] t, int at, double[] r, int rat, int k, int j, int i) {
    DevicePack.set(a, t, at, 1, k, j, i, DevicePack.get(a, t, at, 0, k, j, i)
        * DevicePack.real(r, rat, 0) + DevicePack.below(a, t, at, 0, k, j, i));
  }

  /** u * r0. */
  static double product(double[] a, int[] t, int at, double[] r, int rat, int k, int j, int i) {
    return DevicePack.get(a, t, at, 0, k, j, i) * DevicePack.real(r, rat, 0);
  }

  /** Block b's entry: interior 1..N-2, u and v of the block, no fluxes, shift 1 (x1). */
  private static int[] entries() {
    int width = DevicePack.width(2);
    int[] t = new int[2 * width];
    for (int b = 0; b < 2; b++) {
      int[] entry = {1, N - 2, 1, N - 2, 1, N - 2, N, N * N, 1, 2, b * CELLS, (2 + b) * CELLS,
          -1, -1};
      System.arraycopy(entry, 0, t, b * width, width);
    }
    return t;
  }

  private static double[] arena() {
    double[] a = new double[LENGTH];
    for (int i = 0; i < 2 * CELLS; i++) {
      a[i] = Math.sin(0.37 * i) - 0.2;
    }
    return a;
  }

  private static StageLaunch[] launches() {
    int[] t = entries();
    double[] reals = {1.5, -0.75};
    int width = DevicePack.width(2);
    // z = 1 * x + 0 * y on the spare block: a framework launch, which leaves the arena on the device
    int[] sum = {4 * CELLS, 4 * CELLS, 4 * CELLS, CELLS};
    return new StageLaunch[] {
        new StageLaunch(StageLaunch.Kind.WEIGHTED_SUM, sum, new double[0], 1),
        StageLaunch.cells(BodyLaunchersTornadoTest::scaled, width, 1, t, reals, 2),
        StageLaunch.reduction(StageLaunch.Kind.CELLS_MINIMUM, BodyLaunchersTornadoTest::product,
            width, 1, t, reals, 2),
        StageLaunch.reduction(StageLaunch.Kind.CELLS_SUM, BodyLaunchersTornadoTest::product,
            width, 1, t, reals, 2)};
  }

  /**
   * Runs {@code launches} resident twice (the first round adds the bodies to the plan, which
   * carries the arena down and up once); returns the bytes that came to the host in the second.
   */
  private static long runResident(double[] arena, StageLaunch[] launches) {
    try (TornadoKernelBackend device = new TornadoKernelBackend(true)) {
      long back = 0;
      for (int round = 0; round < 2; round++) {
        back = device.trace().totalToHost();
        for (StageLaunch launch : launches) {
          device.stage(launch, arena, 1.0, 0.0);
        }
        back = device.trace().totalToHost() - back;
      }
      device.acquireHost(arena, false);
      device.releaseHost(arena);
      return back;
    }
  }

  @Test
  void givenPackageBodies_whenRunResident_thenTheyRunOnTheDeviceWithTheHostsValues() {
    StageLaunch[] host = launches();
    double[] expected = arena();
    for (int round = 0; round < 2; round++) {
      for (StageLaunch launch : host) {
        launch.runOnHost(expected, 1.0, 0.0);
      }
    }
    StageLaunch[] device = launches();
    double[] actual = arena();
    long back = runResident(actual, device);
    int differing = 0;
    for (int i = 0; i < LENGTH; i++) {
      if (Double.doubleToRawLongBits(expected[i]) != Double.doubleToRawLongBits(actual[i])) {
        differing++;
        assertEquals(expected[i], actual[i], 1e-13, "cell " + i);
      }
    }
    System.out.println("package body on TornadoVM: " + differing + " of " + LENGTH
        + " values differ in their bits from the host's");
    assertArrayEquals(host[2].results, device[2].results, "each block's minimum, bit for bit");
    assertArrayEquals(host[3].results, device[3].results, "each block's sum, bit for bit");
    assertTrue(back < 8L * LENGTH, "the bodies ran on the device copy: " + back + " B came back");
  }

  @Test
  void givenNoLauncherDirectory_whenRunResident_thenTheBodiesRunOnTheHostCopy() {
    String directory = System.clearProperty(BodyLaunchers.DIRECTORY_PROPERTY);
    try {
      long back = runResident(arena(), launches());
      assertTrue(back >= 8L * LENGTH, "the arena came back for the host bodies: " + back + " B");
    } finally {
      System.setProperty(BodyLaunchers.DIRECTORY_PROPERTY, directory);
    }
  }
}
