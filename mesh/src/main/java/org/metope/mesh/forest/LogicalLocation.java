package org.metope.mesh.forest;

/**
 * Where a block sits in the block tree: its refinement level and its integer index along each
 * axis at that level.
 *
 * <p>Levels are those of the single tree that covers the root grid (Athena++'s and older
 * Parthenon's "legacy" tree, which Parthenon still writes to its outputs): root blocks have level
 * {@link RootGrid#rootLevel()}, and a block at level {@code l} has index range {@code [0, n << (l -
 * rootLevel))} along an axis with {@code n} root blocks. Inactive axes (nx2 = 1 or nx3 = 1) keep
 * index 0.
 *
 * <p>The natural order is the Morton (Z-order) curve: locations are compared at the finer of the
 * two levels with their index bits interleaved, x3 most significant and x1 least within each bit,
 * and a parent sorts just before its first child. This is the order in which Parthenon numbers
 * its blocks, so global ids follow it.
 *
 * @param level refinement level (root level for root blocks)
 * @param lx1 index along x1 at {@code level}
 * @param lx2 index along x2 at {@code level}
 * @param lx3 index along x3 at {@code level}
 */
public record LogicalLocation(int level, long lx1, long lx2, long lx3)
    implements Comparable<LogicalLocation> {

  /** Deepest level whose indices still fit, with room to shift, in a signed 64-bit long. */
  public static final int MAX_LEVEL = 60;

  /** Checks the level range; indices may be negative or beyond the domain (periodic images). */
  public LogicalLocation {
    if (level < 0 || level > MAX_LEVEL) {
      throw new IllegalArgumentException("level=" + level + " outside [0, " + MAX_LEVEL + "]");
    }
  }

  // equals and hashCode written out, with the values the record's generated ones have: those
  // are linked through method handles at their first call, which costs start-up time.
  @Override
  public boolean equals(Object o) {
    return o instanceof LogicalLocation l && level == l.level && lx1 == l.lx1 && lx2 == l.lx2
        && lx3 == l.lx3;
  }

  @Override
  public int hashCode() {
    return ((Integer.hashCode(level) * 31 + Long.hashCode(lx1)) * 31 + Long.hashCode(lx2)) * 31
        + Long.hashCode(lx3);
  }

  /** The index along axis {@code axis} (0 = x1, 1 = x2, 2 = x3). */
  public long l(int axis) {
    return switch (axis) {
      case 0 -> lx1;
      case 1 -> lx2;
      case 2 -> lx3;
      default -> throw new IllegalArgumentException("axis=" + axis);
    };
  }

  /** The block one level coarser that contains this one. */
  public LogicalLocation parent() {
    return new LogicalLocation(level - 1, lx1 >> 1, lx2 >> 1, lx3 >> 1);
  }

  /** The ancestor {@code levels} levels coarser (the location itself for 0). */
  public LogicalLocation ancestor(int levels) {
    return new LogicalLocation(level - levels, lx1 >> levels, lx2 >> levels, lx3 >> levels);
  }

  /** The child one level finer at position {@code (c1, c2, c3)}, each 0 or 1, inside this block. */
  public LogicalLocation child(int c1, int c2, int c3) {
    return new LogicalLocation(level + 1, (lx1 << 1) + c1, (lx2 << 1) + c2, (lx3 << 1) + c3);
  }

  /**
   * The 2^ndim children in Morton order (x1 fastest); inactive axes keep child index 0.
   *
   * @param ndim number of active axes, 1 to 3
   */
  public LogicalLocation[] children(int ndim) {
    int n2 = ndim > 1 ? 2 : 1;
    int n3 = ndim > 2 ? 2 : 1;
    LogicalLocation[] out = new LogicalLocation[2 * n2 * n3];
    int n = 0;
    for (int c3 = 0; c3 < n3; c3++) {
      for (int c2 = 0; c2 < n2; c2++) {
        for (int c1 = 0; c1 < 2; c1++) {
          out[n++] = child(c1, c2, c3);
        }
      }
    }
    return out;
  }

  /** This block's position (0 or 1) inside its parent along {@code axis}. */
  public int childIndex(int axis) {
    return (int) (l(axis) & 1L);
  }

  /** The location at the same level shifted by the given number of blocks along each axis. */
  public LogicalLocation shifted(long d1, long d2, long d3) {
    return new LogicalLocation(level, lx1 + d1, lx2 + d2, lx3 + d3);
  }

  /** Whether {@code other} is this block or lies inside it (at this level or finer). */
  public boolean contains(LogicalLocation other) {
    if (other.level < level) {
      return false;
    }
    int shift = other.level - level;
    return (other.lx1 >> shift) == lx1 && (other.lx2 >> shift) == lx2 && (other.lx3 >> shift) == lx3;
  }

  /**
   * Offsets, per axis, from this block to {@code other} once both are coarsened to the coarser of
   * their two levels: for a neighbour, the geometric element of the coarser block through which
   * they touch.
   */
  public int[] sameLevelOffsets(LogicalLocation other) {
    int shiftOther = Math.max(other.level - level, 0);
    int shiftThis = Math.max(level - other.level, 0);
    return new int[] {
      (int) ((other.lx1 >> shiftOther) - (lx1 >> shiftThis)),
      (int) ((other.lx2 >> shiftOther) - (lx2 >> shiftThis)),
      (int) ((other.lx3 >> shiftOther) - (lx3 >> shiftThis))
    };
  }

  /**
   * Maps index {@code index} of {@code nrange} equal blocks to a position in [-0.5, 0.5] (its left
   * edge, centre or right edge), computed so that positions mirror exactly about the centre.
   * Parthenon computes block edges this way, and so must we to get the same bits.
   *
   * @param edge 0 for the left edge, 1 for the centre, 2 for the right edge
   */
  public static double indexToSymmetrizedCoordinate(long index, int edge, long nrange) {
    long offset = index - nrange / 2;
    long offsetCeil = index - (nrange + 1) / 2;
    return (double) (offset + offsetCeil + edge) / (2.0 * nrange);
  }

  /** Morton order, then coarser before finer (a parent sorts just before its first child). */
  @Override
  public int compareTo(LogicalLocation o) {
    int finest = Math.max(level, o.level);
    int s = finest - level;
    int t = finest - o.level;
    int c = mortonCompare(lx1 << s, lx2 << s, lx3 << s, o.lx1 << t, o.lx2 << t, o.lx3 << t);
    return c != 0 ? c : Integer.compare(level, o.level);
  }

  /**
   * Compares two non-negative index triples at one level by their interleaved bits, without
   * building the interleaved number: the axis whose indices differ in the highest bit decides, x3
   * winning ties over x2 and x2 over x1.
   */
  static int mortonCompare(long a1, long a2, long a3, long b1, long b2, long b3) {
    long x1 = a1 ^ b1;
    long x2 = a2 ^ b2;
    long x3 = a3 ^ b3;
    int axis = 0;
    long top = x1;
    if (!highestBitBelow(x2, top)) {
      axis = 1;
      top = x2;
    }
    if (!highestBitBelow(x3, top)) {
      axis = 2;
      top = x3;
    }
    if (top == 0) {
      return 0;
    }
    return switch (axis) {
      case 0 -> Long.compare(a1, b1);
      case 1 -> Long.compare(a2, b2);
      default -> Long.compare(a3, b3);
    };
  }

  /** Whether the highest set bit of {@code a} is strictly below that of {@code b} (both >= 0). */
  private static boolean highestBitBelow(long a, long b) {
    return a < b && a < (a ^ b);
  }

  /** Parthenon-style label, e.g. {@code (2: 1, 0, 3)}. */
  @Override
  public String toString() {
    return "(" + level + ": " + lx1 + ", " + lx2 + ", " + lx3 + ")";
  }
}
