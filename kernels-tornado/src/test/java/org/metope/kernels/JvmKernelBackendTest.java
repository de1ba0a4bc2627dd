package org.metope.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;

class JvmKernelBackendTest {

  /** Everything a sequence of launches leaves behind. */
  private record Outcome(double[] data, double[] buffers, int[] nonzero) {}

  private static int[] mixedOps(long seed, int count) {
    Random random = new Random(seed);
    int[] ops = new int[count];
    for (int i = 0; i < count; i++) {
      ops[i] = random.nextInt(BoundaryOp.FLUX_X3 + 1);
    }
    return ops;
  }

  private static Outcome runAllKernels(KernelBackend backend, Scenario s) {
    BoundaryTable t = s.table;
    double[] data = s.data.clone();
    double[] buffers = s.buffers.clone();
    for (int b = 0; b < t.size; b++) {
      t.receiveMode[b] = b % 3;
      t.allocated[b] = b % 7 == 0 ? 0 : 1;
    }
    backend.load(t, data, buffers);
    int[] nonzero = t.nonzero.clone();
    backend.restrictBlocks(t, t.all, t.size, data);
    backend.prolongate(t, t.all, t.size, data);
    backend.unload(t, data, buffers);
    return new Outcome(data, buffers, nonzero);
  }

  @Test
  void givenOneAndManyThreads_whenEveryKernelRuns_thenTheBitsAreIdentical() {
    for (int ndim = 1; ndim <= 3; ndim++) {
      Scenario s = Scenario.random(40 + ndim, ndim, mixedOps(ndim, 300));
      Outcome reference;
      try (KernelBackend one = new JvmKernelBackend(1)) {
        reference = runAllKernels(one, s);
      }
      for (int threads : new int[] {2, 3, 5}) {
        try (KernelBackend many = new JvmKernelBackend(threads)) {
          Outcome outcome = runAllKernels(many, s);
          assertArrayEquals(reference.data(), outcome.data(), "threads=" + threads);
          assertArrayEquals(reference.buffers(), outcome.buffers(), "threads=" + threads);
          assertArrayEquals(reference.nonzero(), outcome.nonzero(), "threads=" + threads);
        }
      }
    }
  }

  @Test
  void givenATable_whenLoadedInOne_thenEveryBoundaryMatchesTheNestedLoops() {
    Scenario s = Scenario.random(3, 3, mixedOps(3, 60));
    double[] expected = s.buffers.clone();
    int[] expectedFlags = new int[s.table.size];
    for (int b = 0; b < s.table.size; b++) {
      expectedFlags[b] = Reference.load(s.specs.get(b), s.data, expected);
    }
    double[] actual = s.buffers.clone();
    try (KernelBackend backend = new JvmKernelBackend(2)) {
      backend.load(s.table, s.data, actual);
    }
    Reference.assertClose(expected, actual, 1e-14);
    assertArrayEquals(expectedFlags, s.table.nonzero);
  }

  @Test
  void givenASubset_whenLaunched_thenOnlyItsBoundariesAreTouched() {
    Scenario s = Scenario.random(5, 3, BoundaryOp.COPY, BoundaryOp.COPY, BoundaryOp.COPY,
        BoundaryOp.COPY);
    double[] buffers = s.buffers.clone();
    try (KernelBackend backend = new JvmKernelBackend(2)) {
      backend.load(s.table, new int[] {3, 1, 99}, 2, s.data, buffers);
    }
    double[] expected = s.buffers.clone();
    Reference.load(s.specs.get(1), s.data, expected);
    Reference.load(s.specs.get(3), s.data, expected);
    assertArrayEquals(expected, buffers);
  }

  @Test
  void givenUnallocatedAndOtherOps_whenRefinementLaunchesRun_thenTheyAreSkipped() {
    Scenario s = Scenario.random(9, 2, BoundaryOp.PROLONGATE, BoundaryOp.RESTRICT,
        BoundaryOp.PROLONGATE, BoundaryOp.COPY);
    s.table.allocated[2] = 0;
    double[] data = s.data.clone();
    double[] expected = s.data.clone();
    Reference.prolongate(s.specs.get(0), expected);
    try (KernelBackend backend = new JvmKernelBackend(1)) {
      backend.prolongate(s.table, s.table.all, s.table.size, data);
      Reference.assertClose(expected, data, 1e-13);
      s.table.allocated[1] = 0;
      double[] buffers = s.buffers.clone();
      backend.load(s.table, data, buffers);
      assertEquals(0, s.table.nonzero[1]);
      int slice = s.table.get(BoundaryTable.BUFFER_OFFSET, 1);
      assertArrayEquals(Arrays.copyOfRange(s.buffers, slice, slice + s.table.bufferLength(1)),
          Arrays.copyOfRange(buffers, slice, slice + s.table.bufferLength(1)));
    }
  }

  @Test
  void givenLaunchesOfEachKind_whenCounted_thenEachCallCountsOnceWhateverItsSize() {
    Scenario s = Scenario.random(1, 3, BoundaryOp.COPY, BoundaryOp.PROLONGATE);
    try (KernelBackend backend = new JvmKernelBackend(2)) {
      for (int i = 0; i < 3; i++) {
        backend.load(s.table, s.data, s.buffers);
      }
      backend.unload(s.table, s.table.all, 0, s.data, s.buffers);
      backend.prolongate(s.table, s.table.all, 1, s.data);
      assertEquals(3, backend.launches(KernelKind.LOAD));
      assertEquals(1, backend.launches(KernelKind.UNLOAD));
      assertEquals(1, backend.launches(KernelKind.PROLONGATE));
      assertEquals(0, backend.launches(KernelKind.RESTRICT));
    }
  }

  @Test
  void givenAWarmBackend_whenLaunchedAThousandTimes_thenNoThreadAllocates() {
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    Scenario s = Scenario.random(11, 3, mixedOps(11, 40));
    try (JvmKernelBackend backend = new JvmKernelBackend(2)) {
      launchMany(backend, s, 3000);
      long worker = workerThreadId(mx);
      long callerBefore = mx.getCurrentThreadAllocatedBytes();
      long workerBefore = mx.getThreadAllocatedBytes(worker);
      launchMany(backend, s, 1000);
      long callerBytes = mx.getCurrentThreadAllocatedBytes() - callerBefore;
      long workerBytes = mx.getThreadAllocatedBytes(worker) - workerBefore;
      assertTrue(callerBytes < 1024, "caller allocated " + callerBytes + " bytes");
      assertTrue(workerBytes < 1024, "worker allocated " + workerBytes + " bytes");
    }
  }

  @Test
  void givenABadSubset_whenLaunched_thenTheFailureSurfacesAndTheBackendStillWorks() {
    Scenario s = Scenario.random(2, 3, BoundaryOp.COPY, BoundaryOp.COPY);
    try (KernelBackend backend = new JvmKernelBackend(2)) {
      assertThrows(ArrayIndexOutOfBoundsException.class,
          () -> backend.load(s.table, new int[] {0, 7}, 2, s.data, s.buffers));
      assertThrows(IllegalArgumentException.class,
          () -> backend.load(s.table, new int[] {0}, 2, s.data, s.buffers));
      double[] buffers = s.buffers.clone();
      backend.load(s.table, s.data, buffers);
      double[] expected = s.buffers.clone();
      Reference.load(s.specs.get(0), s.data, expected);
      Reference.load(s.specs.get(1), s.data, expected);
      assertArrayEquals(expected, buffers);
    }
  }

  private static void launchMany(KernelBackend backend, Scenario s, int times) {
    BoundaryTable t = s.table;
    for (int i = 0; i < times; i++) {
      backend.load(t, s.data, s.buffers);
      backend.prolongate(t, t.all, t.size, s.data);
      backend.unload(t, s.data, s.buffers);
    }
  }

  private static long workerThreadId(com.sun.management.ThreadMXBean mx) {
    for (long id : mx.getAllThreadIds()) {
      java.lang.management.ThreadInfo info = mx.getThreadInfo(id);
      if (info != null && info.getThreadName().equals("metope-kernels-1")) {
        return id;
      }
    }
    throw new AssertionError("no worker thread named metope-kernels-1");
  }
}
