package org.metope.kernels.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.kernels.Scenario;

/**
 * The row indices read from a table's columns equal the ones computed from the boundary as the
 * test built it ({@link Scenario.Spec}): {@link BlockLayout#index} for var, and the table's
 * coarse-to-fine mapping {@code fi = origin_i + 2 i, fj = origin_j + fy j, fk = origin_k + fz k}
 * in the fine layout.
 */
class BoundaryIndexTest {
  private static final int[] OPS = {BoundaryOp.COPY, BoundaryOp.RESTRICT, BoundaryOp.PROLONGATE,
      BoundaryOp.FLUX_X1};

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void givenRandomBoundaries_thenEveryRowStartsWhereTheLayoutsPutIt(int ndim) {
    for (long seed = 0; seed < 10; seed++) {
      Scenario s = Scenario.random(seed, ndim, OPS);
      BoundaryTable t = s.table;
      for (int b = 0; b < t.size; b++) {
        Scenario.Spec spec = s.specs.get(b);
        IndexBox box = spec.box();
        int fy = ndim >= 2 ? 2 : 1;
        int fz = ndim >= 3 ? 2 : 1;
        for (int c = 0; c < spec.var().ncomp(); c++) {
          for (int k = box.ks(); k <= box.ke(); k++) {
            for (int j = box.js(); j <= box.je(); j++) {
              String where = "seed=" + seed + " b=" + b + " c=" + c + " k=" + k + " j=" + j;
              assertEquals(spec.var().index(c, k, j, box.is()),
                  BoundaryIndex.varRow(b, t.size, t.ints, c, k, j), where);
              if (spec.op() != BoundaryOp.COPY) {
                int[] o = spec.origin();
                assertEquals(spec.fine().index(c, o[2] + fz * k, o[1] + fy * j,
                    o[0] + 2 * box.is()), BoundaryIndex.fineRow(b, t.size, t.ints, c, k, j),
                    where);
              }
            }
          }
        }
      }
    }
  }
}
