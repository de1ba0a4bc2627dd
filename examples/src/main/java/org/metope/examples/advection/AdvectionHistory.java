package org.metope.examples.advection;

import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * The advection package's history outputs, per block (Parthenon's {@code AdvectionHst} and {@code
 * AdvectionVecHst}): over the interior cells of component 0 of {@code advected}, the
 * volume-weighted sum ({@code total_advected}), the maximum and the minimum, and the
 * volume-weighted sums of its first three powers ({@code advected_powers_0..2}).
 */
final class AdvectionHistory {
  /** Components of {@code advected_powers}. */
  static final int POWERS = 3;

  private AdvectionHistory() {}

  static double totalAdvected(MeshData md, int b) {
    double[] sums = new double[1];
    powers(md, b, sums);
    return sums[0];
  }

  static void advectedPowers(MeshData md, int b, double[] out) {
    powers(md, b, out);
  }

  /** {@code out[n] = sum over interior cells of advected^(n+1) * volume}. */
  private static void powers(MeshData md, int b, double[] out) {
    double[] a = md.data();
    int offset = md.dataOffset(md.state().fieldId("advected"), b);
    IndexShape cells = md.block(b).cellBounds();
    double vol = md.block(b).coords().cellVolume();
    int ni = cells.entireNcells(0);
    int nj = cells.entireNcells(1);
    for (int n = 0; n < out.length; n++) {
      double sum = 0.0;
      for (int k = start(cells, 2); k <= end(cells, 2); k++) {
        for (int j = start(cells, 1); j <= end(cells, 1); j++) {
          int row = offset + (k * nj + j) * ni;
          for (int i = start(cells, 0); i <= end(cells, 0); i++) {
            sum += StrictMath.pow(a[row + i], n + 1) * vol;
          }
        }
      }
      out[n] = sum;
    }
  }

  static double maxAdvected(MeshData md, int b) {
    return extremum(md, b, true);
  }

  static double minAdvected(MeshData md, int b) {
    return extremum(md, b, false);
  }

  private static double extremum(MeshData md, int b, boolean max) {
    double[] a = md.data();
    int offset = md.dataOffset(md.state().fieldId("advected"), b);
    IndexShape cells = md.block(b).cellBounds();
    int ni = cells.entireNcells(0);
    int nj = cells.entireNcells(1);
    double result = max ? -Double.MAX_VALUE : Double.MAX_VALUE;
    for (int k = start(cells, 2); k <= end(cells, 2); k++) {
      for (int j = start(cells, 1); j <= end(cells, 1); j++) {
        int row = offset + (k * nj + j) * ni;
        for (int i = start(cells, 0); i <= end(cells, 0); i++) {
          result = max ? Math.max(result, a[row + i]) : Math.min(result, a[row + i]);
        }
      }
    }
    return result;
  }

  private static int start(IndexShape cells, int axis) {
    return cells.start(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }

  private static int end(IndexShape cells, int axis) {
    return cells.end(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }
}
