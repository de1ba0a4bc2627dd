package org.metope.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;

/**
 * The TornadoVM backend against the JVM reference, on the same random tables. Compiled and run
 * only under {@code -Ptornado}, with TornadoVM's fallback to plain Java switched off so that these
 * tests prove device execution. Copies must agree bit for bit; arithmetic kernels to 1e-15 on
 * values of order 1, because an OpenCL compiler contracts {@code a * b + c} into a fused
 * multiply-add where the JVM never does (seen with PoCL: differences up to 3e-16).
 */
class TornadoKernelBackendTest {
  private static final double ARITHMETIC_TOLERANCE = 1e-15;
  /**
   * Linear slopes are not limited, so a child's terms are larger than the cell's value on these
   * random tables and their contractions change more of its last bits (seen on PoCL: 1.6e-15;
   * every boundary linear on the device but min-mod on the JVM: 1.3).
   */
  private static final double LINEAR_TOLERANCE = 1e-14;

  private static int[] mixedOps(long seed, int count) {
    Random random = new Random(seed);
    int[] ops = new int[count];
    for (int i = 0; i < count; i++) {
      ops[i] = random.nextInt(BoundaryOp.FLUX_X3 + 1);
    }
    return ops;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void givenCopyBoundaries_whenLoadedAndUnloadedOnTheDevice_thenTheBitsEqualTheJvm(int ndim) {
    int[] ops = new int[40];
    Scenario jvmCase = Scenario.random(100 + ndim, ndim, ops);
    Scenario deviceCase = Scenario.random(100 + ndim, ndim, ops);
    for (int b = 0; b < jvmCase.table.size; b++) {
      jvmCase.table.receiveMode[b] = b % 3;
      deviceCase.table.receiveMode[b] = b % 3;
    }
    try (KernelBackend jvm = new JvmKernelBackend(1);
        KernelBackend device = KernelBackends.create("tornado", 1)) {
      device.prepare(deviceCase.table, deviceCase.data, deviceCase.buffers);
      for (int step = 0; step < 3; step++) {
        jvm.load(jvmCase.table, jvmCase.data, jvmCase.buffers);
        device.load(deviceCase.table, deviceCase.data, deviceCase.buffers);
        jvm.unload(jvmCase.table, jvmCase.data, jvmCase.buffers);
        device.unload(deviceCase.table, deviceCase.data, deviceCase.buffers);
      }
      assertArrayEquals(jvmCase.buffers, deviceCase.buffers);
      assertArrayEquals(jvmCase.data, deviceCase.data);
      assertArrayEquals(jvmCase.table.nonzero, deviceCase.table.nonzero);
      assertEquals(3, device.launches(KernelKind.LOAD));
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void givenEveryOperation_whenRunOnTheDevice_thenResultsEqualTheJvm(int ndim) {
    int[] ops = mixedOps(ndim, 60);
    Scenario jvmCase = Scenario.random(200 + ndim, ndim, ops);
    Scenario deviceCase = Scenario.random(200 + ndim, ndim, ops);
    // every other boundary prolongates with linear slopes (ProlongateSharedLinear)
    for (Scenario s : new Scenario[] {jvmCase, deviceCase}) {
      for (int b = 0; b < s.table.size; b += 2) {
        s.table.ints[BoundaryTable.SLOPES * s.table.size + b] = BoundaryTable.SLOPES_LINEAR;
      }
    }
    try (KernelBackend jvm = new JvmKernelBackend(2);
        KernelBackend device = KernelBackends.create("tornado", 1)) {
      for (Scenario s : new Scenario[] {jvmCase, deviceCase}) {
        KernelBackend backend = s == jvmCase ? jvm : device;
        BoundaryTable t = s.table;
        backend.load(t, s.data, s.buffers);
        backend.restrictBlocks(t, t.all, t.size, s.data);
        backend.prolongate(t, t.all, t.size, s.data);
      }
      Reference.assertClose(jvmCase.buffers, deviceCase.buffers, ARITHMETIC_TOLERANCE);
      Reference.assertClose(jvmCase.data, deviceCase.data, LINEAR_TOLERANCE);
      assertArrayEquals(jvmCase.table.nonzero, deviceCase.table.nonzero);
    }
  }
}
