package org.metope.kernels.body;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.kernels.Scenario;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;

/** The one-row-per-thread path a device runs must give the boundary walks' bits exactly. */
class RowKernelsTest {
  private static final int[] ALL_OPS = {BoundaryOp.COPY, BoundaryOp.RESTRICT,
      BoundaryOp.PROLONGATE, BoundaryOp.FLUX_X1, BoundaryOp.COPY, BoundaryOp.RESTRICT};

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void givenEveryRowOfEveryBoundary_whenLoadedRowByRow_thenBuffersAndFlagsEqualTheWalk(int ndim) {
    for (long seed = 0; seed < 10; seed++) {
      Scenario s = Scenario.random(seed, ndim, ALL_OPS);
      BoundaryTable t = s.table;
      double[] walk = s.buffers.clone();
      double[] rows = s.buffers.clone();
      for (int b = 0; b < t.size; b++) {
        int flag = BufferKernels.loadBoundary(b, t.size, t.ints, t.reals, s.data, walk);
        int rowFlag = 0;
        for (int r = 0; r < t.get(BoundaryTable.ROWS, b); r++) {
          rowFlag |= RowKernels.loadRow(b, r, t.size, t.ints, t.reals, s.data, rows);
        }
        assertEquals(flag, rowFlag, "b=" + b);
      }
      assertArrayEquals(walk, rows);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void givenEveryRow_whenUnloadedRowByRow_thenDataEqualsTheWalk(int ndim) {
    for (long seed = 0; seed < 10; seed++) {
      Scenario s = Scenario.random(seed, ndim, ALL_OPS);
      BoundaryTable t = s.table;
      for (int b = 0; b < t.size; b++) {
        t.receiveMode[b] = (int) ((b + seed) % 3);
      }
      double[] walk = s.data.clone();
      double[] rows = s.data.clone();
      for (int b = 0; b < t.size; b++) {
        BufferKernels.unloadBoundary(b, t.size, t.ints, t.reals, t.receiveMode, walk, s.buffers);
        for (int r = 0; r < t.get(BoundaryTable.ROWS, b); r++) {
          RowKernels.unloadRow(b, r, t.size, t.ints, t.reals, t.receiveMode[b], rows, s.buffers);
        }
      }
      assertArrayEquals(walk, rows);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void givenEveryRow_whenProlongatedOrRestrictedRowByRow_thenDataEqualsTheWalk(int ndim) {
    for (long seed = 0; seed < 10; seed++) {
      Scenario s = Scenario.random(seed, ndim, ALL_OPS);
      BoundaryTable t = s.table;
      double[] walk = s.data.clone();
      double[] rows = s.data.clone();
      for (int b = 0; b < t.size; b++) {
        int op = t.get(BoundaryTable.OP, b);
        if (op == BoundaryOp.COPY) {
          continue;
        }
        if (op == BoundaryOp.PROLONGATE) {
          RefinementKernels.prolongateBoundary(b, t.size, t.ints, t.reals, walk);
        } else {
          RefinementKernels.restrictBoundary(b, t.size, t.ints, t.reals, walk, null, false);
        }
        for (int r = 0; r < t.get(BoundaryTable.ROWS, b); r++) {
          if (op == BoundaryOp.PROLONGATE) {
            RowKernels.prolongateRow(b, r, t.size, t.ints, t.reals, rows);
          } else {
            RowKernels.restrictRow(b, r, t.size, t.ints, t.reals, rows);
          }
        }
      }
      assertArrayEquals(walk, rows);
    }
  }
}
