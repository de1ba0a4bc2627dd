package org.metope.kernels.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;
import org.metope.kernels.JvmKernelBackend;
import org.metope.kernels.KernelBackend;
import org.metope.kernels.KernelKind;
import org.metope.kernels.Scenario;
import org.metope.kernels.body.StageLaunch;
import org.metope.kernels.body.TagLaunch;

/**
 * The launch tables of the resident TornadoVM backend and the tasks that read them, run on the
 * JVM as {@link TornadoResident}'s graphs run them: launches of two tables (one registered
 * after the other, so at a base) and of stage kernels share one set of arrays that start at
 * capacity 1 and grow, and every launch gives the JVM backend's bits. The negative control runs a
 * launch with the column stride it had before the columns were laid out again.
 */
class LaunchTablesTest {
  private static final KernelKind[] KINDS = {
      KernelKind.LOAD, KernelKind.RESTRICT, KernelKind.PROLONGATE, KernelKind.UNLOAD};

  private int resizes;
  private final LaunchTables tables = new LaunchTables(change -> {
    resizes++;
    change.run();
  });

  private static int[] mixedOps(long seed, int count) {
    Random random = new Random(seed);
    int[] ops = new int[count];
    for (int i = 0; i < count; i++) {
      ops[i] = random.nextInt(BoundaryOp.FLUX_X3 + 1);
    }
    return ops;
  }

  /** Per-step state with unallocated boundaries and every receive mode, shifted by {@code step}. */
  private static void setFlags(BoundaryTable t, int step) {
    for (int b = 0; b < t.size; b++) {
      t.receiveMode[b] = (b + step) % 3;
      t.allocated[b] = (b + step) % 7 == 0 ? 0 : 1;
      t.crossRank[b] = b % 2;
    }
  }

  /** Three subsets of a table: all, the first half and the odd boundaries. */
  private static int[][] subsets(BoundaryTable t) {
    int[] half = Arrays.copyOf(t.all, t.size / 2);
    int[] odd = new int[t.size / 2];
    for (int e = 0; e < odd.length; e++) {
      odd[e] = 2 * e + 1;
    }
    return new int[][] {t.all, half, odd};
  }

  /** One launch as the device runs it: the tasks of its graph over the tables' arrays. */
  private void launch(KernelKind kind, BoundaryTable t, int[] subset, double[] data,
      double[] buffers) {
    LaunchTables.Boundary l = tables.boundary(kind, t, subset, subset.length);
    int[] args = l.args();
    switch (kind) {
      case LOAD -> {
        ResidentTasks.clearFlags(args, tables.flags);
        ResidentTasks.load(args, tables.launches, tables.ints, tables.reals, tables.step,
            tables.flags, data, buffers);
        for (int e = 0; e < subset.length; e++) {
          t.nonzero[subset[e]] = tables.flags[e];
        }
      }
      case UNLOAD -> ResidentTasks.unload(args, tables.launches, tables.ints, tables.reals,
          tables.step, data, buffers);
      case PROLONGATE -> ResidentTasks.prolongate(args, tables.launches, tables.ints,
          tables.reals, tables.step, data);
      case RESTRICT -> ResidentTasks.restrictRows(args, tables.launches, tables.ints,
          tables.reals, tables.step, data);
      default -> throw new IllegalStateException("kind=" + kind);
    }
  }

  private static void jvmLaunch(KernelBackend jvm, KernelKind kind, BoundaryTable t,
      int[] subset, double[] data, double[] buffers) {
    switch (kind) {
      case LOAD -> jvm.load(t, subset, subset.length, data, buffers);
      case UNLOAD -> jvm.unload(t, subset, subset.length, data, buffers);
      case PROLONGATE -> jvm.prolongate(t, subset, subset.length, data);
      case RESTRICT -> jvm.restrictBlocks(t, subset, subset.length, data);
      default -> throw new IllegalStateException("kind=" + kind);
    }
  }

  @Test
  void givenTwoTablesAndGrowingCapacities_whenEveryKernelRuns_thenTheBitsEqualTheJvm() {
    Scenario[] device = {Scenario.random(11, 3, mixedOps(11, 60)),
        Scenario.random(12, 2, mixedOps(12, 40))};
    Scenario[] jvm = {Scenario.random(11, 3, mixedOps(11, 60)),
        Scenario.random(12, 2, mixedOps(12, 40))};
    int[][][] deviceSubsets = {subsets(device[0].table), subsets(device[1].table)};
    int[][][] jvmSubsets = {subsets(jvm[0].table), subsets(jvm[1].table)};
    try (KernelBackend backend = new JvmKernelBackend(1)) {
      for (int step = 0; step < 2; step++) {
        int resizesBefore = resizes;
        for (int k = 0; k < KINDS.length; k++) {
          for (int s = 0; s < 2; s++) {
            setFlags(device[s].table, step + k);
            setFlags(jvm[s].table, step + k);
            for (int i = 0; i < deviceSubsets[s].length; i++) {
              launch(KINDS[k], device[s].table, deviceSubsets[s][i], device[s].data,
                  device[s].buffers);
              jvmLaunch(backend, KINDS[k], jvm[s].table, jvmSubsets[s][i], jvm[s].data,
                  jvm[s].buffers);
              assertArrayEquals(jvm[s].table.nonzero, device[s].table.nonzero);
            }
          }
        }
        if (step == 1) {
          assertEquals(resizesBefore, resizes, "launches seen before append nothing");
        }
      }
    }
    assertTrue(resizes >= 2, "the capacities grew: resizes=" + resizes);
    for (int s = 0; s < 2; s++) {
      assertArrayEquals(jvm[s].data, device[s].data);
      assertArrayEquals(jvm[s].buffers, device[s].buffers);
    }
  }

  @Test
  void givenMovedBufferOffsets_whenALoadRunsAgain_thenItWritesTheNewSlices() {
    Scenario device = Scenario.random(21, 2, mixedOps(21, 30));
    Scenario jvm = Scenario.random(21, 2, mixedOps(21, 30));
    setFlags(device.table, 0);
    setFlags(jvm.table, 0);
    try (KernelBackend backend = new JvmKernelBackend(1)) {
      launch(KernelKind.LOAD, device.table, device.table.all, device.data, device.buffers);
      backend.load(jvm.table, jvm.table.all, jvm.table.size, jvm.data, jvm.buffers);
      // boundary 0 and the next one of its length swap their slices
      int b1 = 1;
      for (int b = 1; b < device.table.size; b++) {
        if (device.table.get(BoundaryTable.CELLS, b) == device.table.get(BoundaryTable.CELLS, 0)) {
          b1 = b;
          break;
        }
      }
      for (Scenario s : new Scenario[] {device, jvm}) {
        int o0 = s.table.get(BoundaryTable.BUFFER_OFFSET, 0);
        int o1 = s.table.get(BoundaryTable.BUFFER_OFFSET, b1);
        s.table.setBufferOffset(0, o1);
        s.table.setBufferOffset(b1, o0);
      }
      launch(KernelKind.LOAD, device.table, device.table.all, device.data, device.buffers);
      backend.load(jvm.table, jvm.table.all, jvm.table.size, jvm.data, jvm.buffers);
    }
    assertArrayEquals(jvm.buffers, device.buffers);
  }

  @Test
  void givenStageLaunchesBetweenBoundaryLaunches_whenRun_thenTheyEqualTheHostLauncher() {
    Random random = new Random(5);
    double[] host = Scenario.randomArray(random, 4096);
    double[] device = host.clone();
    Scenario s = Scenario.random(31, 3, mixedOps(31, 20));
    setFlags(s.table, 0);
    launch(KernelKind.LOAD, s.table, s.table.all, s.data, s.buffers);
    StageLaunch divergence = divergence(random, 3);
    StageLaunch sum = new StageLaunch(StageLaunch.Kind.WEIGHTED_SUM,
        new int[] {0, 1000, 2000, 500, 3000, 100, 200, 300}, new double[0], 2);
    for (int round = 0; round < 2; round++) {
      divergence.runOnHost(host, 0, 0);
      int[] args = tables.stage(divergence);
      ResidentTasks.divergence(args, tables.launches, tables.launchReals, device);
      sum.runOnHost(host, 0.5 + round, -0.25);
      args = tables.stage(sum);
      ResidentTasks.weightedSum(args, tables.launches, new double[] {0.5 + round, -0.25},
          device);
    }
    assertArrayEquals(host, device);
  }

  @Test
  void givenConditionsRangesAndPackageBodiesAfterOtherLaunches_whenRun_thenEqualToTheHost() {
    Random random = new Random(6);
    double[] host = Scenario.randomArray(random, 4096);
    double[] before = host.clone();
    double[] device = host.clone();
    tables.stage(divergence(random, 3)); // so that the entries below do not start at 0
    StageLaunch conditions = Scenario.physicalBoundary(8, 2);
    TagLaunch ranges = new TagLaunch(TagLaunch.Kind.MIN_MAX,
        new int[] {0, 512, 600, 100, 4095, 1}, 3);
    StageLaunch[] bodies = Scenario.packageBodies(8);
    StageLaunch derived = bodies[0];
    StageLaunch step = bodies[1];
    for (int round = 0; round < 2; round++) {
      conditions.runOnHost(host, 0, 0);
      ranges.runOnHost(host);
      ResidentTasks.physicalBoundary(tables.stage(conditions), tables.launches, device);
      int[] args = tables.tag(ranges);
      assertTrue(args[LaunchTables.ENTRY] > 0, "entries after the divergence ones");
      ResidentTasks.minMax(args, tables.launches, device, tables.results);
      assertArrayEquals(ranges.results, Arrays.copyOf(tables.results, ranges.results.length));
      derived.runOnHost(host, 0, 0);
      step.runOnHost(host, 0, 0);
      ResidentTasks.cells(derived, tables.stage(derived), tables.launches, tables.launchReals,
          device);
      ResidentTasks.cellsReduction(step, tables.stage(step), tables.launches, tables.launchReals,
          device, tables.results);
      assertArrayEquals(step.results, Arrays.copyOf(tables.results, 2));
    }
    assertFalse(step.results[0] == step.results[1], "the spacings give different steps");
    assertFalse(Arrays.equals(before, host), "the conditions wrote ghost cells");
    assertArrayEquals(host, device);
  }

  /**
   * A DIVERGENCE launch of {@code count} 3D entries: rows of 6 cells, outputs 400 apart below
   * 1,200, fluxes from 1,200 up (below 4,096).
   */
  private static StageLaunch divergence(Random random, int count) {
    int width = StageLaunch.Kind.DIVERGENCE.width;
    int[] ints = new int[count * width];
    double[] reals = new double[count * StageLaunch.Kind.DIVERGENCE.realWidth];
    for (int e = 0; e < count; e++) {
      int kb = random.nextInt(2);
      int[] entry = {400 * e, 1200 + 300 * e, 2200 + 300 * e, 3100 + 300 * e, 3, 1, 6, 1, 5, kb,
          kb + random.nextInt(2), 10, 100};
      System.arraycopy(entry, 0, ints, e * width, width);
      for (int n = 0; n < 4; n++) {
        reals[4 * e + n] = random.nextDouble() + 0.5;
      }
    }
    return new StageLaunch(StageLaunch.Kind.DIVERGENCE, ints, reals, count);
  }

  @Test
  void givenColumnsThatGrew_whenAnOldLaunchRuns_thenItsNewStrideIsRightAndTheStaleOneWrong() {
    Scenario first = Scenario.random(41, 2, mixedOps(41, 8));
    Scenario second = Scenario.random(42, 2, mixedOps(42, 64));
    Scenario jvm = Scenario.random(41, 2, mixedOps(41, 8));
    setFlags(first.table, 0);
    setFlags(jvm.table, 0);
    setFlags(second.table, 0);
    int[] stale = tables.boundary(KernelKind.LOAD, first.table, first.table.all,
        first.table.size).args().clone();
    tables.boundary(KernelKind.LOAD, second.table, second.table.all, second.table.size);
    assertTrue(tables.columns > stale[LaunchTables.N], "the columns were laid out again");
    int[] fresh = tables.boundary(KernelKind.LOAD, first.table, first.table.all,
        first.table.size).args();
    try (KernelBackend backend = new JvmKernelBackend(1)) {
      backend.load(jvm.table, jvm.table.all, jvm.table.size, jvm.data, jvm.buffers);
    }
    double[] buffers = first.buffers.clone();
    ResidentTasks.load(fresh, tables.launches, tables.ints, tables.reals, tables.step,
        tables.flags, first.data, buffers);
    assertArrayEquals(jvm.buffers, buffers, "the launch registered before the columns grew");
    boolean wrong;
    try {
      ResidentTasks.load(stale, tables.launches, tables.ints, tables.reals, tables.step,
          tables.flags, first.data, first.buffers);
      wrong = !Arrays.equals(jvm.buffers, first.buffers);
    } catch (ArrayIndexOutOfBoundsException e) {
      wrong = true; // the stale stride read offsets from the wrong columns
    }
    assertTrue(wrong, "a launch with the stale column stride must go wrong");
  }
}
