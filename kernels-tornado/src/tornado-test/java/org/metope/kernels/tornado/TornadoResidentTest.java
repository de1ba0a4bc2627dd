package org.metope.kernels.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.metope.kernels.Scenario;
import org.metope.kernels.body.StageLaunch;
import org.metope.kernels.body.TagLaunch;

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

  @Test
  void givenManyLaunchesAndANewArena_whenRun_thenOnePlanServesThemAll() {
    // 12 different weighted sums over blocks of 64, on one arena and then on its successor
    int blocks = 6;
    StageLaunch[] launches = new StageLaunch[12];
    for (int i = 0; i < launches.length; i++) {
      int z = i % blocks;
      int[] entry = {z * LENGTH, ((z + 1) % blocks) * LENGTH, ((z + 2) % blocks) * LENGTH,
          LENGTH - i};
      launches[i] = new StageLaunch(StageLaunch.Kind.WEIGHTED_SUM, entry, new double[0], 1);
    }
    Random random = new Random(4);
    try (TornadoKernelBackend device = new TornadoKernelBackend(true)) {
      for (int arenaIndex = 0; arenaIndex < 2; arenaIndex++) {
        double[] host = new double[blocks * LENGTH];
        for (int i = 0; i < host.length; i++) {
          host[i] = random.nextDouble();
        }
        double[] arena = host.clone();
        for (int i = 0; i < launches.length; i++) {
          // powers of two: each product exact, so a device's fused multiply-add changes no bit
          double w1 = 1.0 / (1 << (i % 4));
          launches[i].runOnHost(host, w1, 0.5);
          device.stage(launches[i], arena, w1, 0.5);
        }
        device.acquireHost(arena, false);
        device.releaseHost(arena);
        assertArrayEquals(host, arena);
        assertEquals(1, device.plansMade(arena), "arena " + arenaIndex);
        device.releaseArena(arena);
      }
    }
  }

  @Test
  void givenBoundaryConditionsAndRanges_whenRunResident_thenTheyEqualTheHostInOnePlan() {
    // two components of an 8^3 block: the conditions on the device arena, then ranges measured
    // there (only the results cross back), twice; then the host acquires
    StageLaunch conditions = Scenario.physicalBoundary(8, 2);
    TagLaunch ranges = new TagLaunch(TagLaunch.Kind.MIN_MAX, new int[] {0, 512, 600, 100}, 2);
    double[] host = Scenario.randomArray(new Random(5), 2 * 512);
    double[] before = host.clone();
    double[] arena = host.clone();
    try (TornadoKernelBackend device = new TornadoKernelBackend(true)) {
      for (int round = 0; round < 2; round++) {
        conditions.runOnHost(host, 0, 0);
        ranges.runOnHost(host);
        double[] expected = ranges.results.clone();
        Arrays.fill(ranges.results, Double.NaN);
        device.stage(conditions, arena, 0, 0);
        device.measure(ranges, arena);
        assertArrayEquals(expected, ranges.results, "round " + round);
      }
      device.acquireHost(arena, false);
      device.releaseHost(arena);
      assertEquals(1, device.plansMade(arena));
    }
    assertFalse(Arrays.equals(before, host), "the conditions wrote ghost cells");
    assertArrayEquals(host, arena);
  }

  @Test
  void givenPackageBodiesAfterOthers_whenRunResident_thenTheyJoinThePlanAndEqualTheHost() {
    // one 8^3 block: u (3 components) and d at 0, the energy at 4 * 512; the conditions on the
    // device first, then a package's cell body and per-block minimum (Scenario.packageBodies),
    // each a graph of its own added to the plan (BodyGraphs), twice
    StageLaunch[] bodies = Scenario.packageBodies(8);
    StageLaunch energy = bodies[0];
    StageLaunch step = bodies[1];
    StageLaunch conditions = Scenario.physicalBoundary(8, 2);
    double[] host = Scenario.randomArray(new Random(6), 5 * 512);
    double[] arena = host.clone();
    int plans = 0;
    try (TornadoKernelBackend device = new TornadoKernelBackend(true)) {
      for (int round = 0; round < 2; round++) {
        for (StageLaunch launch : new StageLaunch[] {conditions, energy, step}) {
          launch.runOnHost(host, 0, 0);
        }
        double[] expected = step.results.clone();
        Arrays.fill(step.results, Double.NaN);
        for (StageLaunch launch : new StageLaunch[] {conditions, energy, step}) {
          device.stage(launch, arena, 0, 0);
        }
        assertArrayEquals(expected, step.results, "round " + round);
        plans = round == 0 ? device.plansMade(arena) : plans;
      }
      assertEquals(plans, device.plansMade(arena), "the second round made no plan");
      device.acquireHost(arena, false);
      device.releaseHost(arena);
    }
    assertFalse(step.results[0] == step.results[1], "the spacings give different steps");
    // the energy's sum of products may become fused multiply-adds on the device
    assertArrayEquals(host, arena, 1e-13);
  }
}
