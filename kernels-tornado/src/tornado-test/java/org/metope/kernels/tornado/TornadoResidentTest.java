package org.metope.kernels.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.metope.kernels.StageLaunch;

/**
 * The resident TornadoVM backend's device arena: stage launches run on the device copy one after
 * another (each graph taking the buffer the one before left), and a host acquire brings the
 * result back; against the host launcher on the same arena.
 */
class TornadoResidentTest {
  private static final int LENGTH = 64;

  @Test
  void givenWeightedSumsOnTheDevice_whenTheHostAcquires_thenItReadsTheHostResult() {
    // blocks 0, 1, 2: z = w1 * x + w2 * y, twice, with different weights
    int[] w = {0, LENGTH, 2 * LENGTH, LENGTH};
    StageLaunch sum = new StageLaunch(StageLaunch.Kind.WEIGHTED_SUM, w, new double[0], 1);
    int[] v = {LENGTH, 0, 2 * LENGTH, LENGTH};
    StageLaunch other = new StageLaunch(StageLaunch.Kind.WEIGHTED_SUM, v, new double[0], 1);
    Random random = new Random(3);
    double[] host = new double[3 * LENGTH];
    for (int i = 0; i < host.length; i++) {
      host[i] = random.nextDouble();
    }
    double[] arena = host.clone();
    sum.runOnHost(host, 0.5, 0.25);
    other.runOnHost(host, 2.0, -1.0);
    sum.runOnHost(host, 0.125, 3.0);
    try (TornadoKernelBackend device = new TornadoKernelBackend(true)) {
      device.stage(sum, arena, 0.5, 0.25);
      device.stage(other, arena, 2.0, -1.0);
      device.stage(sum, arena, 0.125, 3.0);
      device.acquireHost(arena, false);
      device.releaseHost(arena);
    }
    assertArrayEquals(host, arena);
  }
}
