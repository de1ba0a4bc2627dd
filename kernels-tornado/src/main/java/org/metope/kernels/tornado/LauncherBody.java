package org.metope.kernels.tornado;

/**
 * The body that the launcher templates ({@link CellsLauncher}, {@link ReductionLauncher}) call, a
 * stand-in: {@link BodyLaunchers} copies a template with this class and method names replaced by
 * a package's body's, so the template itself is never run. Its method names occur nowhere else
 * in the templates, which {@link ConstantPoolRenamer} needs.
 */
final class LauncherBody {
  private LauncherBody() {}

  /** Stands for a {@code CellBody}'s static method. */
  static void placeholderCell(double[] a, int[] t, int at, double[] r, int rat, int k, int j,
      int i) {
    throw new IllegalStateException("a launcher template ran uncopied");
  }

  /** Stands for a {@code CellMeasure}'s static method. */
  static double placeholderMeasure(double[] a, int[] t, int at, double[] r, int rat, int k,
      int j, int i) {
    throw new IllegalStateException("a launcher template ran uncopied");
  }
}
