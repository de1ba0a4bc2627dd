package org.metope.mesh.view;

import org.metope.kernels.body.CellBody;
import org.metope.kernels.body.DevicePack;
import org.metope.kernels.body.StageLaunch;

/**
 * The host loop of a CELLS launch, in a class of its own so that {@link LoopCopies} can define a
 * copy per body class, whose {@code body.apply} call then sees one body and inlines it (as {@link
 * CellLoopTemplate} does for {@link ParFor}): entries (blocks) slowest, {@code i} fastest, with
 * exclusive upper bounds computed once.
 */
final class BodyLoopTemplate implements BodyLoop {
  @Override
  public void run(StageLaunch launch, double[] a) {
    final CellBody body = launch.body;
    final int[] t = launch.ints;
    final double[] r = launch.reals;
    for (int e = 0; e < launch.count; e++) {
      final int at = e * launch.width;
      final int rat = e * launch.realWidth;
      final int kEnd = t[at + DevicePack.KE] + 1;
      final int jEnd = t[at + DevicePack.JE] + 1;
      final int is = t[at + DevicePack.IS];
      final int iEnd = t[at + DevicePack.IE] + 1;
      for (int k = t[at + DevicePack.KB]; k < kEnd; k++) {
        for (int j = t[at + DevicePack.JB]; j < jEnd; j++) {
          for (int i = is; i < iEnd; i++) {
            body.apply(a, t, at, r, rat, k, j, i);
          }
        }
      }
    }
  }
}
