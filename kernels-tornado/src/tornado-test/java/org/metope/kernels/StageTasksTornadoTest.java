package org.metope.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.metope.kernels.tornado.StageTasks;
import uk.ac.manchester.tornado.api.ImmutableTaskGraph;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/**
 * The stage kernels' device launchers ({@link StageTasks}) compiled and run by TornadoVM, against
 * the host launcher ({@link StageLaunch#runOnHost}) on the same random arena and tables: the
 * donor-cell fluxes are single multiplications and must give the same bits; the divergence and
 * the weighted sums to 1e-15 relative, since an OpenCL compiler may contract {@code a * b + c}
 * into a fused multiply-add. Whole arenas travel here; residency is the backends' business.
 */
class StageTasksTornadoTest {
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

  private static void runOnDevice(String name, TaskGraph graph, double[] a) {
    graph.transferToHost(DataTransferMode.EVERY_EXECUTION, a);
    ImmutableTaskGraph snapshot = graph.snapshot();
    try (TornadoExecutionPlan plan = new TornadoExecutionPlan(snapshot)) {
      plan.execute();
    } catch (Exception e) {
      throw new AssertionError(name + " failed on the device: " + e, e);
    }
  }

  @Test
  void givenDonorCellConstantEntries_whenRunOnTheDevice_thenTheBitsEqualTheHost() {
    // 2 blocks: fluxes of block 0 from the cells of block 1; one entry per direction
    int[] t = new int[3 * StageLaunch.Kind.DONOR_CELL_CONSTANT.width];
    double[] vel = {0.7, -0.4, 1.1};
    int[] donor = {1, 0, N * N};
    for (int e = 0; e < 3; e++) {
      int[] entry = {0, LENGTH, donor[e], N * 1 + 1, (N - 3) * N + N - 2, 1, N - 2, N * N};
      System.arraycopy(entry, 0, t, e * entry.length, entry.length);
    }
    StageLaunch launch = new StageLaunch(StageLaunch.Kind.DONOR_CELL_CONSTANT, t, vel, 3);
    double[] host = arena(1, 2);
    double[] device = host.clone();
    launch.runOnHost(host, 0, 0);
    TaskGraph g = new TaskGraph("donor").transferToDevice(DataTransferMode.EVERY_EXECUTION,
        launch.ints, launch.reals, device)
        .task("t", StageTasks::donorCellConstant, launch.ints, launch.reals, launch.count,
            launch.maxK, device);
    runOnDevice("donorCellConstant", g, device);
    assertArrayEquals(host, device);
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
    div.runOnHost(host, 0, 0);
    sum.runOnHost(host, 0.25, 0.75);
    TaskGraph g = new TaskGraph("stage").transferToDevice(DataTransferMode.EVERY_EXECUTION,
        div.ints, div.reals, sum.ints, device)
        .task("div", StageTasks::divergence, div.ints, div.reals, div.count, div.maxK, div.maxJ,
            device)
        .task("sum", StageTasks::weightedSum, sum.ints, sum.count, 0.25, 0.75, device);
    runOnDevice("divergence and weightedSum", g, device);
    Reference.assertClose(host, device, 1e-15);
  }

  @Test
  void givenPhysicalBoundaryEntries_whenRunOnTheDevice_thenTheBitsEqualTheHost() {
    // copies and sign changes only (Scenario.physicalBoundary), so the bits must agree
    StageLaunch launch = Scenario.physicalBoundary(N, 2);
    double[] host = arena(3, 2);
    double[] device = host.clone();
    launch.runOnHost(host, 0, 0);
    TaskGraph g = new TaskGraph("bc").transferToDevice(DataTransferMode.EVERY_EXECUTION,
        launch.ints, device)
        .task("t", StageTasks::physicalBoundary, launch.ints, launch.count, device);
    runOnDevice("physicalBoundary", g, device);
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
    double[] ranges = new double[range.results.length];
    double[] measures = new double[box.results.length];
    TaskGraph g = new TaskGraph("tags").transferToDevice(DataTransferMode.EVERY_EXECUTION,
        range.ints, box.ints, a)
        .task("range", StageTasks::minMax, range.ints, range.count, a, ranges)
        .task("box", StageTasks::box, box.ints, box.count, a, measures)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, ranges);
    runOnDevice("minMax and box", g, measures);
    assertArrayEquals(range.results, ranges);
    Reference.assertClose(box.results, measures, 1e-15);
  }
}
