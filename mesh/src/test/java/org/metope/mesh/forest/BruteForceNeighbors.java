package org.metope.mesh.forest;

import java.util.ArrayList;
import java.util.List;

/**
 * The reference the forest's neighbour search is checked against: every leaf as a closed box in
 * integer coordinates at the finest level, every other leaf and every periodic image of it tested
 * for contact, the shared element read off the intersection box. No tree walk, no parent/child
 * arithmetic, nothing shared with {@link Forest#findNeighbors}.
 */
final class BruteForceNeighbors {
  private final RootGrid grid;
  private final List<LogicalLocation> leaves;
  private final int finest;

  /** One contact: neighbour gid, element of the origin block, fine sub-block offsets. */
  record Contact(int gid, int element, int fi1, int fi2) implements Comparable<Contact> {
    @Override
    public int compareTo(Contact o) {
      int c = Integer.compare(gid, o.gid);
      c = c != 0 ? c : Integer.compare(element, o.element);
      c = c != 0 ? c : Integer.compare(fi1, o.fi1);
      return c != 0 ? c : Integer.compare(fi2, o.fi2);
    }
  }

  /** A contact together with the level difference (neighbour minus origin). */
  record LevelContact(Contact contact, int levelDifference) {}

  BruteForceNeighbors(RootGrid grid, List<LogicalLocation> leavesByGid) {
    this.grid = grid;
    this.leaves = leavesByGid;
    int f = grid.rootLevel();
    for (LogicalLocation loc : leavesByGid) {
      f = Math.max(f, loc.level());
    }
    this.finest = f;
  }

  private long lo(LogicalLocation loc, int axis) {
    return grid.isActive(axis) ? loc.l(axis) << (finest - loc.level()) : 0;
  }

  private long width(LogicalLocation loc, int axis) {
    return grid.isActive(axis) ? 1L << (finest - loc.level()) : 1;
  }

  /** All contacts of leaf {@code gid}, sorted. */
  List<LevelContact> contactsOf(int gid) {
    LogicalLocation a = leaves.get(gid);
    List<LevelContact> out = new ArrayList<>();
    int[] r = new int[3];
    for (int axis = 0; axis < 3; axis++) {
      r[axis] = grid.isPeriodic(axis) ? 1 : 0;
    }
    for (int other = 0; other < leaves.size(); other++) {
      LogicalLocation b = leaves.get(other);
      for (int s1 = -r[0]; s1 <= r[0]; s1++) {
        for (int s2 = -r[1]; s2 <= r[1]; s2++) {
          for (int s3 = -r[2]; s3 <= r[2]; s3++) {
            if (other == gid && s1 == 0 && s2 == 0 && s3 == 0) {
              continue;
            }
            LevelContact c = contact(a, b, other, new int[] {s1, s2, s3});
            if (c != null) {
              out.add(c);
            }
          }
        }
      }
    }
    out.sort((x, y) -> x.contact().compareTo(y.contact()));
    return out;
  }

  private LevelContact contact(LogicalLocation a, LogicalLocation b, int bGid, int[] shift) {
    int[] element = new int[3];
    long[] bLo = new long[3];
    for (int axis = 0; axis < 3; axis++) {
      long aLo = lo(a, axis);
      long aHi = aLo + width(a, axis);
      long domain = grid.isActive(axis) ? grid.extent(axis, finest) : 1;
      bLo[axis] = lo(b, axis) + shift[axis] * domain;
      long bHi = bLo[axis] + width(b, axis);
      long iLo = Math.max(aLo, bLo[axis]);
      long iHi = Math.min(aHi, bHi);
      if (iLo > iHi) {
        return null;
      }
      element[axis] = iLo < iHi ? 0 : (iLo == aLo ? -1 : 1);
    }
    if (element[0] == 0 && element[1] == 0 && element[2] == 0) {
      throw new AssertionError("overlapping leaves " + a + " and " + b);
    }
    int[] fine = {0, 0};
    if (b.level() == a.level() + 1) {
      int n = 0;
      for (int axis = 0; axis < 3; axis++) {
        if (grid.isActive(axis) && element[axis] == 0) {
          fine[n++] = (int) ((bLo[axis] - lo(a, axis)) / width(b, axis));
        }
      }
    }
    int index = (element[0] + 1) + 3 * (element[1] + 1) + 9 * (element[2] + 1);
    return new LevelContact(new Contact(bGid, index, fine[0], fine[1]), b.level() - a.level());
  }

  /** Total volume of the leaves in finest-level cells, to check that they tile the domain. */
  long leafVolume() {
    long total = 0;
    for (LogicalLocation loc : leaves) {
      total += width(loc, 0) * width(loc, 1) * width(loc, 2);
    }
    return total;
  }

  /** Volume of the domain in finest-level cells. */
  long domainVolume() {
    return grid.extent(0, finest) * grid.extent(1, finest) * grid.extent(2, finest);
  }
}
