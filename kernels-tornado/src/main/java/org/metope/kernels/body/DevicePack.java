package org.metope.kernels.body;

/**
 * The views of a {@link CellBody}: static accessors over one block's entry of a {@link
 * StageLaunch.Kind#CELLS} launch, which the framework makes from a package's pack (its offsets,
 * strides, and its fluxes along the launch's direction), so that a body reads {@code get(a, t,
 * at, v, k, j, i)} where host code reads {@code pack.get(b, v, k, j, i)}, and both name the same
 * arena cell. The entry, {@link #VIEWS} + 2 {@code NVARS} ints:
 *
 * <pre>
 *   IS IE JB JE KB KE JSTRIDE KSTRIDE SHIFT NVARS, then NVARS offsets, then NVARS flux offsets
 * </pre>
 *
 * {@code IS..KE} the index box the launch runs over (an element's, for an element pack), {@code
 * SHIFT} the distance to the index below along the launch's direction (0 for none), the offsets
 * those of index {@code (0, 0, 0)} of each pack component, the flux offsets those of its fluxes
 * along the direction (-1 for none).
 */
public final class DevicePack {
  public static final int IS = 0;
  public static final int IE = 1;
  public static final int JB = 2;
  public static final int JE = 3;
  public static final int KB = 4;
  public static final int KE = 5;
  public static final int JSTRIDE = 6;
  public static final int KSTRIDE = 7;
  public static final int SHIFT = 8;
  public static final int NVARS = 9;
  /** Where the offsets start. */
  public static final int VIEWS = 10;

  private DevicePack() {}

  /** Ints of an entry over {@code nvars} pack components. */
  public static int width(int nvars) {
    return VIEWS + 2 * nvars;
  }

  /** The arena index of pack component {@code v} at {@code (k, j, i)}. */
  public static int index(int[] t, int at, int v, int k, int j, int i) {
    return t[at + VIEWS + v] + k * t[at + KSTRIDE] + j * t[at + JSTRIDE] + i;
  }

  /** The value of pack component {@code v} at {@code (k, j, i)}. */
  public static double get(double[] a, int[] t, int at, int v, int k, int j, int i) {
    return a[index(t, at, v, k, j, i)];
  }

  /** The value of pack component {@code v} one index below {@code (k, j, i)} along the direction. */
  public static double below(double[] a, int[] t, int at, int v, int k, int j, int i) {
    return a[index(t, at, v, k, j, i) - t[at + SHIFT]];
  }

  /**
   * The value of pack component {@code v} {@code d} indices from {@code (k, j, i)} along the
   * direction ({@code d} negative: below); {@code along(..., -1)} is {@link #below}.
   */
  public static double along(double[] a, int[] t, int at, int v, int k, int j, int i, int d) {
    return a[index(t, at, v, k, j, i) + d * t[at + SHIFT]];
  }

  /** The number of pack components of the entry. */
  public static int numVars(int[] t, int at) {
    return t[at + NVARS];
  }

  /** Sets pack component {@code v} at {@code (k, j, i)}. */
  public static void set(double[] a, int[] t, int at, int v, int k, int j, int i, double value) {
    a[index(t, at, v, k, j, i)] = value;
  }

  /** Sets the flux of pack component {@code v} through the lower face of {@code (k, j, i)}. */
  public static void setFlux(double[] a, int[] t, int at, int v, int k, int j, int i,
      double value) {
    a[t[at + VIEWS + t[at + NVARS] + v] + k * t[at + KSTRIDE] + j * t[at + JSTRIDE] + i] = value;
  }

  /** Real {@code n} of the block's reals. */
  public static double real(double[] r, int rat, int n) {
    return r[rat + n];
  }
}
