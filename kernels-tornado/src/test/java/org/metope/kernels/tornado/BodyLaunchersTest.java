package org.metope.kernels.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.kernels.body.CellBody;
import org.metope.kernels.body.CellMeasure;
import org.metope.kernels.body.DevicePack;
import org.metope.kernels.body.StageLaunch;

/**
 * The launchers made per body ({@link BodyLaunchers}) run on the JVM, where {@code @Parallel} is
 * only an annotation: a copy calls the body it was made for, with the host launcher's bits (a
 * measure's copy under each of the three folds, from the launch's args), is
 * named after it in its package, and is written where TornadoVM reads class files; bodies a
 * device cannot call are refused in one sentence. Negative control: the copy made for another
 * body gives other values, so a copy that kept a fixed call would fail.
 */
class BodyLaunchersTest {
  private static final int N = 6;
  private static final int CELLS = N * N * N;

  static void doubled(double[] a, int[] t, int at, double[] r, int rat, int k, int j, int i) {
    DevicePack.set(a, t, at, 1, k, j, i, 2.0 * DevicePack.get(a, t, at, 0, k, j, i)
        + DevicePack.real(r, rat, 0) * DevicePack.below(a, t, at, 0, k, j, i));
  }

  static void negated(double[] a, int[] t, int at, double[] r, int rat, int k, int j, int i) {
    DevicePack.set(a, t, at, 1, k, j, i, -DevicePack.get(a, t, at, 0, k, j, i));
  }

  static double scaled(double[] a, int[] t, int at, double[] r, int rat, int k, int j, int i) {
    return DevicePack.get(a, t, at, 0, k, j, i) * DevicePack.real(r, rat, 0);
  }

  private static void hidden(double[] a, int[] t, int at, double[] r, int rat, int k, int j,
      int i) {
    a[0] = 1.0;
  }

  /** Two blocks: u of block b at b * CELLS, v at (2 + b) * CELLS, box 1..N-2, shift 1. */
  private static int[] entries() {
    int width = DevicePack.width(2);
    int[] t = new int[2 * width];
    for (int b = 0; b < 2; b++) {
      int[] entry = {1, N - 2, 1, N - 3, 1, N - 2, N, N * N, 1, 2, b * CELLS, (2 + b) * CELLS,
          -1, -1};
      System.arraycopy(entry, 0, t, b * width, width);
    }
    return t;
  }

  private static double[] arena() {
    double[] a = new double[4 * CELLS];
    for (int i = 0; i < 2 * CELLS; i++) {
      a[i] = Math.cos(0.29 * i) + 0.05;
    }
    return a;
  }

  /**
   * Runs {@code launch} with its body's launcher copy on the JVM over launch tables, as the device
   * would: by a method handle, since reflection would resolve the TornadoVM types of the copy's
   * {@code task()}.
   */
  private static void runCopy(StageLaunch launch, double[] a) throws Throwable {
    LaunchTables tables = new LaunchTables(Runnable::run);
    int[] args = tables.stage(launch);
    boolean cells = launch.kind == StageLaunch.Kind.CELLS;
    assertEquals(cells ? 0 : BodyGraphs.fold(launch.kind), args[LaunchTables.FOLD]);
    Class<?> copy = cells ? BodyLaunchers.launcher(BodyLaunchers.Shape.CELLS, launch.body)
        : BodyLaunchers.launcher(BodyLaunchers.Shape.REDUCTION, launch.measure);
    MethodType arrays = MethodType.methodType(void.class, int[].class, int[].class,
        double[].class, double[].class);
    if (cells) {
      MethodHandle run = MethodHandles.publicLookup().findStatic(copy, "cells", arrays);
      run.invoke(args, tables.launches, tables.launchReals, a);
    } else {
      MethodHandle run = MethodHandles.publicLookup().findStatic(copy, "reduce",
          arrays.appendParameterTypes(double[].class));
      run.invoke(args, tables.launches, tables.launchReals, a, launch.results);
    }
  }

  private static StageLaunch cells(CellBody body) {
    return StageLaunch.cells(body, DevicePack.width(2), 1, entries(), new double[] {0.5, -3.0},
        2);
  }

  @Test
  void givenACellBody_whenItsCopyRuns_thenItWritesTheHostLaunchersBits() throws Throwable {
    double[] host = arena();
    cells(BodyLaunchersTest::doubled).runOnHost(host, 0, 0);
    double[] device = arena();
    runCopy(cells(BodyLaunchersTest::doubled), device);
    assertArrayEquals(host, device);
    assertFalse(Arrays.equals(arena(), host), "the body wrote v");
    double[] other = arena();
    runCopy(cells(BodyLaunchersTest::negated), other);
    assertFalse(Arrays.equals(host, other), "another body's copy calls that body");
  }

  @Test
  void givenAMeasure_whenItsCopyReduces_thenEachBlocksFoldIsTheHosts() throws Throwable {
    for (StageLaunch.Kind kind : new StageLaunch.Kind[] {StageLaunch.Kind.CELLS_MINIMUM,
        StageLaunch.Kind.CELLS_MAXIMUM, StageLaunch.Kind.CELLS_SUM}) {
      StageLaunch host = StageLaunch.reduction(kind, BodyLaunchersTest::scaled,
          DevicePack.width(2), 1, entries(), new double[] {0.5, -3.0}, 2);
      host.runOnHost(arena(), 0, 0);
      StageLaunch device = StageLaunch.reduction(kind, BodyLaunchersTest::scaled,
          DevicePack.width(2), 1, entries(), new double[] {0.5, -3.0}, 2);
      runCopy(device, arena());
      assertArrayEquals(host.results, device.results, kind.name());
      assertTrue(host.results[0] != host.results[1], "the blocks' reals differ");
    }
  }

  @Test
  void givenABody_whenCopied_thenTheCopyIsNamedAfterItInItsPackage() {
    Class<?> copy = BodyLaunchers.launcher(BodyLaunchers.Shape.CELLS,
        (CellBody) BodyLaunchersTest::negated);
    assertEquals(BodyLaunchersTest.class.getName() + "$MetopeCells$negated", copy.getName());
    assertEquals(BodyLaunchersTest.class.getClassLoader(), copy.getClassLoader());
    assertEquals(copy, BodyLaunchers.launcher(BodyLaunchers.Shape.CELLS,
        (CellBody) BodyLaunchersTest::negated), "made once");
  }

  @Test
  void givenALauncherDirectory_whenACopyIsMade_thenItsClassFileIsWrittenThere(
      @TempDir Path directory) throws Exception {
    System.setProperty(BodyLaunchers.DIRECTORY_PROPERTY, directory.toString());
    try {
      assertTrue(BodyLaunchers.published());
      BodyLaunchers.launcher(BodyLaunchers.Shape.REDUCTION,
          (CellMeasure) BodyLaunchersTornadoFree::measure);
    } finally {
      System.clearProperty(BodyLaunchers.DIRECTORY_PROPERTY);
    }
    Path file = directory.resolve(BodyLaunchersTornadoFree.class.getName().replace('.', '/')
        + "$MetopeReduction$measure.class");
    assertTrue(Files.isRegularFile(file), file + " written");
    assertFalse(BodyLaunchers.published());
  }

  @Test
  void givenBodiesADeviceCannotCall_whenCopied_thenEachIsRefusedInOneSentence() {
    CellBody lambda = (a, t, at, r, rat, k, j, i) -> a[0] = 1.0;
    CellBody anonymous = new CellBody() {
      @Override
      public void apply(double[] a, int[] t, int at, double[] r, int rat, int k, int j, int i) {
        a[0] = 1.0;
      }
    };
    CellBody secret = BodyLaunchersTest::hidden;
    assertRefused(lambda, "a lambda expression in " + BodyLaunchersTest.class.getName());
    assertRefused(anonymous, "it is not a method reference");
    assertRefused(secret, "hidden is private");
  }

  private static void assertRefused(CellBody body, String why) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> BodyLaunchers.launcher(BodyLaunchers.Shape.CELLS, body));
    assertTrue(e.getMessage().startsWith("a device body must be a reference to a static method"),
        e.getMessage());
    assertTrue(e.getMessage().contains(why), e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
  }

  /** A measure of its own class, so that its copy is made in this test only. */
  static final class BodyLaunchersTornadoFree {
    private BodyLaunchersTornadoFree() {}

    static double measure(double[] a, int[] t, int at, double[] r, int rat, int k, int j,
        int i) {
      return a[0];
    }
  }
}
