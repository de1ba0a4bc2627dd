package org.metope.mesh.forest;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * The leaves of a {@link Forest} in Morton order (gid order), kept from one resolve to the next
 * by renumbering only what changed.
 *
 * <p>After the first order is sorted, the forest reports every refinement and merge it makes
 * ({@link #refined}, {@link #merged}). A refinement replaces one old leaf by its children, and a
 * merge replaces a run of siblings by their parent, in place: a node's subtree is one contiguous
 * run of the Morton curve, with the node itself (or its first child) first. So the new order is
 * the old one with those runs swapped, which {@link #resolve} builds with one binary search per
 * change and block copies of the unchanged runs in between, instead of sorting every leaf
 * (Parthenon keeps its order the same way, by walking its tree). When the changes are not all
 * one level away from the old leaves (two refinements in one place, a refinement undone, a
 * forest never resolved), it sorts every leaf as before. The changes it renumbered are kept
 * ({@link #lastChanges}), so that a remesh pairs old and new blocks from them alone.
 */
final class LeafOrder {
  /** Change kinds, in the low bits of a packed change ({@code oldGid << 1 | kind}). */
  private static final int REFINE = 0;
  private static final int MERGE = 1;

  private final int nchild;
  /** The order of the last resolve, by gid; null before the first. */
  private LogicalLocation[] order;
  /** The changes since the last resolve, by location: refined leaves and merged parents. */
  private LogicalLocation[] changes = new LogicalLocation[16];
  private boolean[] mergedChange = new boolean[16];
  private int nchanges;
  /** Whether a change since the last resolve cannot be applied in place (sort instead). */
  private boolean unordered = true;
  /** The changes the last resolve renumbered; null when it sorted. */
  private LeafChanges lastChanges;
  private long sorts;
  private long renumbers;

  /** An order for a forest whose nodes have {@code 2^ndim} children. */
  LeafOrder(int ndim) {
    this.nchild = 1 << ndim;
  }

  /** Leaf {@code loc} became internal (its children leaves). */
  void refined(LogicalLocation loc) {
    record(loc, false);
  }

  /** Node {@code parent} became a leaf (its children merged). */
  void merged(LogicalLocation parent) {
    record(parent, true);
  }

  private void record(LogicalLocation loc, boolean merge) {
    if (unordered) {
      return;
    }
    if (order == null || nchanges >= order.length) {
      unordered = true; // more changes than leaves: one of them cannot be in place
      return;
    }
    if (nchanges == changes.length) {
      changes = Arrays.copyOf(changes, 2 * nchanges);
      mergedChange = Arrays.copyOf(mergedChange, 2 * nchanges);
    }
    changes[nchanges] = loc;
    mergedChange[nchanges++] = merge;
  }

  /**
   * The leaves of {@code forest} (whose leaf set is {@code leaves}) in Morton order, as an
   * unmodifiable list; the order is kept for the next call.
   */
  List<LogicalLocation> resolve(Forest forest, Collection<LogicalLocation> leaves) {
    lastChanges = null;
    LogicalLocation[] next = unordered ? null : renumber(forest, leaves.size());
    if (next == null) {
      next = leaves.toArray(new LogicalLocation[0]);
      Arrays.sort(next);
      sorts++;
    } else {
      renumbers++;
    }
    order = next;
    nchanges = 0;
    Arrays.fill(changes, null);
    unordered = false;
    return Collections.unmodifiableList(Arrays.asList(next));
  }

  /** The changes from the order before the last resolve to its order; null when it sorted. */
  LeafChanges lastChanges() {
    return lastChanges;
  }

  /** How many resolves sorted every leaf. */
  long sorts() {
    return sorts;
  }

  /** How many resolves renumbered the changes only. */
  long renumbers() {
    return renumbers;
  }

  /** The gid of {@code loc} in the last resolved order, or -1 when it is not a leaf of it. */
  int gid(LogicalLocation loc) {
    int at = Arrays.binarySearch(order, loc);
    return at >= 0 ? at : -1;
  }

  /**
   * The old order with each change swapped in place, or null when a change is not one level away
   * from the old leaves or the result would not hold {@code leafCount} leaves.
   */
  private LogicalLocation[] renumber(Forest forest, int leafCount) {
    long[] packed = new long[nchanges];
    for (int c = 0; c < nchanges; c++) {
      int gid = oldGidOf(forest, changes[c], mergedChange[c]);
      if (gid < 0) {
        return null;
      }
      packed[c] = (long) gid << 1 | (mergedChange[c] ? MERGE : REFINE);
    }
    Arrays.sort(packed);
    int grown = 0;
    for (long change : packed) {
      grown += (change & 1) == REFINE ? nchild - 1 : 1 - nchild;
    }
    if (order.length + grown != leafCount) {
      return null;
    }
    LogicalLocation[] next = new LogicalLocation[leafCount];
    int from = 0;
    int to = 0;
    for (long change : packed) {
      int gid = (int) (change >>> 1);
      if (gid < from) {
        return null; // two changes on one leaf
      }
      System.arraycopy(order, from, next, to, gid - from);
      to += gid - from;
      if ((change & 1) == REFINE) {
        LogicalLocation[] children = order[gid].children(forest.grid().ndim());
        System.arraycopy(children, 0, next, to, nchild);
        to += nchild;
        from = gid + 1;
      } else {
        next[to++] = order[gid].parent();
        from = gid + nchild;
      }
    }
    System.arraycopy(order, from, next, to, order.length - from);
    lastChanges = new LeafChanges(packed, packed.length, nchild, order.length);
    return next;
  }

  /**
   * The old gid where a change starts: the refined leaf itself, or the first child of a merged
   * parent (its siblings after it); -1 when the change is not one level away from the old order
   * or was undone since.
   */
  private int oldGidOf(Forest forest, LogicalLocation loc, boolean merge) {
    if (!merge) {
      int gid = gid(loc);
      if (gid < 0 || !forest.isInternal(loc)) {
        return -1;
      }
      for (LogicalLocation child : loc.children(forest.grid().ndim())) {
        if (!forest.isLeaf(child)) {
          return -1;
        }
      }
      return gid;
    }
    LogicalLocation[] children = loc.children(forest.grid().ndim());
    int gid = gid(children[0]);
    if (gid < 0 || gid + nchild > order.length || !forest.isLeaf(loc)) {
      return -1;
    }
    for (int s = 1; s < nchild; s++) {
      if (!order[gid + s].equals(children[s])) {
        return -1;
      }
    }
    return gid;
  }
}
