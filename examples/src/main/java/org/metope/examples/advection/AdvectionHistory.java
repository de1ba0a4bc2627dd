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

  /**
   * {@code sum over interior cells of advected * volume}, adding the cells in the order of {@link
   * #advectedPowers}' first sum, so both give the same bits. A sweep of its own: one method
   * serving both, with a test of how many powers inside its loop, met one count for a whole
   * record and then the other, and C2 compiled it again at each change (6 compilations in one
   * 2D run; 2 for each sweep now).
   */
  static double totalAdvected(MeshData md, int b) {
    BlockView q = BlockView.of(md, "advected", b);
    IndexBox cells = interior(md, b);
    double vol = md.block(b).coords().cellVolume();
    double first = 0.0;
    // < e + 1, not <= e: a <= loop that runs once (the k range of a 2D block) makes C2 compile
    // the sweep twice (docs/PERFORMANCE.md, "What the JIT compiles")
    for (int k = cells.k().s(); k < cells.k().e() + 1; k++) {
      for (int j = cells.j().s(); j < cells.j().e() + 1; j++) {
        for (int i = cells.i().s(); i < cells.i().e() + 1; i++) {
          first += q.get(0, k, j, i) * vol;
        }
      }
    }
    return first;
  }

  /**
   * {@code out[n] = sum over interior cells of advected^(n+1) * volume}, for {@code n <
   * out.length <= 3}, in one sweep. Parthenon calls {@code std::pow(q, n + 1)}; Metope's
   * reference is {@code StrictMath.pow} (fdlibm), which returns {@code q} itself for the power 1
   * and {@code q * q} for the power 2 (special cases of fdlibm's algorithm). The cube, the
   * costliest operation of a history record, is {@link FdlibmCube}: the library's bits without
   * its allocation. Each sum adds the cells in the same order as a sweep per power would, so the
   * bits are those of the call for every power. The sweep forms all three sums whatever {@code
   * out.length} is (always {@link #POWERS} from the history), so its loop holds no test.
   */
  static void advectedPowers(MeshData md, int b, double[] out) {
    BlockView q = BlockView.of(md, "advected", b);
    IndexBox cells = interior(md, b);
    double vol = md.block(b).coords().cellVolume();
    double first = 0.0;
    double second = 0.0;
    double third = 0.0;
    for (int k = cells.k().s(); k < cells.k().e() + 1; k++) {
      for (int j = cells.j().s(); j < cells.j().e() + 1; j++) {
        for (int i = cells.i().s(); i < cells.i().e() + 1; i++) {
          double v = q.get(0, k, j, i);
          first += v * vol;
          second += v * v * vol;
          third += FdlibmCube.cube(v) * vol;
        }
      }
    }
    out[0] = first;
    if (out.length > 1) {
      out[1] = second;
    }
    if (out.length > 2) {
      out[2] = third;
    }
  }

  private static IndexBox interior(MeshData md, int b) {
    return IndexBox.of(md.block(b).cellBounds(), IndexDomain.INTERIOR);
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
    IndexBox cells = interior(md, b);
    return ParReduce.reduce(b, b, cells, max ? ReduceOp.MAX : ReduceOp.MIN,
        max ? -Double.MAX_VALUE : Double.MAX_VALUE, (bb, k, j, i) -> q.get(0, k, j, i));
  }
}
