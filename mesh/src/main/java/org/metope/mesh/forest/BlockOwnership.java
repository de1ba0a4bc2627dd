package org.metope.mesh.forest;

import java.util.List;
import java.util.Set;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * Which block owns the values a face, edge or node field keeps on a boundary that several blocks
 * share (Parthenon's {@code block_ownership}): each block stores such a value, and a ghost
 * exchange copies the owner's into the others so that they agree bit for bit.
 *
 * <p>A block's ownership is 27 bits, one per part of its boundary (faces, edges, corners and the
 * volume), bit {@code (ox1 + 1) + 3 (ox2 + 1) + 9 (ox3 + 1)} as {@link NeighborIndex} numbers
 * them. The block owns a part unless a neighbour touching it ranks higher: a finer level first,
 * then a later place in Morton order (Parthenon compares level, then tree, then Morton number
 * inside the tree; its trees cut the root grid at power-of-two boundaries and are numbered in
 * Z-order, so that is the global Morton order compared here). During a remesh, blocks refined in
 * it may rank below the others of their level ({@link #of(LogicalLocation, List, Set)}).
 */
public final class BlockOwnership {
  /** Every part owned. */
  public static final int ALL = (1 << 27) - 1;

  private BlockOwnership() {}

  /** The bit of part {@code (ox1, ox2, ox3)}, each -1, 0 or 1. */
  public static int bit(int ox1, int ox2, int ox3) {
    return (ox1 + 1) + 3 * (ox2 + 1) + 9 * (ox3 + 1);
  }

  /**
   * The parts of block {@code main} it owns, given all its {@code neighbors} (Parthenon's {@code
   * DetermineOwnership}).
   */
  public static int of(LogicalLocation main, List<NeighborLocation> neighbors) {
    return of(main, neighbors, Set.of());
  }

  /**
   * The same, with the blocks of {@code newlyRefined} ranked below the other blocks of their level
   * and above the coarser ones (Parthenon's {@code DetermineOwnership} with {@code
   * newly_refined}): a remesh's first exchange takes shared values from older fine blocks.
   */
  public static int of(LogicalLocation main, List<NeighborLocation> neighbors,
      Set<LogicalLocation> newlyRefined) {
    int owns = 0;
    for (int ox3 = -1; ox3 <= 1; ox3++) {
      for (int ox2 = -1; ox2 <= 1; ox2++) {
        for (int ox1 = -1; ox1 <= 1; ox1++) {
          boolean mine = true;
          for (NeighborLocation n : neighbors) {
            if (ranksBelow(main, n.location(), newlyRefined)
                && touches(main, n.originLocation(), ox1, ox2, ox3)) {
              mine = false;
              break;
            }
          }
          owns |= mine ? 1 << bit(ox1, ox2, ox3) : 0;
        }
      }
    }
    return owns;
  }

  /**
   * Whether {@code a} yields ownership to {@code b}: a coarser level (a newly refined block counts
   * half a level coarser), or an earlier place.
   */
  static boolean ranksBelow(LogicalLocation a, LogicalLocation b,
      Set<LogicalLocation> newlyRefined) {
    int rankA = 2 * a.level() - (newlyRefined.contains(a) ? 1 : 0);
    int rankB = 2 * b.level() - (newlyRefined.contains(b) ? 1 : 0);
    if (rankA != rankB) {
      return rankA < rankB;
    }
    return a.compareTo(b) < 0;
  }

  /**
   * Whether block {@code other} touches part {@code (ox1, ox2, ox3)} of block {@code main}
   * (Parthenon's {@code IsNeighborOfTE}): along each axis the part's index range, at the finer of
   * the two levels, overlaps {@code other}'s.
   */
  static boolean touches(LogicalLocation main, LogicalLocation other, int ox1, int ox2,
      int ox3) {
    int finest = Math.max(main.level(), other.level());
    for (int axis = 0; axis < 3; axis++) {
      int o = along(axis, ox1, ox2, ox3);
      long size = 1L << (finest - main.level());
      long low = main.l(axis) * size;
      long high = low + size - 1;
      if (o == -1) {
        low -= 1;
        high = low + 1;
      } else if (o == 1) {
        high += 1;
        low = high - 1;
      }
      long otherSize = 1L << (finest - other.level());
      long otherLow = other.l(axis) * otherSize;
      long otherHigh = otherLow + otherSize - 1;
      if (high < otherLow || low > otherHigh) {
        return false;
      }
    }
    return true;
  }

  /**
   * The cells of a box of all a field's elements (the cell box one longer at the top along every
   * active axis) that belong to element {@code el}, as 27 box-cell class bits: along an active
   * axis on which {@code el} does not sit on cell boundaries, the box's last layer lies past
   * {@code el}'s own range.
   */
  public static int withinElement(TopologicalElement el, boolean[] active) {
    int mask = 0;
    for (int ck = -1; ck <= 1; ck++) {
      for (int cj = -1; cj <= 1; cj++) {
        for (int ci = -1; ci <= 1; ci++) {
          boolean inside = true;
          for (int axis = 0; axis < 3; axis++) {
            inside &= !(along(axis, ci, cj, ck) == 1 && el.offset(axis) == 0 && active[axis]);
          }
          mask |= inside ? 1 << bit(ci, cj, ck) : 0;
        }
      }
    }
    return mask;
  }

  /**
   * Which cells of a received box of element {@code el} the receiver writes, as 27 box-cell class
   * bits (Parthenon's {@code GetIndexRangeMaskFromOwnership}): {@code sender} is the sending
   * block's ownership and {@code (ox1, ox2, ox3)} the part of the sender the box lies next to
   * (minus the receiver's offsets towards the sender). Along an axis on which the element sits on
   * cell boundaries, the box's first and last indices are the sender's lower and upper shared
   * parts; along other axes the element's values belong to the sender's inside. Along an axis
   * towards the sender, the box's far end lies deep inside the sender and counts as its inside.
   */
  public static int elementMask(TopologicalElement el, int sender, int ox1, int ox2, int ox3) {
    int mask = 0;
    for (int ck = -1; ck <= 1; ck++) {
      for (int cj = -1; cj <= 1; cj++) {
        for (int ci = -1; ci <= 1; ci++) {
          int part = bit(part(el.offsetI(), ox1, ci), part(el.offsetJ(), ox2, cj),
              part(el.offsetK(), ox3, ck));
          if ((sender >> part & 1) == 1) {
            mask |= 1 << bit(ci, cj, ck);
          }
        }
      }
    }
    return mask;
  }

  /**
   * The sender's part along one axis that box-cell class {@code c} of {@link #elementMask} lies in:
   * {@code top} is 1 where the element sits on cell boundaries along the axis, {@code ox} the
   * offset towards the sender.
   */
  private static int part(int top, int ox, int c) {
    boolean deepInSender = ox != 0 && c == -ox;
    return top == 1 && !deepInSender ? c : 0;
  }

  /** The one of {@code x1, x2, x3} along {@code axis}. */
  private static int along(int axis, int x1, int x2, int x3) {
    return axis == 0 ? x1 : axis == 1 ? x2 : x3;
  }
}
