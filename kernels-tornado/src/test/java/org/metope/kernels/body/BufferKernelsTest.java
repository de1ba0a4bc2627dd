package org.metope.kernels.body;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.kernels.Reference;
import org.metope.kernels.Scenario;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;
import org.metope.kernels.table.IndexBox;

class BufferKernelsTest {
  private static final int C = BoundaryOp.COPY;

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void givenCopyBoundaries_whenLoaded_thenBuffersMatchNestedLoopsBitForBit(int ndim) {
    for (long seed = 0; seed < 20; seed++) {
      Scenario s = Scenario.random(seed, ndim, C, C, C, C, C);
      double[] expected = s.buffers.clone();
      double[] actual = s.buffers.clone();
      for (int b = 0; b < s.table.size; b++) {
        int expectedFlag = Reference.load(s.specs.get(b), s.data, expected);
        int flag = BufferKernels.loadBoundary(b, s.table.size, s.table.ints, s.table.reals, s.data,
            actual);
        assertEquals(expectedFlag, flag, "nonzero flag of b=" + b + " seed=" + seed);
      }
      assertArrayEquals(expected, actual, "seed=" + seed);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void givenRestrictingBoundaries_whenLoaded_thenBuffersHoldTheChildAverages(int ndim) {
    for (long seed = 0; seed < 20; seed++) {
      Scenario s = Scenario.random(seed, ndim, BoundaryOp.RESTRICT, C, BoundaryOp.FLUX_X1,
          BoundaryOp.RESTRICT);
      double[] expected = s.buffers.clone();
      double[] actual = s.buffers.clone();
      for (int b = 0; b < s.table.size; b++) {
        int expectedFlag = Reference.load(s.specs.get(b), s.data, expected);
        int flag = BufferKernels.loadBoundary(b, s.table.size, s.table.ints, s.table.reals, s.data,
            actual);
        assertEquals(expectedFlag, flag, "nonzero flag of b=" + b + " seed=" + seed);
      }
      Reference.assertClose(expected, actual, 1e-14);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void givenEachReceiveMode_whenUnloaded_thenBoxesAreCopiedFilledOrLeft(int ndim) {
    int[] modes = {BoundaryTable.RECEIVE_COPY, BoundaryTable.RECEIVE_DEFAULT,
        BoundaryTable.RECEIVE_SKIP};
    for (long seed = 0; seed < 20; seed++) {
      Scenario s = Scenario.random(seed, ndim, C, C, C, BoundaryOp.PROLONGATE, C, C);
      double[] expected = s.data.clone();
      double[] actual = s.data.clone();
      for (int b = 0; b < s.table.size; b++) {
        int mode = modes[(int) ((b + seed) % 3)];
        s.table.receiveMode[b] = mode;
        Reference.unload(s.specs.get(b), mode, expected, s.buffers);
        BufferKernels.unloadBoundary(b, s.table.size, s.table.ints, s.table.reals,
            s.table.receiveMode, actual, s.buffers);
      }
      assertArrayEquals(expected, actual, "seed=" + seed);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void givenLoadThenUnload_whenBoxesHaveTheSameShape_thenTheTargetBoxEqualsTheSourceBox(int ndim) {
    Scenario s = Scenario.random(7, ndim, C);
    Scenario.Spec spec = s.specs.get(0);
    BufferKernels.loadBoundary(0, 1, s.table.ints, s.table.reals, s.data, s.buffers);
    double[] target = new double[s.data.length];
    BufferKernels.unloadBoundary(0, 1, s.table.ints, s.table.reals, s.table.receiveMode, target,
        s.buffers);
    IndexBox x = spec.box();
    for (int c = 0; c < spec.var().ncomp(); c++) {
      for (int k = x.ks(); k <= x.ke(); k++) {
        for (int j = x.js(); j <= x.je(); j++) {
          for (int i = x.is(); i <= x.ie(); i++) {
            int at = spec.var().index(c, k, j, i);
            assertEquals(s.data[at], target[at], 0.0);
          }
        }
      }
    }
  }

  @Test
  void givenValuesAroundTheThreshold_whenTested_thenOnlyMagnitudesAtLeastTheThresholdCount() {
    double[] a = {0.1, -0.49, 0.2};
    assertEquals(0, BufferKernels.anyAtLeast(a, 0, 3, 0.5));
    a[1] = -0.5;
    assertEquals(1, BufferKernels.anyAtLeast(a, 0, 3, 0.5));
    assertEquals(0, BufferKernels.anyAtLeast(a, 2, 1, 0.5));
  }
}
