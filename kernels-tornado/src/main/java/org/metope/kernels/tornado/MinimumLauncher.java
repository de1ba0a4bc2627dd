package org.metope.kernels.tornado;

import org.metope.kernels.body.DevicePack;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.common.TornadoFunctions;

/**
 * The template of a package measure's {@code CELLS_MINIMUM} launcher, copied per measure as
 * {@link CellsLauncher} is: one device thread per entry (block) of entries {@code ENTRY ..},
 * entry e's smallest value at {@code results[e]}, folded in index order from {@code
 * Double.MAX_VALUE} as {@code StageLaunch.blockMinimum} folds it on the host.
 */
public final class MinimumLauncher {
  private MinimumLauncher() {}

  /** The launch {@code args} describe on arena {@code a}, each entry's minimum into results. */
  public static void minimum(int[] args, int[] launches, double[] launchReals, double[] a,
      double[] results) {
    final int first = args[LaunchTables.ENTRY];
    final int count = args[LaunchTables.COUNT];
    final int width = args[LaunchTables.WIDTH];
    final int realWidth = args[LaunchTables.REAL_WIDTH];
    for (@Parallel int e = 0; e < count; e++) {
      final int at = (first + e) * width;
      final int rat = (first + e) * realWidth;
      final int kb = launches[at + DevicePack.KB];
      final int ke = launches[at + DevicePack.KE];
      final int jb = launches[at + DevicePack.JB];
      final int je = launches[at + DevicePack.JE];
      final int is = launches[at + DevicePack.IS];
      final int ie = launches[at + DevicePack.IE];
      double smallest = Double.MAX_VALUE;
      for (int k = kb; k <= ke; k++) {
        for (int j = jb; j <= je; j++) {
          for (int i = is; i <= ie; i++) {
            final double value = LauncherBody.placeholderMeasure(a, launches, at, launchReals,
                rat, k, j, i);
            smallest = value < smallest ? value : smallest;
          }
        }
      }
      results[e] = smallest;
    }
  }

  /** {@link #minimum} as a TornadoVM task (in a copy, the copy's). */
  public static TornadoFunctions.Task5<int[], int[], double[], double[], double[]> task() {
    return MinimumLauncher::minimum;
  }
}
