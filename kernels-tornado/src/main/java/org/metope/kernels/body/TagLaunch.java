package org.metope.kernels.body;

import java.util.Arrays;

/**
 * One launch of a refinement measure ({@link TagKernels}) over a partition, in flat arrays so that
 * a device can run it: {@link #count} entries of {@link Kind#width} ints in {@link #ints}, each
 * reduced to {@link Kind#results} values in {@link #results}, which is all that crosses back
 * from a device. Built on the host once per partition and layout, launched at every tagging
 * ({@code KernelBackend#measure}); the host turns the results into tags.
 *
 * <pre>
 *   kind     ints of one entry                                       results of one entry
 *   MIN_MAX  FIRST LENGTH                                            min max
 *   BOX      BASE JSTRIDE KSTRIDE IS IE JS JE KS KE NDIM METHOD      measure
 * </pre>
 *
 * A MIN_MAX entry is a run of consecutive cells ({@link TagKernels#minMaxRun}); a BOX entry one
 * component of one block measured by a built-in criterion ({@link TagKernels#boxMeasure}; an
 * empty box, {@code KS > KE}, measures 0 for derivatives).
 */
public final class TagLaunch {
  /** What a launch measures: the ints and results of one entry. */
  public enum Kind {
    /** {@link TagKernels#minMaxRun} per entry. */
    MIN_MAX(2, 2),
    /** {@link TagKernels#boxMeasure} per entry. */
    BOX(11, 1);

    /** Ints per entry. */
    public final int width;
    /** Results per entry. */
    public final int results;

    Kind(int width, int results) {
      this.width = width;
      this.results = results;
    }
  }

  // MIN_MAX
  public static final int FIRST = 0;
  public static final int LENGTH = 1;
  // BOX
  public static final int BASE = 0;
  public static final int JSTRIDE = 1;
  public static final int KSTRIDE = 2;
  public static final int IS = 3;
  public static final int NDIM = 9;
  public static final int METHOD = 10;

  /** The kind of launch. */
  public final Kind kind;
  /** Entries, {@code kind.width} ints each. */
  public final int[] ints;
  /** Number of entries. */
  public final int count;
  /** The entries' results, {@code kind.results} each, written by every launch; at least one. */
  public final double[] results;

  /** A launch of {@code count} entries; {@code ints} may be longer. */
  public TagLaunch(Kind kind, int[] ints, int count) {
    this.kind = kind;
    this.count = count;
    this.ints = Arrays.copyOf(ints, Math.max(1, count * kind.width));
    this.results = new double[Math.max(1, count * kind.results)];
  }

  /** Runs every entry on the host over {@code a} into {@link #results}. */
  public void runOnHost(double[] a) {
    for (int e = 0; e < count; e++) {
      runEntry(kind, ints, e, a, results);
    }
  }

  /** Entry {@code e}: what one device thread of a launch does. Static, over arrays only. */
  public static void runEntry(Kind kind, int[] t, int e, double[] a, double[] out) {
    switch (kind) {
      case MIN_MAX -> minMax(t, e, a, out, e);
      case BOX -> box(t, e, a, out, e);
      default -> throw new IllegalStateException("unknown tag kind: " + kind);
    }
  }

  /**
   * A MIN_MAX entry, its results as entry {@code o} of {@code out} (a device keeps the entries of
   * many launches in one table, and the results of one launch apart).
   */
  public static void minMax(int[] t, int e, double[] a, double[] out, int o) {
    final int base = e * Kind.MIN_MAX.width;
    TagKernels.minMaxRun(a, t[base + FIRST], t[base + LENGTH], out, 2 * o);
  }

  /** A BOX entry, its result as entry {@code o} of {@code out}. */
  public static void box(int[] t, int e, double[] a, double[] out, int o) {
    final int base = e * Kind.BOX.width;
    final int b = base + IS;
    out[o] = TagKernels.boxMeasure(a, t[base + BASE], t[base + JSTRIDE], t[base + KSTRIDE],
        t[b], t[b + 1], t[b + 2], t[b + 3], t[b + 4], t[b + 5], t[base + NDIM],
        t[base + METHOD]);
  }
}
