package org.metope.amr;

import java.util.ArrayList;
import java.util.List;
import org.metope.amr.RemeshPlan.Kind;
import org.metope.amr.RemeshPlan.Transfer;
import org.metope.mesh.BlockDistribution;
import org.metope.mesh.LoadBalance;
import org.metope.mesh.forest.LogicalLocation;

/**
 * The remesh plan as it was made before it came from the forest's changes: one walk along both
 * location lists, a kind, old gid and cost per new block, and every transfer from them. Tests
 * hold {@link RemeshPlan} to its bits.
 */
final class ReferencePlan {
  final Kind[] kinds;
  final int[] oldGid;
  final double[] newCosts;
  final BlockDistribution newDistribution;
  final List<Transfer> transfers = new ArrayList<>();

  ReferencePlan(List<LogicalLocation> before, BlockDistribution oldDistribution,
      double[] oldCosts, List<LogicalLocation> after, int ndim, int nranks) {
    int n = after.size();
    int nleaf = 1 << ndim;
    kinds = new Kind[n];
    oldGid = new int[n];
    newCosts = new double[n];
    int old = 0;
    for (int gid = 0; gid < n; gid++) {
      LogicalLocation loc = after.get(gid);
      LogicalLocation was = before.get(old);
      oldGid[gid] = old;
      if (loc.equals(was)) {
        kinds[gid] = Kind.SAME;
        newCosts[gid] = oldCosts[old++];
      } else if (loc.level() == was.level() + 1) {
        kinds[gid] = Kind.REFINED;
        newCosts[gid] = oldCosts[old];
        if (gid + 1 == n || !was.contains(after.get(gid + 1))) {
          old++;
        }
      } else {
        kinds[gid] = Kind.DEREFINED;
        double sum = 0.0;
        for (int l = 0; l < nleaf; l++) {
          sum += oldCosts[old + l];
        }
        newCosts[gid] = sum / nleaf;
        old += nleaf;
      }
    }
    newDistribution = LoadBalance.distribute(newCosts, nranks);
    for (int gid = 0; gid < n; gid++) {
      int pieces = kinds[gid] == Kind.DEREFINED ? nleaf : 1;
      for (int l = 0; l < pieces; l++) {
        int child = switch (kinds[gid]) {
          case SAME -> 0;
          case REFINED -> RemeshPlan.childIndex(after.get(gid));
          case DEREFINED -> RemeshPlan.childIndex(before.get(oldGid[gid] + l));
        };
        transfers.add(new Transfer(oldGid[gid] + l, gid, child, kinds[gid],
            oldDistribution.rank(oldGid[gid] + l), newDistribution.rank(gid)));
      }
    }
  }

  /** The first way {@code plan} differs from this one, or null when it has the same bits. */
  String difference(RemeshPlan plan) {
    double[] costs = plan.newCosts();
    if (costs.length != newCosts.length) {
      return "blocks: " + costs.length + " against " + newCosts.length;
    }
    for (int gid = 0; gid < newCosts.length; gid++) {
      if (plan.kind(gid) != kinds[gid] || plan.oldGid(gid) != oldGid[gid]
          || Double.doubleToRawLongBits(costs[gid]) != Double.doubleToRawLongBits(newCosts[gid])
          || plan.newDistribution().rank(gid) != newDistribution.rank(gid)) {
        return "gid=" + gid + ": " + plan.kind(gid) + " from " + plan.oldGid(gid) + " cost "
            + costs[gid] + " rank " + plan.newDistribution().rank(gid) + " against " + kinds[gid]
            + " from " + oldGid[gid] + " cost " + newCosts[gid] + " rank "
            + newDistribution.rank(gid);
      }
    }
    if (!plan.transfers().equals(transfers)) {
      return "the transfers of the whole mesh";
    }
    for (int rank = 0; rank < newDistribution.nranks(); rank++) {
      int r = rank;
      if (!plan.transfers(rank).equals(transfers.stream()
          .filter(t -> t.fromRank() == r || t.toRank() == r).toList())) {
        return "the transfers of rank " + rank;
      }
    }
    return null;
  }
}
