package org.metope.examples.advection;

import org.metope.comm.ReduceOp;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.view.BlockView;
import org.metope.mesh.view.IndexBox;
import org.metope.mesh.view.ParReduce;

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

  /**
   * {@code out[n] = sum over interior cells of advected^(n+1) * volume}, for {@code n <
   * out.length <= 3}, in one sweep. Parthenon calls {@code std::pow(q, n + 1)}; Metope's
   * reference is {@code StrictMath.pow} (fdlibm), which returns {@code q} itself for the power 1
   * and {@code q * q} for the power 2 (special cases of fdlibm's algorithm). The cube, the
   * costliest operation of a history record, is {@link FdlibmCube}: the library's bits without
   * its allocation. Each sum adds the cells in the same order as a sweep per power would, so the
   * bits are those of the call for every power.
   */
  private static void powers(MeshData md, int b, double[] out) {
    BlockView q = BlockView.of(md, "advected", b);
    IndexBox cells = IndexBox.of(md.block(b).cellBounds(), IndexDomain.INTERIOR);
    double vol = md.block(b).coords().cellVolume();
    int powers = out.length;
    double first = 0.0;
    double second = 0.0;
    double third = 0.0;
    final int ks = cells.k().s();
    final int ke = cells.k().e();
    final int js = cells.j().s();
    final int je = cells.j().e();
    final int is = cells.i().s();
    final int ie = cells.i().e();
    for (int k = ks; k <= ke; k++) {
      for (int j = js; j <= je; j++) {
        for (int i = is; i <= ie; i++) {
          double v = q.get(0, k, j, i);
          first += v * vol;
          if (powers > 1) {
            second += v * v * vol;
            if (powers > 2) {
              third += FdlibmCube.cube(v) * vol;
            }
          }
        }
      }
    }
    out[0] = first;
    if (powers > 1) {
      out[1] = second;
    }
    if (powers > 2) {
      out[2] = third;
    }
  }

  static double maxAdvected(MeshData md, int b) {
    return extremum(md, b, true);
  }

  static double minAdvected(MeshData md, int b) {
    return extremum(md, b, false);
  }

  /**
   * The largest or smallest interior value of block {@code b}, folded by {@link ParReduce} in its
   * fixed cell order from {@code -Double.MAX_VALUE} (or {@code Double.MAX_VALUE}).
   */
  private static double extremum(MeshData md, int b, boolean max) {
    BlockView q = BlockView.of(md, "advected", b);
    IndexBox cells = IndexBox.of(md.block(b).cellBounds(), IndexDomain.INTERIOR);
    return ParReduce.reduce(b, b, cells, max ? ReduceOp.MAX : ReduceOp.MIN,
        max ? -Double.MAX_VALUE : Double.MAX_VALUE, (bb, k, j, i) -> q.get(0, k, j, i));
  }
}
