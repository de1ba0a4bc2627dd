package org.metope.kernels.body;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.kernels.Reference;
import org.metope.kernels.Scenario;
import org.metope.kernels.table.BlockLayout;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;
import org.metope.kernels.table.BoundaryTableBuilder;
import org.metope.kernels.table.IndexBox;

class RefinementKernelsTest {
  private static final int P = BoundaryOp.PROLONGATE;
  private static final int R = BoundaryOp.RESTRICT;

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void givenRandomCoarseData_whenProlongated_thenFineCellsMatchNestedLoops(int ndim) {
    for (long seed = 0; seed < 20; seed++) {
      Scenario s = Scenario.random(seed, ndim, P, P, P);
      double[] expected = s.data.clone();
      double[] actual = s.data.clone();
      for (int b = 0; b < s.table.size; b++) {
        Reference.prolongate(s.specs.get(b), expected);
        RefinementKernels.prolongateBoundary(b, s.table.size, s.table.ints, s.table.reals, actual);
      }
      Reference.assertClose(expected, actual, 1e-13);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void givenRandomFineData_whenRestrictedIntoVar_thenCoarseCellsAreChildAverages(int ndim) {
    for (long seed = 0; seed < 20; seed++) {
      Scenario s = Scenario.random(seed, ndim, R, R, BoundaryOp.FLUX_X1 + (int) (seed % ndim));
      double[] expected = s.data.clone();
      double[] actual = s.data.clone();
      for (int b = 0; b < s.table.size; b++) {
        Reference.restrict(s.specs.get(b), expected);
        RefinementKernels.restrictBoundary(b, s.table.size, s.table.ints, s.table.reals, actual,
            null, false);
      }
      Reference.assertClose(expected, actual, 1e-14);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void givenLinearCoarseData_whenProlongated_thenFineCellsAreExact(int ndim) {
    for (long seed = 0; seed < 10; seed++) {
      Scenario s = Scenario.random(seed, ndim, P);
      Scenario.Spec spec = s.specs.get(0);
      double[] slope = {0.7, -1.3, 2.1};
      fillLinear(s.data, spec.var(), spec.coarseXmin(), spec.coarseDx(), slope, ndim);
      RefinementKernels.prolongateBoundary(0, 1, s.table.ints, s.table.reals, s.data);
      IndexBox x = spec.box();
      for (int c = 0; c < spec.var().ncomp(); c++) {
        for (int k = fineFirst(spec, 2, x.ks()); k <= fineLast(spec, 2, x.ke()); k++) {
          for (int j = fineFirst(spec, 1, x.js()); j <= fineLast(spec, 1, x.je()); j++) {
            for (int i = fineFirst(spec, 0, x.is()); i <= fineLast(spec, 0, x.ie()); i++) {
              double expected = linear(spec.fineXmin(), spec.fineDx(), slope, ndim, c, k, j, i);
              assertEquals(expected, s.data[spec.fine().index(c, k, j, i)], 1e-12);
            }
          }
        }
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void givenAProlongatedBlock_whenRestrictedBack_thenTheCoarseValuesReturn(int ndim) {
    for (long seed = 0; seed < 10; seed++) {
      Scenario s = Scenario.random(seed, ndim, P);
      Scenario.Spec p = s.specs.get(0);
      BoundaryTableBuilder builder = new BoundaryTableBuilder();
      int b = builder.add(R, ndim, p.var(), p.box(), 0);
      builder.fine(b, p.fine(), p.origin()[0], p.origin()[1], p.origin()[2])
          .coordinates(b, p.fineXmin(), p.fineDx(), p.coarseXmin(), p.coarseDx());
      BoundaryTable back = builder.build();
      double[] original = s.data.clone();
      RefinementKernels.prolongateBoundary(0, 1, s.table.ints, s.table.reals, s.data);
      java.util.Arrays.fill(s.data, p.var().offset(), p.var().end(), Double.NaN);
      RefinementKernels.restrictBoundary(0, 1, back.ints, back.reals, s.data, null, false);
      IndexBox x = p.box();
      for (int c = 0; c < p.var().ncomp(); c++) {
        for (int k = x.ks(); k <= x.ke(); k++) {
          for (int j = x.js(); j <= x.je(); j++) {
            for (int i = x.is(); i <= x.ie(); i++) {
              int at = p.var().index(c, k, j, i);
              assertEquals(original[at], s.data[at], 1e-14, "seed=" + seed);
            }
          }
        }
      }
    }
  }

  @Test
  void givenParthenonsOneDimensionalExample_whenProlongated_thenChildrenSitAQuarterCellAway() {
    // coarse 1, 2, 4 at unit spacing: one-sided slopes 1 and 2, minmod 1, children at -+1/4
    BlockLayout coarse = new BlockLayout(0, 1, 1, 1, 3);
    BlockLayout fine = new BlockLayout(3, 1, 1, 1, 2);
    BoundaryTableBuilder builder = new BoundaryTableBuilder();
    int b = builder.add(P, 1, coarse, new IndexBox(1, 1, 0, 0, 0, 0), 0);
    builder.fine(b, fine, -2, 0, 0);
    BoundaryTable table = builder.build();
    double[] data = {1.0, 2.0, 4.0, 0.0, 0.0};
    RefinementKernels.prolongateBoundary(0, 1, table.ints, table.reals, data);
    assertEquals(1.75, data[3], 0.0);
    assertEquals(2.25, data[4], 0.0);
    data[2] = 0.0;
    RefinementKernels.prolongateBoundary(0, 1, table.ints, table.reals, data);
    assertEquals(2.0, data[3], 0.0, "an extremum is not interpolated");
    assertEquals(2.0, data[4], 0.0);
  }

  /**
   * Linear slopes (Parthenon's {@code ProlongateSharedLinear}) on the same example: each child
   * takes the one-sided slope towards its side, an extremum included, and the result is linear in
   * the coarse values (the sum of two prolongations is the prolongation of the sum), which the
   * min-mod default is not (the control).
   */
  @Test
  void givenLinearSlopes_whenProlongated_thenOneSidedSlopesAndLinearInTheData() {
    BlockLayout coarse = new BlockLayout(0, 1, 1, 1, 3);
    BlockLayout fine = new BlockLayout(3, 1, 1, 1, 2);
    BoundaryTable[] tables = new BoundaryTable[2];
    for (int linear = 0; linear < 2; linear++) {
      BoundaryTableBuilder builder = new BoundaryTableBuilder();
      int b = builder.add(P, 1, coarse, new IndexBox(1, 1, 0, 0, 0, 0), 0);
      builder.fine(b, fine, -2, 0, 0);
      builder.slopes(b, linear == 1 ? BoundaryTable.SLOPES_LINEAR : BoundaryTable.SLOPES_MIN_MOD);
      tables[linear] = builder.build();
    }
    double[] data = {1.0, 2.0, 4.0, 0.0, 0.0};
    RefinementKernels.prolongateBoundary(0, 1, tables[1].ints, tables[1].reals, data);
    assertEquals(2.0 - 0.25 * 1.0, data[3], 0.0);
    assertEquals(2.0 + 0.25 * 2.0, data[4], 0.0);
    data[2] = 0.0;
    RefinementKernels.prolongateBoundary(0, 1, tables[1].ints, tables[1].reals, data);
    assertEquals(1.75, data[3], 0.0, "an extremum is interpolated from its own side");
    assertEquals(1.5, data[4], 0.0);
    double[][] u = {{1.0, 2.0, 4.0}, {3.0, -1.0, 0.5}};
    for (int linear = 0; linear < 2; linear++) {
      double[] sum = new double[2];
      double[] ofSum = {u[0][0] + u[1][0], u[0][1] + u[1][1], u[0][2] + u[1][2], 0.0, 0.0};
      for (double[] one : u) {
        double[] d = {one[0], one[1], one[2], 0.0, 0.0};
        RefinementKernels.prolongateBoundary(0, 1, tables[linear].ints, tables[linear].reals, d);
        sum[0] += d[3];
        sum[1] += d[4];
      }
      RefinementKernels.prolongateBoundary(0, 1, tables[linear].ints, tables[linear].reals,
          ofSum);
      boolean additive = Math.abs(sum[0] - ofSum[3]) < 1e-15 && Math.abs(sum[1] - ofSum[4]) < 1e-15;
      assertEquals(linear == 1, additive, "linear=" + linear);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3})
  void givenFineFaceFluxes_whenFluxCorrected_thenTheAreaWeightedFaceSumIsConserved(int ndim) {
    for (long seed = 0; seed < 10; seed++) {
      for (int normal = 0; normal < ndim; normal++) {
        Scenario s = Scenario.random(seed, ndim, BoundaryOp.FLUX_X1 + normal);
        Scenario.Spec spec = s.specs.get(0);
        RefinementKernels.restrictBoundary(0, 1, s.table.ints, s.table.reals, s.data, null, false);
        double fineArea = 1.0;
        double coarseArea = 1.0;
        for (int d = 0; d < ndim; d++) {
          if (d != normal) {
            fineArea *= spec.fineDx()[d];
            coarseArea *= 2 * spec.fineDx()[d];
          }
        }
        IndexBox x = spec.box();
        double fineSum = 0.0;
        double coarseSum = 0.0;
        for (int k = x.ks(); k <= x.ke(); k++) {
          for (int j = x.js(); j <= x.je(); j++) {
            for (int i = x.is(); i <= x.ie(); i++) {
              coarseSum += coarseArea * s.data[spec.var().index(0, k, j, i)];
              fineSum += fineArea * childSum(spec, s.data, k, j, i);
            }
          }
        }
        assertEquals(fineSum, coarseSum, 1e-14, "seed=" + seed + " normal=" + normal);
      }
    }
  }

  @Test
  void givenSlopesOfEachSign_whenLimited_thenMinmodFollowsParthenon() {
    assertEquals(1.0, RefinementOps.minmod(2.0, 1.0, 4.0, 1.0, 1.0), 0.0);
    assertEquals(-1.0, RefinementOps.minmod(2.0, 3.0, 0.0, 1.0, 1.0), 0.0);
    assertEquals(0.0, RefinementOps.minmod(2.0, 1.0, 1.0, 1.0, 1.0), 0.0);
    assertEquals(0.0, RefinementOps.minmod(2.0, 2.0, 5.0, 1.0, 1.0), 0.0);
    assertEquals(1.5, RefinementOps.minmod(3.0, 0.0, 6.0, 2.0, 2.0), 0.0);
  }

  private static double childSum(Scenario.Spec spec, double[] data, int k, int j, int i) {
    double sum = 0.0;
    int[] coarse = {i, j, k};
    int[] first = new int[3];
    int[] n = new int[3];
    for (int d = 0; d < 3; d++) {
      boolean active = d < spec.ndim();
      first[d] = spec.origin()[d] + (active ? 2 : 1) * coarse[d];
      n[d] = active && spec.op() != BoundaryOp.FLUX_X1 + d ? 2 : 1;
    }
    for (int ok = 0; ok < n[2]; ok++) {
      for (int oj = 0; oj < n[1]; oj++) {
        for (int oi = 0; oi < n[0]; oi++) {
          sum += data[spec.fine().index(0, first[2] + ok, first[1] + oj, first[0] + oi)];
        }
      }
    }
    return sum;
  }

  private static int fineFirst(Scenario.Spec spec, int d, int coarse) {
    return spec.origin()[d] + (d < spec.ndim() ? 2 : 1) * coarse;
  }

  private static int fineLast(Scenario.Spec spec, int d, int coarse) {
    return fineFirst(spec, d, coarse) + (d < spec.ndim() ? 1 : 0);
  }

  private static void fillLinear(double[] data, BlockLayout var, double[] xmin, double[] dx,
      double[] slope, int ndim) {
    for (int c = 0; c < var.ncomp(); c++) {
      for (int k = 0; k < var.nk(); k++) {
        for (int j = 0; j < var.nj(); j++) {
          for (int i = 0; i < var.ni(); i++) {
            data[var.index(c, k, j, i)] = linear(xmin, dx, slope, ndim, c, k, j, i);
          }
        }
      }
    }
  }

  private static double linear(double[] xmin, double[] dx, double[] slope, int ndim, int c, int k,
      int j, int i) {
    int[] idx = {i, j, k};
    double value = 1.0 + c;
    for (int d = 0; d < ndim; d++) {
      value += slope[d] * (xmin[d] + (idx[d] + 0.5) * dx[d]);
    }
    return value;
  }
}
