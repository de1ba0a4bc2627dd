package org.metope.mesh.forest;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The block tree over the root grid: which locations are leaves (the meshblocks) and which are
 * internal nodes (refined), with the operations that change it and the neighbour search.
 *
 * <p><b>2:1 balance.</b> Leaves that touch, through a face, an edge or a corner, and across
 * periodic boundaries too, differ by at most one level. {@link #refine} keeps this by first
 * refining every coarser leaf that touches the block being refined (as Parthenon does, so
 * refining one block may refine many); {@link #derefine} refuses when a child touches a refined
 * node, since merging would leave a neighbour two levels finer.
 *
 * <p><b>Global ids.</b> {@link #resolveGids()} numbers the leaves along the Morton curve, the
 * order Parthenon uses for the same mesh. After the first call it renumbers only what changed
 * since the last ({@link LeafOrder}), so a remesh's new order costs a pass over the old one.
 *
 * <p>Not thread-safe; every rank holds an identical copy and applies the same operations.
 */
public final class Forest {
  private final RootGrid grid;
  private final int maxLevel;
  private final Set<LogicalLocation> leaves = new HashSet<>();
  private final Set<LogicalLocation> internal = new HashSet<>();
  private final LeafOrder order;
  private boolean gidsResolved;

  /**
   * A forest whose leaves are the root blocks.
   *
   * @param grid the root grid
   * @param maxLevel deepest level a leaf may reach ({@code grid.rootLevel()} forbids refinement)
   */
  public Forest(RootGrid grid, int maxLevel) {
    if (maxLevel < grid.rootLevel() || maxLevel > LogicalLocation.MAX_LEVEL) {
      throw new IllegalArgumentException("maxLevel=" + maxLevel + " outside [rootLevel="
          + grid.rootLevel() + ", " + LogicalLocation.MAX_LEVEL + "]");
    }
    this.grid = grid;
    this.maxLevel = maxLevel;
    this.order = new LeafOrder(grid.ndim());
    int root = grid.rootLevel();
    for (int k = 0; k < grid.nrbx3(); k++) {
      for (int j = 0; j < grid.nrbx2(); j++) {
        for (int i = 0; i < grid.nrbx1(); i++) {
          leaves.add(new LogicalLocation(root, i, j, k));
        }
      }
    }
  }

  /** The root grid this forest covers. */
  public RootGrid grid() {
    return grid;
  }

  /** Deepest level a leaf may reach. */
  public int maxLevel() {
    return maxLevel;
  }

  /** Number of leaves (meshblocks). */
  public int leafCount() {
    return leaves.size();
  }

  /** Whether {@code loc} is a leaf. */
  public boolean isLeaf(LogicalLocation loc) {
    return leaves.contains(loc);
  }

  /** Whether {@code loc} is a refined (internal) node. */
  public boolean isInternal(LogicalLocation loc) {
    return internal.contains(loc);
  }

  /** Deepest level of any leaf. */
  public int currentLevel() {
    int deepest = grid.rootLevel();
    for (LogicalLocation loc : leaves) {
      deepest = Math.max(deepest, loc.level());
    }
    return deepest;
  }

  /**
   * Refines leaf {@code loc} into its children, first refining every coarser leaf that touches
   * it so that 2:1 balance holds afterwards. Does nothing for a location that is not a leaf or is
   * already at the maximum level.
   *
   * @return the number of leaves added, counting the induced refinements
   */
  public int refine(LogicalLocation loc) {
    if (!leaves.contains(loc) || loc.level() >= maxLevel) {
      return 0;
    }
    gidsResolved = false;
    LogicalLocation[] children = loc.children(grid.ndim());
    leaves.remove(loc);
    internal.add(loc);
    Collections.addAll(leaves, children);
    order.refined(loc);
    int added = children.length - 1;
    if (loc.level() > grid.rootLevel()) {
      added += refineCoarserNeighbours(loc);
    }
    return added;
  }

  /**
   * The children of {@code loc} are one level finer than {@code loc}, so every leaf touching
   * {@code loc} must be at least at {@code loc}'s level. Those that may be coarser are the parent's
   * same-level neighbours on the side of {@code loc}: 2^ndim nodes, the parent included.
   */
  private int refineCoarserNeighbours(LogicalLocation loc) {
    LogicalLocation parent = loc.parent();
    int[] low = new int[3];
    int[] high = new int[3];
    for (int axis = 0; axis < 3; axis++) {
      if (grid.isActive(axis)) {
        low[axis] = loc.childIndex(axis) == 0 ? -1 : 0;
        high[axis] = low[axis] + 1;
      }
    }
    int added = 0;
    for (int o1 = low[0]; o1 <= high[0]; o1++) {
      for (int o2 = low[1]; o2 <= high[1]; o2++) {
        for (int o3 = low[2]; o3 <= high[2]; o3++) {
          LogicalLocation neighbour = grid.wrap(parent.shifted(o1, o2, o3));
          if (neighbour != null) {
            added += refine(neighbour);
          }
        }
      }
    }
    return added;
  }

  /**
   * Merges the children of {@code parent} back into {@code parent} when all of them are leaves
   * and none touches a refined node (which would then be two levels finer than {@code parent}).
   *
   * @return the number of leaves removed (2^ndim - 1), or 0 when refused
   */
  public int derefine(LogicalLocation parent) {
    if (parent.level() < grid.rootLevel() || !internal.contains(parent)) {
      return 0;
    }
    LogicalLocation[] children = parent.children(grid.ndim());
    for (LogicalLocation child : children) {
      if (!leaves.contains(child) || touchesRefinedNode(child)) {
        return 0;
      }
    }
    gidsResolved = false;
    for (LogicalLocation child : children) {
      leaves.remove(child);
    }
    internal.remove(parent);
    leaves.add(parent);
    order.merged(parent);
    return children.length - 1;
  }

  private boolean touchesRefinedNode(LogicalLocation loc) {
    int r1 = grid.isActive(0) ? 1 : 0;
    int r2 = grid.isActive(1) ? 1 : 0;
    int r3 = grid.isActive(2) ? 1 : 0;
    for (int o1 = -r1; o1 <= r1; o1++) {
      for (int o2 = -r2; o2 <= r2; o2++) {
        for (int o3 = -r3; o3 <= r3; o3++) {
          LogicalLocation neighbour = grid.wrap(loc.shifted(o1, o2, o3));
          if (neighbour != null && internal.contains(neighbour)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * Makes {@code loc} a leaf by refining its leaf ancestor down to it, keeping 2:1 balance (how
   * static refinement regions are built).
   *
   * @return the number of leaves added; 0 when {@code loc} is already a leaf, -1 when it is
   *     already refined
   */
  public int addMeshBlock(LogicalLocation loc) {
    if (!grid.contains(loc)) {
      throw new IllegalArgumentException("location outside the root grid: loc=" + loc);
    }
    if (loc.level() > maxLevel) {
      throw new IllegalArgumentException("level above the maximum: loc=" + loc + " maxLevel="
          + maxLevel);
    }
    if (internal.contains(loc)) {
      return -1;
    }
    if (leaves.contains(loc)) {
      return 0;
    }
    Deque<LogicalLocation> toRefine = new ArrayDeque<>();
    LogicalLocation ancestor = loc.parent();
    while (true) {
      toRefine.push(ancestor);
      if (leaves.contains(ancestor)) {
        break;
      }
      ancestor = ancestor.parent();
    }
    int added = 0;
    while (!toRefine.isEmpty()) {
      added += refine(toRefine.pop());
    }
    return added;
  }

  /**
   * The leaves in Morton order, unmodifiable; also fixes each leaf's global id to its position in
   * it.
   */
  public List<LogicalLocation> resolveGids() {
    List<LogicalLocation> sorted = order.resolve(this, leaves);
    gidsResolved = true;
    return sorted;
  }

  /**
   * The refinements and merges from the gid order before the last {@link #resolveGids()} to its
   * order; null when that resolve sorted every leaf (the first one, or changes of more than one
   * level).
   */
  public LeafChanges lastChanges() {
    return order.lastChanges();
  }

  /** How the gid order was kept: resolves that sorted every leaf, and those that renumbered. */
  LeafOrder leafOrder() {
    return order;
  }

  /** The leaves in Morton order. */
  public List<LogicalLocation> sortedLeaves() {
    List<LogicalLocation> sorted = new ArrayList<>(leaves);
    Collections.sort(sorted);
    return sorted;
  }

  /** The global id of leaf {@code loc}, or -1 when it is not a leaf. */
  public int gid(LogicalLocation loc) {
    if (!gidsResolved) {
      throw new IllegalStateException("gids not resolved since the last change: call resolveGids");
    }
    return order.gid(loc);
  }

  /**
   * Every neighbour of leaf {@code loc}: one entry per (leaf, element of {@code loc}) contact, so a
   * finer neighbour side gives several entries for one element, a coarser neighbour appears once,
   * at the element through which it touches, and a block may find itself (or another block more
   * than once) through periodic boundaries. Entries come in Parthenon's order: ox1 slowest, ox3
   * fastest; the children of a finer neighbour with the x1 child index slowest.
   *
   * @throws IllegalStateException when 2:1 balance is broken around {@code loc}
   */
  public List<NeighborLocation> findNeighbors(LogicalLocation loc) {
    if (!leaves.contains(loc)) {
      throw new IllegalArgumentException("not a leaf: loc=" + loc);
    }
    List<NeighborLocation> out = new ArrayList<>();
    int r1 = grid.isActive(0) ? 1 : 0;
    int r2 = grid.isActive(1) ? 1 : 0;
    int r3 = grid.isActive(2) ? 1 : 0;
    for (int o1 = -r1; o1 <= r1; o1++) {
      for (int o2 = -r2; o2 <= r2; o2++) {
        for (int o3 = -r3; o3 <= r3; o3++) {
          if (o1 != 0 || o2 != 0 || o3 != 0) {
            addNeighboursThrough(loc, NeighborIndex.of(o1, o2, o3), out);
          }
        }
      }
    }
    return out;
  }

  private void addNeighboursThrough(LogicalLocation loc, NeighborIndex element,
      List<NeighborLocation> out) {
    LogicalLocation image = loc.shifted(element.ox1(), element.ox2(), element.ox3());
    LogicalLocation neighbour = grid.wrap(image);
    if (neighbour == null) {
      return; // a physical boundary
    }
    if (leaves.contains(neighbour)) {
      out.add(new NeighborLocation(neighbour, image, element, 0, 0));
    } else if (internal.contains(neighbour)) {
      addFinerNeighbours(loc, neighbour, image, element, out);
    } else {
      LogicalLocation coarse =
          neighbour.level() > grid.rootLevel() ? neighbour.parent() : neighbour;
      if (!leaves.contains(coarse)) {
        throw new IllegalStateException("2:1 balance broken: no leaf at or above " + neighbour
            + " next to " + loc);
      }
      // A coarser leaf touches several elements of loc's same-level ring; it is listed once,
      // at the element of loc that its contact actually is.
      LogicalLocation coarseImage = image.parent();
      int[] offsets = loc.sameLevelOffsets(coarseImage);
      if (offsets[0] == element.ox1() && offsets[1] == element.ox2()
          && offsets[2] == element.ox3()) {
        out.add(new NeighborLocation(coarse, coarseImage, element, 0, 0));
      }
    }
  }

  /** The children of {@code neighbour} on the side facing {@code loc}. */
  private void addFinerNeighbours(LogicalLocation loc, LogicalLocation neighbour,
      LogicalLocation image, NeighborIndex element, List<NeighborLocation> out) {
    int[][] childRange = new int[3][];
    for (int axis = 0; axis < 3; axis++) {
      int o = element.offset(axis);
      childRange[axis] = o < 0 ? new int[] {1}
          : o > 0 ? new int[] {0}
          : grid.isActive(axis) ? new int[] {0, 1} : new int[] {0};
    }
    for (int c1 : childRange[0]) {
      for (int c2 : childRange[1]) {
        for (int c3 : childRange[2]) {
          LogicalLocation child = neighbour.child(c1, c2, c3);
          if (!leaves.contains(child)) {
            throw new IllegalStateException("2:1 balance broken: " + child
                + " is refined next to " + loc);
          }
          int[] fine = {0, 0};
          int n = 0;
          int[] c = {c1, c2, c3};
          for (int axis = 0; axis < 3 && n < 2; axis++) {
            if (element.offset(axis) == 0 && grid.isActive(axis)) {
              fine[n++] = c[axis];
            }
          }
          out.add(new NeighborLocation(child, image.child(c1, c2, c3), element, fine[0], fine[1]));
        }
      }
    }
  }
}
