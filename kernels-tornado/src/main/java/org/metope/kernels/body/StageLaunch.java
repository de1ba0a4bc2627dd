package org.metope.kernels.body;

import java.util.Arrays;

/**
 * One launch of a stage kernel ({@link StageKernels}, or a package's {@link CellBody}) over a partition,
 * described in flat arrays so that a device can run it: {@link #count} entries of {@link
 * Kind#width} ints each in {@link #ints} (arena offsets, strides and loop bounds of one block,
 * field and component), and the entry's real parameters in {@link #reals}. Built on the host once
 * per partition (offsets change only with a remesh), launched every stage with the stage's weights:
 * {@link #runOnHost} is the JVM launcher, {@code org.metope.kernels.tornado.ResidentTasks} the
 * device one; both call the same bodies.
 *
 * <pre>
 *   kind                 ints of one entry                                    reals of one entry
 *   DIVERGENCE           OUT FX FY FZ NDIM IS IE JB JE KB KE JSTRIDE KSTRIDE  a1 a2 a3 vol
 *   WEIGHTED_SUM         Z X Y LENGTH                                         -
 *   PHYSICAL_BOUNDARY    BASE NI NJ NK NGHOST, then per face (6): MODE AXIS FIRST REF   -
 *   CELLS                a package body's views ({@link DevicePack}), per launch   its own
 *   CELLS_MINIMUM        as CELLS                                              its own
 *   CELLS_MAXIMUM        as CELLS                                              its own
 *   CELLS_SUM            as CELLS                                              its own
 * </pre>
 *
 * A DIVERGENCE entry covers rows {@code (k, j)} of {@code KB..KE} x {@code JB..JE}, starting at
 * {@code k * KSTRIDE + j * JSTRIDE}. A PHYSICAL_BOUNDARY
 * entry is one component of one field of one block ({@code NI x NJ x NK} cells from {@code
 * BASE}); its face slots, in Parthenon's face order, say which ghost slabs to fill ({@link
 * StageKernels#ghostSlab}) and how ({@link #BC_NONE} for a face that is not a physical
 * boundary); one thread runs the faces of an entry in order, since a later face's slab covers
 * corners an earlier one filled. A CELLS entry is one
 * block of a package's {@link CellBody}, {@link #body}, run on every index of the entry's box; its
 * width and real width are the launch's ({@link #width}, {@link #realWidth}). A reduction entry
 * (CELLS_MINIMUM, CELLS_MAXIMUM, CELLS_SUM) is one block of a package's {@link CellMeasure},
 * {@link #measure}: its values over the entry's box folded in index order ({@code k}, then {@code
 * j}, then {@code i}) from the reduction's identity ({@link #identity}: {@code Double.MAX_VALUE}
 * for a minimum, {@code -Double.MAX_VALUE} for a maximum, as in Parthenon's reductions, and
 * {@code 0.0} for a sum; a NaN value is never the smaller or the larger, and propagates through a
 * sum) into {@link #results}, the only values of the launch that cross back to the host (one
 * device thread per block). The fold is the same on the host and the device, so the bits are.
 */
public final class StageLaunch {
  /** What a launch computes, and the ints and reals of one entry. */
  public enum Kind {
    /** {@link StageKernels#divergenceRow} per row. */
    DIVERGENCE(13, 4),
    /** {@link StageKernels#weightedSum} per entry, with the launch's weights. */
    WEIGHTED_SUM(4, 0),
    /** {@link StageKernels#ghostSlab} per physical face of an entry, faces in order. */
    PHYSICAL_BOUNDARY(5 + 6 * 4, 0),
    /** A package's {@link CellBody} per row; widths per launch ({@link DevicePack}). */
    CELLS(0, 0),
    /** A package's {@link CellMeasure}, each block's minimum into {@link #results}. */
    CELLS_MINIMUM(0, 0),
    /** A package's {@link CellMeasure}, each block's maximum into {@link #results}. */
    CELLS_MAXIMUM(0, 0),
    /** A package's {@link CellMeasure}, each block's sum into {@link #results}. */
    CELLS_SUM(0, 0);

    /** Whether a launch of this kind folds a {@link CellMeasure} per block (reads the arena only). */
    public boolean isReduction() {
      return this == CELLS_MINIMUM || this == CELLS_MAXIMUM || this == CELLS_SUM;
    }

    /** Ints per entry. */
    public final int width;
    /** Reals per entry. */
    public final int realWidth;

    Kind(int width, int realWidth) {
      this.width = width;
      this.realWidth = realWidth;
    }
  }

  // DIVERGENCE
  public static final int OUT = 0;
  public static final int FX = 1;
  public static final int FY = 2;
  public static final int FZ = 3;
  public static final int NDIM = 4;
  public static final int D_IS = 5;
  // WEIGHTED_SUM
  public static final int Z = 0;
  public static final int X = 1;
  public static final int Y = 2;
  public static final int W_LENGTH = 3;
  // PHYSICAL_BOUNDARY: the component, then face slot f at P_FACES + f * P_SLOT
  public static final int P_BASE = 0;
  public static final int P_NI = 1;
  public static final int P_NJ = 2;
  public static final int P_NK = 3;
  public static final int P_NGHOST = 4;
  public static final int P_FACES = 5;
  public static final int P_SLOT = 4;
  public static final int P_MODE = 0;
  public static final int P_AXIS = 1;
  public static final int P_FIRST = 2;
  public static final int P_REF = 3;
  /** Face modes: not a physical face, outflow, reflection, reflection of a normal component. */
  public static final int BC_NONE = 0;
  public static final int BC_OUTFLOW = 1;
  public static final int BC_REFLECT = 2;
  public static final int BC_REFLECT_NEGATED = 3;

  /** The kind of launch. */
  public final Kind kind;
  /** Ints per entry: the kind's, or a CELLS launch's own. */
  public final int width;
  /** Reals per entry: the kind's, or a CELLS launch's own. */
  public final int realWidth;
  /** The body of a CELLS launch; null for the other kinds. */
  public final CellBody body;
  /** The body of a reduction launch; null for the other kinds. */
  public final CellMeasure measure;
  /** Entries, {@code kind.width} ints each. */
  public final int[] ints;
  /** Entries' reals, {@code kind.realWidth} each; at least one value. */
  public final double[] reals;
  /** Number of entries. */
  public final int count;
  /**
   * One result per entry (at least one value): what a reduction launch writes, on the host
   * once the launch returns; unused by the other kinds.
   */
  public final double[] results;
  /** Largest number of k rows of an entry. */
  public final int maxK;
  /** Largest number of j rows of an entry (1 for WEIGHTED_SUM and PHYSICAL_BOUNDARY). */
  public final int maxJ;

  /** A launch of {@code count} entries; {@code ints} and {@code reals} may be longer. */
  public StageLaunch(Kind kind, int[] ints, double[] reals, int count) {
    this(kind, null, null, kind.width, kind.realWidth, ints, reals, count);
  }

  /**
   * A CELLS launch of {@code body} over {@code count} entries of {@code width} ints ({@link
   * DevicePack}) and {@code realWidth} reals each.
   */
  public static StageLaunch cells(CellBody body, int width, int realWidth, int[] ints,
      double[] reals, int count) {
    return new StageLaunch(Kind.CELLS, body, null, width, realWidth, ints, reals, count);
  }

  /**
   * A reduction launch ({@code kind} CELLS_MINIMUM, CELLS_MAXIMUM or CELLS_SUM) of {@code
   * measure}, entries as for {@link #cells}.
   */
  public static StageLaunch reduction(Kind kind, CellMeasure measure, int width, int realWidth,
      int[] ints, double[] reals, int count) {
    if (!kind.isReduction()) {
      throw new IllegalArgumentException("kind=" + kind + " is not a reduction");
    }
    return new StageLaunch(kind, null, measure, width, realWidth, ints, reals, count);
  }

  private StageLaunch(Kind kind, CellBody body, CellMeasure measure, int width, int realWidth,
      int[] ints, double[] reals, int count) {
    this.kind = kind;
    this.body = body;
    this.measure = measure;
    this.width = width;
    this.realWidth = realWidth;
    this.count = count;
    this.ints = Arrays.copyOf(ints, Math.max(1, count * width));
    this.reals = Arrays.copyOf(reals, Math.max(1, count * realWidth));
    this.results = new double[Math.max(1, count)];
    int k = 1;
    int j = 1;
    for (int e = 0; e < count; e++) {
      int base = e * width;
      switch (kind) {
        case DIVERGENCE, CELLS, CELLS_MINIMUM, CELLS_MAXIMUM, CELLS_SUM -> {
          int first = kind == Kind.DIVERGENCE ? D_IS : DevicePack.IS;
          // IS IE JB JE KB KE JSTRIDE KSTRIDE follow each other from `first`
          j = Math.max(j, ints[base + first + 3] - ints[base + first + 2] + 1);
          k = Math.max(k, ints[base + first + 5] - ints[base + first + 4] + 1);
        }
        default -> { }
      }
    }
    this.maxK = k;
    this.maxJ = j;
  }

  /** Whether the launch writes the arena (a reduction only reads it). */
  public boolean writesArena() {
    return !kind.isReduction();
  }

  /** Whether the launch runs a package's body ({@link CellBody}, {@link CellMeasure}). */
  public boolean runsPackageBody() {
    return kind == Kind.CELLS || kind.isReduction();
  }

  /** Bytes of the launch's tables, what a device gets once per launch description. */
  public long tableBytes() {
    return 4L * ints.length + 8L * reals.length;
  }

  /**
   * Runs the launch on the host, entry by entry and row by row, on {@code a}; {@code w1} and
   * {@code w2} are the weights of a WEIGHTED_SUM (ignored otherwise).
   */
  public void runOnHost(double[] a, double w1, double w2) {
    if (kind.isReduction()) {
      for (int e = 0; e < count; e++) {
        results[e] = blockReduction(kind, measure, width, realWidth, ints, reals, e, a);
      }
      return;
    }
    for (int e = 0; e < count; e++) {
      for (int k = 0; k < maxK; k++) {
        for (int j = 0; j < maxJ; j++) {
          if (kind == Kind.CELLS) {
            cellsRow(body, width, realWidth, ints, reals, e, k, j, a);
          } else {
            runRow(kind, ints, reals, e, k, j, a, w1, w2);
          }
        }
      }
    }
  }

  /**
   * Row {@code (k, j)} (counted from the entry's first) of entry {@code e}, or nothing when the
   * entry has fewer rows: what one device thread of a launch does. Static, over arrays only.
   */
  public static void runRow(Kind kind, int[] t, double[] r, int e, int k, int j, double[] a,
      double w1, double w2) {
    switch (kind) {
      case DIVERGENCE -> divergenceRow(t, r, e, k, j, a);
      case WEIGHTED_SUM -> weightedSum(t, e, k, j, a, w1, w2);
      case PHYSICAL_BOUNDARY -> physicalBoundary(t, e, k, j, a);
      default -> throw new IllegalStateException("unknown stage kind: " + kind);
    }
  }

  /** Row {@code (kb + k, jb + j)} of a DIVERGENCE entry. */
  public static void divergenceRow(int[] t, double[] r, int e, int k, int j, double[] a) {
    final int base = e * Kind.DIVERGENCE.width;
    final int row = row(t, base + D_IS, k, j);
    if (row >= 0) {
      final int q = 4 * e;
      StageKernels.divergenceRow(a, t[base + OUT] + row, t[base + FX] + row, t[base + FY] + row,
          t[base + FZ] + row, t[base + NDIM], t[base + D_IS], t[base + D_IS + 1],
          t[base + D_IS + 6], t[base + D_IS + 7], r[q], r[q + 1], r[q + 2], r[q + 3]);
    }
  }

  /** A WEIGHTED_SUM entry (row 0 only). */
  public static void weightedSum(int[] t, int e, int k, int j, double[] a, double w1,
      double w2) {
    if (k == 0 && j == 0) {
      final int base = e * Kind.WEIGHTED_SUM.width;
      StageKernels.weightedSum(a, t[base + Z], t[base + X], t[base + Y], t[base + W_LENGTH], w1,
          w2);
    }
  }

  /** The physical faces of a PHYSICAL_BOUNDARY entry, in order (row 0 only). */
  public static void physicalBoundary(int[] t, int e, int k, int j, double[] a) {
    if (k == 0 && j == 0) {
      final int base = e * Kind.PHYSICAL_BOUNDARY.width;
      for (int f = 0; f < 6; f++) {
        final int slot = base + P_FACES + f * P_SLOT;
        final int mode = t[slot + P_MODE];
        if (mode != BC_NONE) {
          StageKernels.ghostSlab(a, t[base + P_BASE], t[base + P_NI], t[base + P_NJ],
              t[base + P_NK], t[slot + P_AXIS], t[slot + P_FIRST], t[base + P_NGHOST],
              t[slot + P_REF], mode == BC_OUTFLOW ? 0 : 1,
              mode == BC_REFLECT_NEGATED ? -1.0 : 1.0);
        }
      }
    }
  }

  /**
   * Row {@code (kb + k, jb + j)} of entry {@code e} of a CELLS launch of {@code body} whose entries
   * are {@code width} ints and {@code realWidth} reals: {@code body} on each index of the row.
   */
  public static void cellsRow(CellBody body, int width, int realWidth, int[] t, double[] r,
      int e, int k, int j, double[] a) {
    final int at = e * width;
    final int kk = t[at + DevicePack.KB] + k;
    final int jj = t[at + DevicePack.JB] + j;
    if (kk <= t[at + DevicePack.KE] && jj <= t[at + DevicePack.JE]) {
      final int rat = e * realWidth;
      final int ie = t[at + DevicePack.IE];
      for (int i = t[at + DevicePack.IS]; i <= ie; i++) {
        body.apply(a, t, at, r, rat, kk, jj, i);
      }
    }
  }

  /** The identity of reduction {@code kind}'s fold: where each block's fold starts. */
  public static double identity(Kind kind) {
    return switch (kind) {
      case CELLS_MINIMUM -> Double.MAX_VALUE;
      case CELLS_MAXIMUM -> -Double.MAX_VALUE;
      case CELLS_SUM -> 0.0;
      default -> throw new IllegalArgumentException("kind=" + kind + " is not a reduction");
    };
  }

  /**
   * One step of reduction {@code kind}'s fold: the smaller of {@code folded} and {@code value}
   * (NaN never the smaller), the larger (NaN never the larger), or their sum.
   */
  public static double fold(Kind kind, double folded, double value) {
    if (kind == Kind.CELLS_MINIMUM) {
      return value < folded ? value : folded;
    }
    if (kind == Kind.CELLS_MAXIMUM) {
      return value > folded ? value : folded;
    }
    return folded + value;
  }

  /**
   * The values of {@code measure} over the box of entry {@code e} of a reduction launch of
   * {@code kind}, folded in index order from {@link #identity}: the smallest (CELLS_MINIMUM), the
   * largest (CELLS_MAXIMUM) or the sum (CELLS_SUM).
   */
  public static double blockReduction(Kind kind, CellMeasure measure, int width, int realWidth,
      int[] t, double[] r, int e, double[] a) {
    final int at = e * width;
    final int rat = e * realWidth;
    double folded = identity(kind);
    for (int k = t[at + DevicePack.KB]; k <= t[at + DevicePack.KE]; k++) {
      for (int j = t[at + DevicePack.JB]; j <= t[at + DevicePack.JE]; j++) {
        for (int i = t[at + DevicePack.IS]; i <= t[at + DevicePack.IE]; i++) {
          folded = fold(kind, folded, measure.apply(a, t, at, r, rat, k, j, i));
        }
      }
    }
    return folded;
  }

  /**
   * The offset of row {@code (JB + j, KB + k)} of the entry whose {@code IS IE JB JE KB KE
   * JSTRIDE KSTRIDE} start at {@code at}, or -1 past its last row.
   */
  private static int row(int[] t, int at, int k, int j) {
    final int jj = t[at + 2] + j;
    final int kk = t[at + 4] + k;
    if (jj > t[at + 3] || kk > t[at + 5]) {
      return -1;
    }
    return kk * t[at + 7] + jj * t[at + 6];
  }
}
