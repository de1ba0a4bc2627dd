package org.metope.mesh.forest;

import java.util.List;

/**
 * How one gid order of a forest's leaves became the next: the refinements and merges between
 * them, in gid order (struct-of-arrays, one entry per change). Every leaf outside a change keeps
 * its location; only its gid shifts by what the changes before it added or removed.
 *
 * <pre>
 * change c  | oldGid(c)                      | newGid(c)
 * refined   | the refined leaf               | its first child (2^ndim children follow)
 * merged    | the first child (2^ndim follow) | the parent
 * </pre>
 *
 * {@link Forest#lastChanges()} gives those of its last resolve, found while renumbering; {@link
 * #between} finds them by walking two orders, for orders from elsewhere.
 */
public final class LeafChanges {
  private final int nchild;
  private final int[] oldGid;
  private final int[] newGid;
  private final boolean[] merged;
  private final int oldCount;
  private final int newCount;

  /**
   * The changes {@code packed[0..count)}, each {@code oldGid << 1 | (merged ? 1 : 0)}, sorted and
   * not overlapping, of an order of {@code oldCount} leaves whose nodes have {@code nchild}
   * children.
   */
  LeafChanges(long[] packed, int count, int nchild, int oldCount) {
    this.nchild = nchild;
    this.oldGid = new int[count];
    this.newGid = new int[count];
    this.merged = new boolean[count];
    int shift = 0;
    for (int c = 0; c < count; c++) {
      oldGid[c] = (int) (packed[c] >>> 1);
      merged[c] = (packed[c] & 1) != 0;
      newGid[c] = oldGid[c] + shift;
      shift += merged[c] ? 1 - nchild : nchild - 1;
    }
    this.oldCount = oldCount;
    this.newCount = oldCount + shift;
  }

  /**
   * The changes from leaves {@code before} to leaves {@code after}, both in gid order, found by
   * one walk along both; null when a new leaf is not an old one, a child of one, or the parent of
   * a run of old siblings (a change of more than one level).
   */
  public static LeafChanges between(List<LogicalLocation> before, List<LogicalLocation> after,
      int ndim) {
    int nchild = 1 << ndim;
    long[] packed = new long[16];
    int count = 0;
    int old = 0;
    int gid = 0;
    while (gid < after.size()) {
      LogicalLocation loc = after.get(gid);
      LogicalLocation was = old < before.size() ? before.get(old) : null;
      if (loc.equals(was)) {
        old++;
        gid++;
        continue;
      }
      boolean refined = was != null && childrenAt(was, after, gid, nchild);
      boolean merge = !refined && childrenAt(loc, before, old, nchild);
      if (!refined && !merge) {
        return null;
      }
      if (count == packed.length) {
        packed = java.util.Arrays.copyOf(packed, 2 * count);
      }
      packed[count++] = (long) old << 1 | (merge ? 1 : 0);
      old += merge ? nchild : 1;
      gid += merge ? 1 : nchild;
    }
    return old == before.size() ? new LeafChanges(packed, count, nchild, before.size()) : null;
  }

  /** Whether {@code leaves[from..from + nchild)} are the children of {@code parent}. */
  private static boolean childrenAt(LogicalLocation parent, List<LogicalLocation> leaves,
      int from, int nchild) {
    if (from + nchild > leaves.size()) {
      return false;
    }
    for (int s = 0; s < nchild; s++) {
      LogicalLocation child = leaves.get(from + s);
      if (child.level() != parent.level() + 1 || !parent.contains(child)) {
        return false;
      }
    }
    return true;
  }

  /** How many changes. */
  public int count() {
    return oldGid.length;
  }

  /** Whether change {@code c} merged children into their parent (else it refined a leaf). */
  public boolean merged(int c) {
    return merged[c];
  }

  /** The old gid where change {@code c} starts: the refined leaf, or the first merged child. */
  public int oldGid(int c) {
    return oldGid[c];
  }

  /** The new gid where change {@code c} starts: the first child, or the merged parent. */
  public int newGid(int c) {
    return newGid[c];
  }

  /** The old leaves change {@code c} replaced: 1 refined, or {@code 2^ndim} merged. */
  public int oldSpan(int c) {
    return merged[c] ? nchild : 1;
  }

  /** The new leaves change {@code c} made: {@code 2^ndim} children, or 1 parent. */
  public int newSpan(int c) {
    return merged[c] ? 1 : nchild;
  }

  /** Leaves in the old order. */
  public int oldCount() {
    return oldCount;
  }

  /** Leaves in the new order. */
  public int newCount() {
    return newCount;
  }

  /**
   * The new gid of old leaf {@code oldGid}: shifted by what the changes before it added or
   * removed, or -1 when a change replaced it (refined, or merged into its parent).
   */
  public int gidAfter(int oldGid) {
    int c = atOrBeforeOld(oldGid);
    if (c < 0) {
      return oldGid;
    }
    int end = this.oldGid[c] + oldSpan(c);
    return oldGid < end ? -1 : oldGid - end + newGid[c] + newSpan(c);
  }

  /** The last change starting at or before new gid {@code gid}; -1 when none does. */
  public int atOrBeforeNew(int gid) {
    return lastAtOrBefore(newGid, gid);
  }

  /** The last change starting at or before old gid {@code gid}; -1 when none does. */
  public int atOrBeforeOld(int gid) {
    return lastAtOrBefore(oldGid, gid);
  }

  private static int lastAtOrBefore(int[] starts, int gid) {
    int low = 0;
    int high = starts.length;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (starts[mid] <= gid) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low - 1;
  }
}
