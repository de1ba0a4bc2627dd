package org.metope.kernels.tornado;

import org.metope.kernels.body.DevicePack;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.common.TornadoFunctions;

/**
 * The template of a package body's {@code CELLS} launcher: {@link BodyLaunchers} copies it per
 * body into the body's package, with {@link LauncherBody#placeholderCell} replaced by the body's
 * static method, so that TornadoVM compiles the body into the launcher's kernel. One device thread
 * per (entry, k, j) row of entries {@code ENTRY ..} of the launch tables, as {@link
 * ResidentTasks}' launchers; each runs the body on the indices of its row, as {@code
 * StageLaunch.cellsRow} does on the host. Entries are {@code args[WIDTH]} ints and {@code
 * args[REAL_WIDTH]} reals each (read from {@code args}, since TornadoVM compiles scalar arguments
 * in as constants). It names only public classes, so a copy in another package links.
 */
public final class CellsLauncher {
  private CellsLauncher() {}

  /** The launch {@code args} describe ({@link LaunchTables#entryArgs}) on arena {@code a}. */
  public static void cells(int[] args, int[] launches, double[] launchReals, double[] a) {
    final int first = args[LaunchTables.ENTRY];
    final int count = args[LaunchTables.COUNT];
    final int maxK = args[LaunchTables.MAX_K];
    final int maxJ = args[LaunchTables.MAX_J];
    final int width = args[LaunchTables.WIDTH];
    final int realWidth = args[LaunchTables.REAL_WIDTH];
    for (@Parallel int e = 0; e < count; e++) {
      for (@Parallel int k = 0; k < maxK; k++) {
        for (@Parallel int j = 0; j < maxJ; j++) {
          final int at = (first + e) * width;
          final int kk = launches[at + DevicePack.KB] + k;
          final int jj = launches[at + DevicePack.JB] + j;
          if (kk <= launches[at + DevicePack.KE] && jj <= launches[at + DevicePack.JE]) {
            final int rat = (first + e) * realWidth;
            final int ie = launches[at + DevicePack.IE];
            for (int i = launches[at + DevicePack.IS]; i <= ie; i++) {
              LauncherBody.placeholderCell(a, launches, at, launchReals, rat, kk, jj, i);
            }
          }
        }
      }
    }
  }

  /** {@link #cells} as a TornadoVM task (in a copy, the copy's). */
  public static TornadoFunctions.Task4<int[], int[], double[], double[]> task() {
    return CellsLauncher::cells;
  }
}
