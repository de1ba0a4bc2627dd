package org.metope.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.metope.kernels.body.StageLaunch;
import org.metope.kernels.body.TagKernels;
import org.metope.kernels.body.TagLaunch;
import org.metope.kernels.tornado.TornadoKernelBackend;

/**
 * The stage kernels' and refinement measures' device launchers ({@code
 * org.metope.kernels.tornado.ResidentTasks}) compiled and run by TornadoVM in the resident
 * backend's one plan per arena, against the host launchers ({@link StageLaunch#runOnHost}, {@link
 * TagLaunch#runOnHost}) on the same random arena and tables: the donor-cell fluxes are single
 * multiplications and must give the same bits; the divergence and the weighted sums to 1e-15
 * relative, since an OpenCL compiler may contract {@code a * b + c} into a fused multiply-add.
 */
class ResidentTasksTornadoTest {
  private static final int N = 8;
  private static final int LENGTH = N * N * N;

  private static double[] arena(long seed, int blocks) {
    Random random = new Random(seed);
    double[] a = new double[blocks * LENGTH];
    for (int i = 0; i < a.length; i++) {
      a[i] = random.nextDouble() - 0.3;
    }
    return a;
  }

  /**
   * Runs {@code launches} in order on the resident TornadoVM backend's device copy of {@code
   * arena} (the weights {@code w1}, {@code w2} for a weighted sum), then acquires the host copy:
   * {@code arena} holds the device's result; a smallest step's results are in its {@code
   * results}.
   */
  static void runResident(double[] arena, double w1, double w2, StageLaunch... launches) {
    try (TornadoKernelBackend device = new TornadoKernelBackend(true)) {
      for (StageLaunch launch : launches) {
        device.stage(launch, arena, w1, w2);
      }
      device.acquireHost(arena, false);
      device.releaseHost(arena);
    }
  }

  @Test
  void givenDivergenceAndWeightedSumEntries_whenRunOnTheDevice_thenTheyEqualTheHost() {
    // block 0: dudt; blocks 1..3: fluxes x1, x2, x3; interior 2..N-3 in every direction
    int[] d = {0, LENGTH, 2 * LENGTH, 3 * LENGTH, 3, 2, N - 3, 2, N - 3, 2, N - 3, N, N * N};
    double[] r = {1.0, 0.5, 0.25, 2.0};
    StageLaunch div = new StageLaunch(StageLaunch.Kind.DIVERGENCE, d, r, 1);
    int[] w = {4 * LENGTH, 4 * LENGTH, 5 * LENGTH, LENGTH, 5 * LENGTH, 6 * LENGTH, 4 * LENGTH,
        LENGTH};
    StageLaunch sum = new StageLaunch(StageLaunch.Kind.WEIGHTED_SUM, w, new double[0], 2);
    double[] host = arena(2, 7);
    double[] device = host.clone();
    div.runOnHost(host, 0.25, 0.75);
    sum.runOnHost(host, 0.25, 0.75);
    runResident(device, 0.25, 0.75, div, sum);
    Reference.assertClose(host, device, 1e-15);
  }

  @Test
  void givenPhysicalBoundaryEntries_whenRunOnTheDevice_thenTheBitsEqualTheHost() {
    // copies and sign changes only (Scenario.physicalBoundary), so the bits must agree
    StageLaunch launch = Scenario.physicalBoundary(N, 2);
    double[] host = arena(3, 2);
    double[] device = host.clone();
    launch.runOnHost(host, 0, 0);
    runResident(device, 0, 0, launch);
    assertArrayEquals(host, device);
  }

  @Test
  void givenRefinementMeasures_whenRunOnTheDevice_thenTheyEqualTheHost() {
    // ranges of 3 runs, and every built-in measure of the interior (plus one layer) of block 1
    // in 3D, the derivatives also in 1D and 2D and over an empty box (KS > KE: 0). The
    // derivatives once came back as values of uninitialised memory on TornadoVM 5.2.1 and PoCL
    // 3.1 (TagKernels#boxMeasure says why), so they are what this test is for.
    int[] runs = {0, LENGTH, LENGTH + 5, 100, 2 * LENGTH - 1, 1};
    TagLaunch range = new TagLaunch(TagLaunch.Kind.MIN_MAX, runs, 3);
    int[][] methods = {{TagKernels.DERIVATIVE_1, 3}, {TagKernels.DERIVATIVE_2, 3},
        {TagKernels.MAGNITUDE_GREATER, 3}, {TagKernels.MAGNITUDE_LESS, 3},
        {TagKernels.DERIVATIVE_2, 1}, {TagKernels.DERIVATIVE_1, 2}, {TagKernels.DERIVATIVE_1, 0}};
    int[] boxes = new int[methods.length * TagLaunch.Kind.BOX.width];
    for (int m = 0; m < methods.length; m++) {
      int ndim = Math.max(1, methods[m][1]);
      int ke = methods[m][1] == 0 ? 0 : N - 2;
      int[] entry = {LENGTH, N, N * N, 1, N - 2, 1, N - 2, 1, ke, ndim, methods[m][0]};
      System.arraycopy(entry, 0, boxes, m * entry.length, entry.length);
    }
    TagLaunch box = new TagLaunch(TagLaunch.Kind.BOX, boxes, methods.length);
    double[] a = arena(4, 2);
    range.runOnHost(a);
    box.runOnHost(a);
    double[] ranges = range.results.clone();
    double[] measures = box.results.clone();
    Arrays.fill(range.results, Double.NaN);
    Arrays.fill(box.results, Double.NaN);
    try (TornadoKernelBackend device = new TornadoKernelBackend(true)) {
      device.measure(range, a);
      device.measure(box, a);
    }
    assertArrayEquals(ranges, range.results);
    Reference.assertClose(measures, box.results, 1e-15);
  }
}
