package org.metope.amr;

import java.util.ArrayList;
import java.util.List;
import org.metope.mesh.BlockDistribution;
import org.metope.mesh.LoadBalance;
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
  private final Kind[] kinds;
  private final int[] oldGid;
  private final double[] newCosts;
  private final int nleaf;

  /**
   * The plan from the old blocks to the new ones.
   *
   * @param oldCosts the old blocks' costs, by old gid
   * @param nranks the number of ranks to distribute the new blocks over
   * @throws IllegalStateException when a new block is more than one level away from its old one
   */
  RemeshPlan(List<LogicalLocation> oldLocations, BlockDistribution oldDistribution,
      double[] oldCosts, List<LogicalLocation> newLocations, int ndim, int nranks) {
    this.oldLocations = List.copyOf(oldLocations);
    this.newLocations = List.copyOf(newLocations);
    this.oldDistribution = oldDistribution;
    int n = newLocations.size();
    nleaf = 1 << ndim;
    kinds = new Kind[n];
    oldGid = new int[n];
    newCosts = new double[n];
    // Both lists follow the Morton curve, on which a block's children come right after where
    // the block was: one walk along both pairs every new block with its old one(s).
    int old = 0;
    for (int gid = 0; gid < n; gid++) {
      LogicalLocation loc = newLocations.get(gid);
      LogicalLocation was = old < oldLocations.size() ? oldLocations.get(old) : null;
      if (loc.equals(was)) {
        kinds[gid] = Kind.SAME;
        oldGid[gid] = old;
        newCosts[gid] = oldCosts[old++];
      } else if (was != null && loc.level() == was.level() + 1 && was.contains(loc)) {
        kinds[gid] = Kind.REFINED;
        oldGid[gid] = old;
        newCosts[gid] = oldCosts[old];
        if (gid + 1 == n || !was.contains(newLocations.get(gid + 1))) {
          old++;
        }
      } else if (was != null && was.level() == loc.level() + 1
          && was.equals(loc.children(ndim)[0]) && old + nleaf <= oldLocations.size()
          && loc.contains(oldLocations.get(old + nleaf - 1))) {
        kinds[gid] = Kind.DEREFINED;
        oldGid[gid] = old;
        double sum = 0.0;
        for (int l = 0; l < nleaf; l++) {
          sum += oldCosts[old + l];
        }
        newCosts[gid] = sum / nleaf;
        old += nleaf;
      } else {
        throw new IllegalStateException("a remesh may change a block by one level only: new"
            + " block loc=" + loc + " has no old block at its location, parent or first child");
      }
    }
    if (old != oldLocations.size()) {
      throw new IllegalStateException("old blocks from gid=" + old + " on are in no new block:"
          + " old=" + oldLocations.size() + " new=" + n);
    }
    newDistribution = LoadBalance.distribute(newCosts, nranks);
  }

  /** Appends new block {@code gid}'s transfers to {@code out}: those of {@code rank}, or all. */
  private void addTransfers(int gid, int rank, boolean all, List<Transfer> out) {
    int to = newDistribution.rank(gid);
    int old = oldGid[gid];
    int pieces = kinds[gid] == Kind.DEREFINED ? nleaf : 1;
    for (int l = 0; l < pieces; l++) {
      int from = oldDistribution.rank(old + l);
      if (all || from == rank || to == rank) {
        int child = switch (kinds[gid]) {
          case SAME -> 0;
          case REFINED -> childIndex(newLocations.get(gid));
          case DEREFINED -> childIndex(oldLocations.get(old + l));
        };
        out.add(new Transfer(old + l, gid, child, kinds[gid], from, to));
      }
    }
  }

  /** The first new gid whose old gid is at least {@code old} ({@link #oldGid} never falls). */
  private int firstNewGidFrom(int old) {
    int low = 0;
    int high = oldGid.length;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (oldGid[mid] < old) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  /** The position of {@code loc} among its siblings: x1 bit 0, x2 bit 1, x3 bit 2. */
  static int childIndex(LogicalLocation loc) {
    return (int) ((loc.lx1() & 1L) | (loc.lx2() & 1L) << 1 | (loc.lx3() & 1L) << 2);
  }

  /** What new block {@code gid} is made of. */
  Kind kind(int gid) {
    return kinds[gid];
  }

  /** The old gid of new block {@code gid} (Parthenon's {@code newtoold}). */
  int oldGid(int gid) {
    return oldGid[gid];
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
    for (int gid = 0; gid < kinds.length; gid++) {
      addTransfers(gid, -1, true, out);
    }
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
    if (sendFirst > 0 && kinds[sendFirst - 1] == Kind.DEREFINED
        && oldGid[sendFirst - 1] + nleaf > oldFirst) {
      sendFirst--;
    }
    List<Transfer> out = new ArrayList<>();
    for (int gid = Math.min(receiveFirst, sendFirst); gid < Math.max(receiveEnd, sendEnd); gid++) {
      if (gid < receiveEnd && gid >= receiveFirst || gid < sendEnd && gid >= sendFirst) {
        addTransfers(gid, rank, false, out);
      }
    }
    return out;
  }
}
