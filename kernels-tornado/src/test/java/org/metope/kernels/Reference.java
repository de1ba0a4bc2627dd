package org.metope.kernels;

import org.metope.kernels.table.BlockLayout;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;
import org.metope.kernels.table.IndexBox;

/**
 * Plain nested-loop versions of every kernel, written from the definitions (copy the box; average
 * the children; add minmod slope times offset from the coarse centre), independent of the table
 * encoding and of the production code's order of operations.
 */
public final class Reference {
  private Reference() {}

  /** Loads one boundary; returns 1 when some loaded |value| reached the threshold. */
  public static int load(Scenario.Spec s, double[] data, double[] buffers) {
    IndexBox x = s.box();
    int pos = s.bufferOffset();
    int nonzero = 0;
    for (int c = 0; c < s.var().ncomp(); c++) {
      for (int k = x.ks(); k <= x.ke(); k++) {
        for (int j = x.js(); j <= x.je(); j++) {
          for (int i = x.is(); i <= x.ie(); i++) {
            double v = BoundaryOp.isRestriction(s.op())
                ? average(s, data, c, k, j, i)
                : data[s.var().index(c, k, j, i)];
            buffers[pos++] = v;
            if (Math.abs(v) >= s.threshold()) {
              nonzero = 1;
            }
          }
        }
      }
    }
    return nonzero;
  }

  /** Unloads one boundary in the given receive mode. */
  public static void unload(Scenario.Spec s, int mode, double[] data, double[] buffers) {
    IndexBox x = s.box();
    int pos = s.bufferOffset();
    for (int c = 0; c < s.var().ncomp(); c++) {
      for (int k = x.ks(); k <= x.ke(); k++) {
        for (int j = x.js(); j <= x.je(); j++) {
          for (int i = x.is(); i <= x.ie(); i++) {
            if (mode == BoundaryTable.RECEIVE_COPY) {
              data[s.var().index(c, k, j, i)] = buffers[pos];
            } else if (mode == BoundaryTable.RECEIVE_DEFAULT) {
              data[s.var().index(c, k, j, i)] = s.defaultValue();
            }
            pos++;
          }
        }
      }
    }
  }

  /** Restricts (or flux-corrects) one boundary into the box of var. */
  public static void restrict(Scenario.Spec s, double[] data) {
    IndexBox x = s.box();
    for (int c = 0; c < s.var().ncomp(); c++) {
      for (int k = x.ks(); k <= x.ke(); k++) {
        for (int j = x.js(); j <= x.je(); j++) {
          for (int i = x.is(); i <= x.ie(); i++) {
            data[s.var().index(c, k, j, i)] = average(s, data, c, k, j, i);
          }
        }
      }
    }
  }

  /** Plain mean of the children of coarse cell (c, k, j, i): equal weights on a uniform grid. */
  public static double average(Scenario.Spec s, double[] data, int c, int k, int j, int i) {
    int[] coarse = {i, j, k};
    int[] n = new int[3];
    int[] first = new int[3];
    for (int d = 0; d < 3; d++) {
      boolean active = d < s.ndim();
      boolean normal = s.op() == BoundaryOp.FLUX_X1 + d;
      first[d] = s.origin()[d] + (active ? 2 : 1) * coarse[d];
      n[d] = active && !normal ? 2 : 1;
    }
    double sum = 0.0;
    for (int ok = 0; ok < n[2]; ok++) {
      for (int oj = 0; oj < n[1]; oj++) {
        for (int oi = 0; oi < n[0]; oi++) {
          sum += data[s.fine().index(c, first[2] + ok, first[1] + oj, first[0] + oi)];
        }
      }
    }
    return sum / (n[0] * n[1] * n[2]);
  }

  /** Prolongates one boundary: child = coarse + sum over directions of slope * offset. */
  public static void prolongate(Scenario.Spec s, double[] data) {
    IndexBox x = s.box();
    BlockLayout v = s.var();
    for (int c = 0; c < v.ncomp(); c++) {
      for (int k = x.ks(); k <= x.ke(); k++) {
        for (int j = x.js(); j <= x.je(); j++) {
          for (int i = x.is(); i <= x.ie(); i++) {
            prolongateCell(s, data, c, k, j, i);
          }
        }
      }
    }
  }

  private static void prolongateCell(Scenario.Spec s, double[] data, int c, int k, int j, int i) {
    BlockLayout v = s.var();
    double fc = data[v.index(c, k, j, i)];
    double[] slope = new double[3];
    int[][] step = {{0, 0, 1}, {0, 1, 0}, {1, 0, 0}};
    for (int d = 0; d < s.ndim(); d++) {
      double fm = data[v.index(c, k - step[d][0], j - step[d][1], i - step[d][2])];
      double fp = data[v.index(c, k + step[d][0], j + step[d][1], i + step[d][2])];
      slope[d] = minmod((fc - fm) / s.coarseDx()[d], (fp - fc) / s.coarseDx()[d]);
    }
    int[] coarse = {i, j, k};
    int[] first = new int[3];
    int[] n = new int[3];
    for (int d = 0; d < 3; d++) {
      boolean active = d < s.ndim();
      first[d] = s.origin()[d] + (active ? 2 : 1) * coarse[d];
      n[d] = active ? 2 : 1;
    }
    for (int ok = 0; ok < n[2]; ok++) {
      for (int oj = 0; oj < n[1]; oj++) {
        for (int oi = 0; oi < n[0]; oi++) {
          int[] o = {oi, oj, ok};
          double value = fc;
          for (int d = 0; d < s.ndim(); d++) {
            value += slope[d] * (o[d] == 0 ? -0.5 : 0.5) * s.fineDx()[d];
          }
          data[s.fine().index(c, first[2] + ok, first[1] + oj, first[0] + oi)] = value;
        }
      }
    }
  }

  /** The smaller slope when both have the same sign, else 0. */
  public static double minmod(double a, double b) {
    if (a * b <= 0.0) {
      return 0.0;
    }
    return Math.abs(a) < Math.abs(b) ? a : b;
  }

  /** Asserts element-wise agreement within {@code tolerance}. */
  public static void assertClose(double[] expected, double[] actual, double tolerance) {
    if (expected.length != actual.length) {
      throw new AssertionError("lengths differ: " + expected.length + " vs " + actual.length);
    }
    for (int i = 0; i < expected.length; i++) {
      if (!(Math.abs(expected[i] - actual[i]) <= tolerance)) {
        throw new AssertionError("index " + i + ": expected " + expected[i] + " but was "
            + actual[i]);
      }
    }
  }
}
