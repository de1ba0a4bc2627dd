package org.metope.mesh.forest;

/**
 * The root grid: how many root blocks lie along each axis, which axes are active, and which wrap
 * around periodically. It fixes the logical index space of every level: the root level is the
 * smallest {@code r} with {@code 2^r >= max(nrbx1, nrbx2, nrbx3)}, and at level {@code l >= r} an
 * active axis with {@code n} root blocks has indices {@code [0, n << (l - r))}. An inactive axis
 * has one root block and index 0 at every level.
 *
 * @param ndim number of active axes: 1 (x1), 2 (x1, x2) or 3
 * @param nrbx1 root blocks along x1
 * @param nrbx2 root blocks along x2 (1 when inactive)
 * @param nrbx3 root blocks along x3 (1 when inactive)
 * @param periodicX1 whether x1 wraps around
 * @param periodicX2 whether x2 wraps around (ignored when inactive)
 * @param periodicX3 whether x3 wraps around (ignored when inactive)
 */
public record RootGrid(
    int ndim,
    int nrbx1,
    int nrbx2,
    int nrbx3,
    boolean periodicX1,
    boolean periodicX2,
    boolean periodicX3) {

  /** Checks that the shape is consistent. */
  public RootGrid {
    if (ndim < 1 || ndim > 3) {
      throw new IllegalArgumentException("ndim=" + ndim + " outside [1, 3]");
    }
    if (nrbx1 < 1 || nrbx2 < 1 || nrbx3 < 1) {
      throw new IllegalArgumentException(
          "root block counts must be positive: nrbx1=" + nrbx1 + " nrbx2=" + nrbx2 + " nrbx3="
              + nrbx3);
    }
    if ((ndim < 2 && nrbx2 != 1) || (ndim < 3 && nrbx3 != 1)) {
      throw new IllegalArgumentException(
          "inactive axes have one root block: ndim=" + ndim + " nrbx2=" + nrbx2 + " nrbx3="
              + nrbx3);
    }
  }

  /** Level of the root blocks: ceil(log2(largest root block count)). */
  public int rootLevel() {
    int largest = Math.max(nrbx1, Math.max(nrbx2, nrbx3));
    return 32 - Integer.numberOfLeadingZeros(largest - 1);
  }

  /** Whether {@code axis} (0 = x1) is active. */
  public boolean isActive(int axis) {
    return axis < ndim;
  }

  /** Root blocks along {@code axis}. */
  public int nrb(int axis) {
    return switch (axis) {
      case 0 -> nrbx1;
      case 1 -> nrbx2;
      case 2 -> nrbx3;
      default -> throw new IllegalArgumentException("axis=" + axis);
    };
  }

  /** Whether {@code axis} is active and wraps around. */
  public boolean isPeriodic(int axis) {
    if (!isActive(axis)) {
      return false;
    }
    return switch (axis) {
      case 0 -> periodicX1;
      case 1 -> periodicX2;
      default -> periodicX3;
    };
  }

  /** Number of block positions along {@code axis} at {@code level} (1 for an inactive axis). */
  public long extent(int axis, int level) {
    return isActive(axis) ? ((long) nrb(axis)) << (level - rootLevel()) : 1L;
  }

  /** Number of root blocks. */
  public int rootBlockCount() {
    return nrbx1 * nrbx2 * nrbx3;
  }

  /** Whether {@code loc} is a block position inside the domain (no periodic image). */
  public boolean contains(LogicalLocation loc) {
    if (loc.level() < rootLevel()) {
      return false;
    }
    for (int axis = 0; axis < 3; axis++) {
      long l = loc.l(axis);
      if (l < 0 || l >= extent(axis, loc.level())) {
        return false;
      }
    }
    return true;
  }

  /**
   * The in-domain position of {@code loc}, folding periodic axes back into range; {@code null}
   * when {@code loc} lies outside a non-periodic axis (beyond a physical boundary).
   */
  public LogicalLocation wrap(LogicalLocation loc) {
    if (inRange(0, loc) && inRange(1, loc) && inRange(2, loc)) {
      return loc; // the common case, every block's neighbour search asks it: nothing allocated
    }
    for (int axis = 0; axis < 3; axis++) {
      if (!inRange(axis, loc) && !isPeriodic(axis)) {
        return null;
      }
    }
    return new LogicalLocation(loc.level(), folded(0, loc), folded(1, loc), folded(2, loc));
  }

  private boolean inRange(int axis, LogicalLocation loc) {
    long l = loc.l(axis);
    return l >= 0 && l < extent(axis, loc.level());
  }

  private long folded(int axis, LogicalLocation loc) {
    return Math.floorMod(loc.l(axis), extent(axis, loc.level()));
  }
}
