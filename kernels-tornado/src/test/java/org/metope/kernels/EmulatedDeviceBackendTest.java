package org.metope.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import java.util.function.BiConsumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;
import org.metope.kernels.tornado.DeviceTrace;
import org.metope.kernels.tornado.EmulatedDeviceBackend.Fault;
import org.metope.kernels.tornado.EmulatedDeviceBackend;

/**
 * The device launch logic of the TornadoVM backend (declaration, task bodies, written runs, host
 * scatter, columns version), run by the emulated device on random tables against the JVM backend:
 * the same bits, and nothing written back outside the cells a kernel wrote, even while another
 * writer changes the host arenas mid-launch. The faults of {@link Fault} are the negative
 * controls: each is caught by the same checks.
 */
class EmulatedDeviceBackendTest {

  private static int[] mixedOps(long seed, int count) {
    Random random = new Random(seed);
    int[] ops = new int[count];
    for (int i = 0; i < count; i++) {
      ops[i] = random.nextInt(BoundaryOp.FLUX_X3 + 1);
    }
    return ops;
  }

  /** Per-step flags with unallocated boundaries and every receive mode. */
  private static void setFlags(BoundaryTable t) {
    for (int b = 0; b < t.size; b++) {
      t.receiveMode[b] = b % 3;
      t.allocated[b] = b % 7 == 0 ? 0 : 1;
    }
  }

  /** One launch of each kernel, as {@code backend} runs it, on the arenas given. */
  private static void everyKernel(KernelBackend backend, BoundaryTable t, double[] data,
      double[] buffers) {
    backend.load(t, data, buffers);
    backend.restrictBlocks(t, t.all, t.size, data);
    backend.prolongate(t, t.all, t.size, data);
    backend.unload(t, data, buffers);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void givenEveryKernel_whenRunOnTheEmulatedDevice_thenTheBitsEqualTheJvm(int ndim) {
    Scenario s = Scenario.random(70 + ndim, ndim, mixedOps(ndim, 120));
    setFlags(s.table);
    double[] jvmData = s.data.clone();
    double[] jvmBuffers = s.buffers.clone();
    double[] deviceData = s.data.clone();
    double[] deviceBuffers = s.buffers.clone();
    try (KernelBackend jvm = new JvmKernelBackend(1);
        EmulatedDeviceBackend device = new EmulatedDeviceBackend()) {
      for (int step = 0; step < 2; step++) {
        everyKernel(jvm, s.table, jvmData, jvmBuffers);
        int[] jvmNonzero = s.table.nonzero.clone();
        Arrays.fill(s.table.nonzero, -1);
        everyKernel(device, s.table, deviceData, deviceBuffers);
        assertArrayEquals(jvmNonzero, s.table.nonzero);
      }
      assertEquals(2, device.launches(KernelKind.LOAD));
      assertEquals(4, device.declarations(), "one declaration per kernel kind");
    }
    assertArrayEquals(jvmData, deviceData);
    assertArrayEquals(jvmBuffers, deviceBuffers);
  }

  /** One kernel launched over a table; {@code data} and {@code buffers} may be written. */
  private enum Launch {
    LOAD((b, s) -> b.load(s.table, s.data, s.buffers)),
    UNLOAD((b, s) -> b.unload(s.table, s.data, s.buffers)),
    PROLONGATE((b, s) -> b.prolongate(s.table, s.table.all, s.table.size, s.data)),
    RESTRICT((b, s) -> b.restrictBlocks(s.table, s.table.all, s.table.size, s.data));

    final BiConsumer<KernelBackend, Scenario> run;

    Launch(BiConsumer<KernelBackend, Scenario> run) {
      this.run = run;
    }
  }

  /**
   * Runs {@code launch} on the emulated device while a stand-in for another task thread writes a
   * marker into every cell that the JVM backend's launch leaves unchanged; returns the number of
   * cells that then differ from the JVM result with those markers.
   */
  private static long wrongCellsWithAnotherWriter(Launch launch, Fault fault, int ndim) {
    Scenario reference = Scenario.random(90 + ndim, ndim, mixedOps(90 + ndim, 150));
    Scenario device = Scenario.random(90 + ndim, ndim, mixedOps(90 + ndim, 150));
    setFlags(reference.table);
    setFlags(device.table);
    try (KernelBackend jvm = new JvmKernelBackend(1)) {
      launch.run.accept(jvm, reference);
    }
    double[][] expected = {reference.data.clone(), reference.buffers.clone()};
    double[][] host = {device.data, device.buffers};
    boolean[][] untouched = new boolean[2][];
    for (int a = 0; a < 2; a++) {
      untouched[a] = new boolean[expected[a].length];
      for (int i = 0; i < expected[a].length; i++) {
        untouched[a][i] = Double.doubleToRawLongBits(expected[a][i])
            == Double.doubleToRawLongBits(host[a][i]);
        if (untouched[a][i]) {
          expected[a][i] = 1e9 + i;
        }
      }
    }
    try (EmulatedDeviceBackend backend = new EmulatedDeviceBackend(fault)) {
      backend.duringLaunch((kind, target) -> {
        for (int a = 0; a < 2; a++) {
          for (int i = 0; i < host[a].length; i++) {
            if (untouched[a][i]) {
              host[a][i] = 1e9 + i;
            }
          }
        }
      });
      launch.run.accept(backend, device);
    }
    long wrong = 0;
    for (int a = 0; a < 2; a++) {
      for (int i = 0; i < host[a].length; i++) {
        if (Double.doubleToRawLongBits(expected[a][i]) != Double.doubleToRawLongBits(host[a][i])) {
          wrong++;
        }
      }
    }
    assertArrayEquals(reference.table.nonzero, device.table.nonzero);
    return wrong;
  }

  @ParameterizedTest
  @EnumSource(Launch.class)
  void givenAnotherWriterDuringTheLaunch_thenOnlyTheKernelsCellsComeBack(Launch launch) {
    for (int ndim = 1; ndim <= 3; ndim++) {
      assertEquals(0, wrongCellsWithAnotherWriter(launch, Fault.NONE, ndim),
          launch + " ndim=" + ndim);
    }
  }

  @ParameterizedTest
  @EnumSource(Launch.class)
  void givenTheOldWholeArenaCopyBack_thenTheOtherWritersCellsAreLost(Launch launch) {
    assertTrue(wrongCellsWithAnotherWriter(launch, Fault.WHOLE_ARENA_COPY_BACK, 3) > 0);
  }

  /**
   * Unloads, then moves one boundary's buffer slice on the host (what a sparse receiver's
   * {@code refreshSparseOffsets} does) and unloads again; returns whether the device's second
   * unload equals the JVM's.
   */
  private static boolean unloadAfterMovingASlice(EmulatedDeviceBackend device) {
    Scenario s = Scenario.random(7, 3, new int[12]);
    double[] jvmData = s.data.clone();
    double[] deviceData = s.data.clone();
    try (KernelBackend jvm = new JvmKernelBackend(1)) {
      device.unload(s.table, deviceData, s.buffers);
      int b = 5;
      int moved = s.table.get(BoundaryTable.BUFFER_OFFSET, b) == 0 ? 1 : 0;
      s.table.setBufferOffset(b, moved);
      assertEquals(1, s.table.columnsVersion());
      s.table.setBufferOffset(b, moved);
      assertEquals(1, s.table.columnsVersion(), "an unchanged offset is no change");
      jvm.unload(s.table, jvmData, s.buffers);
      device.unload(s.table, deviceData, s.buffers);
    }
    return Arrays.equals(jvmData, deviceData);
  }

  @org.junit.jupiter.api.Test
  void givenABufferOffsetChangedOnTheHost_thenTheColumnsAreUploadedAgain() {
    try (EmulatedDeviceBackend device = new EmulatedDeviceBackend()) {
      assertTrue(unloadAfterMovingASlice(device));
      assertEquals(2, device.declarations());
    }
  }

  @org.junit.jupiter.api.Test
  void givenColumnsUploadedOnlyOnce_thenAMovedSliceIsReadFromTheOldPlace() {
    try (EmulatedDeviceBackend device = new EmulatedDeviceBackend(Fault.COLUMNS_UPLOADED_ONCE)) {
      assertFalse(unloadAfterMovingASlice(device));
      // Declared again, as by a correct backend, but the device kept the columns it had.
      assertEquals(2, device.declarations());
    }
  }

  @org.junit.jupiter.api.Test
  void givenALoadAndAnUnload_thenTheTraceCountsTheirStagedCellsBackAndWholeArenasIn() {
    Scenario s = Scenario.random(11, 3, new int[30]);
    BoundaryTable t = s.table;
    long ghostCells = 0;
    for (int b = 0; b < t.size; b++) {
      ghostCells += t.bufferLength(b);
    }
    DeviceTrace trace = new DeviceTrace(null);
    try (EmulatedDeviceBackend device = new EmulatedDeviceBackend(Fault.NONE, trace)) {
      device.load(t, s.data, s.buffers);
      trace.endStage(0, 1);
      device.load(t, s.data, s.buffers);
      assertEquals(8 * ghostCells + 4L * t.size, trace.stageToHost(), "slices and flags");
      assertEquals(8L * (s.data.length + s.buffers.length) + 4L * t.size, trace.stageToDevice(),
          "arenas and allocation flags at every launch");
      trace.endStage(0, 2);
      device.unload(t, s.data, s.buffers);
      assertEquals(8 * ghostCells, trace.stageToHost(), "the boxes, as many cells as slices");
    }
    assertTrue(8 * ghostCells < 8L * s.buffers.length, "fewer bytes back than a whole arena");
  }
}
