package org.metope.kernels.tornado;

import org.metope.kernels.body.DevicePack;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.common.TornadoFunctions;

/**
 * The template of a package measure's reduction launcher, copied per measure as {@link
 * CellsLauncher} is: one device thread per entry (block) of entries {@code ENTRY ..}, entry e's
 * values folded at {@code results[e]} in index order from the fold's identity, as {@code
 * StageLaunch} folds them on the host. The fold is {@code args[FOLD]} ({@link #MINIMUM}: the
 * smaller, a NaN never; {@link #MAXIMUM}: the larger; {@link #SUM}), so one copy serves every
 * reduction of its measure.
 */
public final class ReductionLauncher {
  /** Folds: each block's smallest value, largest value, or sum. */
  static final int MINIMUM = 0;
  static final int MAXIMUM = 1;
  static final int SUM = 2;

  private ReductionLauncher() {}

  /** The launch {@code args} describe on arena {@code a}, each entry's fold into results. */
  public static void reduce(int[] args, int[] launches, double[] launchReals, double[] a,
      double[] results) {
    final int first = args[LaunchTables.ENTRY];
    final int count = args[LaunchTables.COUNT];
    final int width = args[LaunchTables.WIDTH];
    final int realWidth = args[LaunchTables.REAL_WIDTH];
    final int fold = args[LaunchTables.FOLD];
    for (@Parallel int e = 0; e < count; e++) {
      final int at = (first + e) * width;
      final int rat = (first + e) * realWidth;
      final int kb = launches[at + DevicePack.KB];
      final int ke = launches[at + DevicePack.KE];
      final int jb = launches[at + DevicePack.JB];
      final int je = launches[at + DevicePack.JE];
      final int is = launches[at + DevicePack.IS];
      final int ie = launches[at + DevicePack.IE];
      double folded = fold == MINIMUM ? Double.MAX_VALUE
          : fold == MAXIMUM ? -Double.MAX_VALUE : 0.0;
      for (int k = kb; k <= ke; k++) {
        for (int j = jb; j <= je; j++) {
          for (int i = is; i <= ie; i++) {
            final double value = LauncherBody.placeholderMeasure(a, launches, at, launchReals,
                rat, k, j, i);
            if (fold == MINIMUM) {
              folded = value < folded ? value : folded;
            } else if (fold == MAXIMUM) {
              folded = value > folded ? value : folded;
            } else {
              folded = folded + value;
            }
          }
        }
      }
      results[e] = folded;
    }
  }

  /** {@link #reduce} as a TornadoVM task (in a copy, the copy's). */
  public static TornadoFunctions.Task5<int[], int[], double[], double[], double[]> task() {
    return ReductionLauncher::reduce;
  }
}
