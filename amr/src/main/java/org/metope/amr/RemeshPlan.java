package org.metope.amr;

import java.util.ArrayList;
import java.util.List;
import org.metope.mesh.BlockDistribution;
import org.metope.mesh.LoadBalance;
import org.metope.mesh.forest.LeafChanges;
import org.metope.mesh.forest.LogicalLocation;

/**
 * How the blocks before a remesh become the blocks after it (the lists Parthenon's {@code
 * RedistributeAndRefineMeshBlocks} builds): for every new block, the old block(s) its data come
 * from, its cost, and the transfers that carry the data, each from the rank owning the old block
 * to the rank owning the new one. Every rank computes the same plan from the same two lists of
 * locations.
 *
 * <p>A new block is one of three {@link Kind}s: the same location as an old block; a child of an
 * old block (refined, one level); or the parent of old blocks (derefined, one level). Its old gid
 * ({@link #oldGid}) is, as in Parthenon's forest, the old block itself, its parent, or its first
 * child. Costs follow Parthenon: kept for same and refined blocks, the average of the children for
 * a merged one.
 *
 * <p>The plan is made from the {@link LeafChanges} between the two orders: every block outside
 * a change is SAME, its old gid shifted by what the changes before it added or removed. So the
 * plan holds no per-block records of its own, and making it costs the changes plus one copy of
 * the costs and the load balance; a rank's transfers cost its own blocks.
 *
 * <p>Transfers come in plan order: new gids ascending, and for a merged block its children in
 * Morton order. Because new and old gids both follow the Morton curve, this is also the order of
 * old gids, so a sender and a receiver that walk the transfers between them agree on their order.
 */
final class RemeshPlan {
  /** What a new block is made of. */
  enum Kind {
    /** Same location as an old block: its data are copied. */
    SAME,
    /** A child of an old block: prolongated from the parent's cells. */
    REFINED,
    /** The parent of old blocks: their restricted cells fill its quadrants. */
    DEREFINED
  }

  /**
   * One block's data travelling from an old block to a new one.
   *
   * @param oldGid the old block (the parent of a refined block, or one child of a merged one)
   * @param newGid the new block
   * @param child the position among siblings (x1 bit 0, x2 bit 1, x3 bit 2) of the fine block of
   *     the pair: the new block when refined, the old block when merged; 0 for {@link Kind#SAME}
   * @param kind what the new block is
   * @param fromRank the rank owning the old block
   * @param toRank the rank owning the new block
   */
  record Transfer(int oldGid, int newGid, int child, Kind kind, int fromRank, int toRank) {}

  private final List<LogicalLocation> oldLocations;
  private final List<LogicalLocation> newLocations;
  private final BlockDistribution oldDistribution;
  private final BlockDistribution newDistribution;
  private final LeafChanges changes;
  private final double[] newCosts;

  /**
   * The plan from the old blocks to the new ones, pairing them by a walk along both lists (for
   * orders that come without their changes).
   *
   * @param oldCosts the old blocks' costs, by old gid
   * @param nranks the number of ranks to distribute the new blocks over
   * @throws IllegalStateException when a new block is more than one level away from its old one
   */
  RemeshPlan(List<LogicalLocation> oldLocations, BlockDistribution oldDistribution,
      double[] oldCosts, List<LogicalLocation> newLocations, int ndim, int nranks) {
    this(oldLocations, oldDistribution, oldCosts, newLocations, walk(oldLocations, newLocations,
        ndim), nranks);
  }

  /**
   * The plan from the old blocks to the new ones, made from the {@code changes} between them
   * (the forest's, {@link org.metope.mesh.forest.Forest#lastChanges()}): the work grows with the
   * changes, plus one copy of the costs and the load balance. The lists are kept, not copied;
   * they must not change while the plan is used.
   *
   * @throws IllegalStateException when the changes do not turn the old locations into the new
   */
  RemeshPlan(List<LogicalLocation> oldLocations, BlockDistribution oldDistribution,
      double[] oldCosts, List<LogicalLocation> newLocations, LeafChanges changes, int nranks) {
    this.oldLocations = oldLocations;
    this.newLocations = newLocations;
    this.oldDistribution = oldDistribution;
    this.changes = changes;
    if (changes.oldCount() != oldLocations.size() || changes.newCount() != newLocations.size()) {
      throw new IllegalStateException("the changes do not lead from the old blocks to the new:"
          + " old=" + oldLocations.size() + " new=" + newLocations.size() + " changes from "
          + changes.oldCount() + " to " + changes.newCount());
    }
    this.newCosts = new double[newLocations.size()];
    int old = 0;
    for (int c = 0; c < changes.count(); c++) {
      old = copySameRun(old, changes.oldGid(c), changes.newGid(c) - changes.oldGid(c), oldCosts);
      checkChange(c);
      int gid = changes.newGid(c);
      if (changes.merged(c)) {
        // Parthenon's cost of a merged block: the mean of its children's, summed in order.
        double sum = 0.0;
        for (int l = 0; l < changes.oldSpan(c); l++) {
          sum += oldCosts[old + l];
        }
        newCosts[gid] = sum / changes.oldSpan(c);
      } else {
        java.util.Arrays.fill(newCosts, gid, gid + changes.newSpan(c), oldCosts[old]);
      }
      old += changes.oldSpan(c);
    }
    int shift = newLocations.size() - oldLocations.size();
    copySameRun(old, oldLocations.size(), shift, oldCosts);
    newDistribution = LoadBalance.distribute(newCosts, nranks);
  }

  private static LeafChanges walk(List<LogicalLocation> oldLocations,
      List<LogicalLocation> newLocations, int ndim) {
    LeafChanges changes = LeafChanges.between(oldLocations, newLocations, ndim);
    if (changes == null) {
      throw new IllegalStateException("a remesh may change a block by one level only: some new"
          + " block has no old block at its location, parent or children");
    }
    return changes;
  }

  /**
   * Copies the costs of the unchanged old blocks {@code [from, to)}, whose new gids are {@code
   * shift} higher, after checking the run's ends are at the same locations; returns {@code to}.
   */
  private int copySameRun(int from, int to, int shift, double[] oldCosts) {
    if (to < from) {
      throw new IllegalStateException("changes overlap: old gid=" + to + " after " + from);
    }
    if (to > from && (!oldLocations.get(from).equals(newLocations.get(from + shift))
        || !oldLocations.get(to - 1).equals(newLocations.get(to - 1 + shift)))) {
      throw new IllegalStateException("old blocks " + from + ".." + (to - 1) + " are not new"
          + " blocks " + (from + shift) + ".." + (to - 1 + shift));
    }
    System.arraycopy(oldCosts, from, newCosts, from + shift, to - from);
    return to;
  }

  /** Checks that change {@code c} replaces a parent by its children or children by a parent. */
  private void checkChange(int c) {
    LogicalLocation parent = changes.merged(c) ? newLocations.get(changes.newGid(c))
        : oldLocations.get(changes.oldGid(c));
    List<LogicalLocation> fine = changes.merged(c) ? oldLocations : newLocations;
    int first = changes.merged(c) ? changes.oldGid(c) : changes.newGid(c);
    int last = first + (changes.merged(c) ? changes.oldSpan(c) : changes.newSpan(c)) - 1;
    for (int at : new int[] {first, last}) {
      LogicalLocation child = fine.get(at);
      if (child.level() != parent.level() + 1 || !parent.contains(child)) {
        throw new IllegalStateException("change " + c + " does not lead from " + parent
            + " to its children: " + child + " at gid=" + at);
      }
    }
  }

  /** Appends new block {@code gid}'s transfers to {@code out}: those of {@code rank}, or all. */
  private void addTransfers(int gid, int c, int rank, boolean all, List<Transfer> out) {
    Kind kind = kind(gid, c);
    int old = oldGid(gid, c);
    int to = newDistribution.rank(gid);
    int pieces = kind == Kind.DEREFINED ? changes.oldSpan(c) : 1;
    for (int l = 0; l < pieces; l++) {
      int from = oldDistribution.rank(old + l);
      if (all || from == rank || to == rank) {
        int child = switch (kind) {
          case SAME -> 0;
          case REFINED -> childIndex(newLocations.get(gid));
          case DEREFINED -> childIndex(oldLocations.get(old + l));
        };
        out.add(new Transfer(old + l, gid, child, kind, from, to));
      }
    }
  }

  /** What new block {@code gid} is, {@code c} being the last change starting at or before it. */
  private Kind kind(int gid, int c) {
    if (c < 0 || gid >= changes.newGid(c) + changes.newSpan(c)) {
      return Kind.SAME;
    }
    return changes.merged(c) ? Kind.DEREFINED : Kind.REFINED;
  }

  /** The old gid of new block {@code gid}, {@code c} being as for {@link #kind(int, int)}. */
  private int oldGid(int gid, int c) {
    if (c < 0) {
      return gid;
    }
    int newEnd = changes.newGid(c) + changes.newSpan(c);
    return gid < newEnd ? changes.oldGid(c) : gid - newEnd + changes.oldGid(c) + changes.oldSpan(c);
  }

  /** The first new gid whose old gid is at least {@code old} (old gids never fall). */
  private int firstNewGidFrom(int old) {
    int kept = changes.gidAfter(old);
    if (kept >= 0) {
      return kept;
    }
    int c = changes.atOrBeforeOld(old); // the change that replaced old
    // Its first old block starts the new ones; a later child of a merged block: the block after.
    return old == changes.oldGid(c) ? changes.newGid(c) : changes.newGid(c) + 1;
  }

  /** The position of {@code loc} among its siblings: x1 bit 0, x2 bit 1, x3 bit 2. */
  static int childIndex(LogicalLocation loc) {
    return (int) ((loc.lx1() & 1L) | (loc.lx2() & 1L) << 1 | (loc.lx3() & 1L) << 2);
  }

  /** What new block {@code gid} is made of. */
  Kind kind(int gid) {
    return kind(gid, changes.atOrBeforeNew(gid));
  }

  /** The old gid of new block {@code gid} (Parthenon's {@code newtoold}). */
  int oldGid(int gid) {
    return oldGid(gid, changes.atOrBeforeNew(gid));
  }

  /** The changes this plan was made from. */
  LeafChanges changes() {
    return changes;
  }

  /** The new blocks' costs, by new gid. */
  double[] newCosts() {
    return newCosts.clone();
  }

  /** The distribution of the new blocks over the ranks. */
  BlockDistribution newDistribution() {
    return newDistribution;
  }

  /** The distribution of the old blocks. */
  BlockDistribution oldDistribution() {
    return oldDistribution;
  }

  /** Old block locations, by old gid. */
  List<LogicalLocation> oldLocations() {
    return oldLocations;
  }

  /** New block locations, by new gid. */
  List<LogicalLocation> newLocations() {
    return newLocations;
  }

  /**
   * Every transfer of the whole mesh, in plan order: one record per block, for checking a plan;
   * a rank's migration reads {@link #transfers(int)}.
   */
  List<Transfer> transfers() {
    List<Transfer> out = new ArrayList<>();
    addRangeTransfers(0, newLocations.size(), -1, true, out);
    return out;
  }

  /**
   * The transfers from or to {@code rank}, in plan order. Its old blocks are one gid range, and
   * so are its new blocks and the new blocks made from its old ones (both orders follow the
   * Morton curve): built from those two ranges, so that a rank makes a record per block it sends
   * or receives, not per block of the mesh.
   */
  List<Transfer> transfers(int rank) {
    int receiveFirst = newDistribution.firstGid(rank);
    int receiveEnd = receiveFirst + newDistribution.blockCount(rank);
    int oldFirst = oldDistribution.firstGid(rank);
    int sendFirst = firstNewGidFrom(oldFirst);
    int sendEnd = firstNewGidFrom(oldFirst + oldDistribution.blockCount(rank));
    // A merged block's first child may lie before this rank's old range.
    if (sendFirst > 0 && kind(sendFirst - 1) == Kind.DEREFINED
        && oldGid(sendFirst - 1) + changes.oldSpan(changes.atOrBeforeNew(sendFirst - 1))
            > oldFirst) {
      sendFirst--;
    }
    List<Transfer> out = new ArrayList<>();
    // The union of both ranges, in gid order.
    int lowFirst = Math.min(receiveFirst, sendFirst);
    int lowEnd = receiveFirst <= sendFirst ? receiveEnd : sendEnd;
    int highFirst = Math.max(receiveFirst, sendFirst);
    int highEnd = receiveFirst <= sendFirst ? sendEnd : receiveEnd;
    addRangeTransfers(lowFirst, lowEnd, rank, false, out);
    addRangeTransfers(Math.max(highFirst, lowEnd), highEnd, rank, false, out);
    return out;
  }

  /** The transfers of new blocks {@code [first, end)}: those of {@code rank}, or all. */
  private void addRangeTransfers(int first, int end, int rank, boolean all, List<Transfer> out) {
    int c = first < end ? changes.atOrBeforeNew(first) : -1;
    for (int gid = first; gid < end; gid++) {
      while (c + 1 < changes.count() && changes.newGid(c + 1) <= gid) {
        c++;
      }
      addTransfers(gid, c, rank, all, out);
    }
  }
}
