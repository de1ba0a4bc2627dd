package org.metope.amr;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.forest.Forest;
import org.metope.mesh.forest.LogicalLocation;

/**
 * Changes the forest from every block's refinement decision (Parthenon's {@code
 * UpdateMeshBlockTree}). Every rank holds all decisions, by gid, and applies the same changes.
 *
 * <ol>
 *   <li>Nothing happens when no block refines and fewer blocks than one sibling group derefine.
 *   <li>Blocks that refine are refined in gid order; the forest refines coarser neighbours as
 *       needed to keep 2:1 balance.
 *   <li>A parent is merged when all its children chose to derefine: the children are consecutive
 *       in gid order, first child first, at one level. Parents merge deepest level first, and a
 *       merge is refused if a child is no longer a leaf or touches a refined node (2:1 balance).
 * </ol>
 *
 * Parthenon sorts the parents by level with {@code std::sort} over all but the last of them (its
 * end iterator stops one short); this sorts the same range, stably. Neither difference can change
 * the result: parents of one level merge independently, and a child touching a refined node would
 * have had a finer neighbour and so not have chosen to derefine.
 */
final class TreeUpdate {
  private TreeUpdate() {}

  /**
   * Blocks created and destroyed by one update.
   *
   * @param created leaves added by refinement (each refinement adds {@code 2^ndim - 1})
   * @param destroyed leaves removed by merges (each merge removes {@code 2^ndim - 1})
   */
  record Result(int created, int destroyed) {
    /** Whether the forest changed. */
    boolean changed() {
      return created != 0 || destroyed != 0;
    }
  }

  /**
   * Applies the decisions {@code flags} (by gid, -1, 0 or 1) of the blocks at {@code locations}
   * (by gid) to {@code forest}.
   */
  static Result apply(Forest forest, List<LogicalLocation> locations, int[] flags, int ndim) {
    if (flags.length != locations.size()) {
      throw new IllegalArgumentException("one flag per block: flags=" + flags.length
          + " blocks=" + locations.size());
    }
    return applyRequests(forest, locations, requests(flags, 0), ndim);
  }

  /**
   * The requests {@link #applyRequests} reads, of the blocks whose {@code flags} (-1, 0 or 1)
   * ask for a change, {@code flags[i]} being block {@code firstGid + i}'s: {@code gid << 1 | 1}
   * to refine, {@code gid << 1} to derefine, in the flags' order.
   */
  static int[] requests(int[] flags, int firstGid) {
    int tagged = 0;
    for (int flag : flags) {
      tagged += flag == AmrTag.SAME_VALUE ? 0 : 1;
    }
    int[] requests = new int[tagged];
    for (int i = 0, k = 0; i < flags.length; i++) {
      if (flags[i] != AmrTag.SAME_VALUE) {
        requests[k++] = (firstGid + i) << 1 | (flags[i] == AmrTag.REFINE_VALUE ? 1 : 0);
      }
    }
    return requests;
  }

  /**
   * Applies the requests of the tagged blocks only ({@link #requests}), gids ascending (what every rank's tagged blocks, gathered in rank order, are), to {@code
   * forest}; the work grows with the tagged blocks, not with the mesh.
   *
   * @throws IllegalArgumentException when the gids do not ascend or lie outside {@code locations}
   */
  static Result applyRequests(Forest forest, List<LogicalLocation> locations, int[] requests,
      int ndim) {
    int nleaf = 1 << ndim;
    List<LogicalLocation> refine = new ArrayList<>();
    List<LogicalLocation> derefine = new ArrayList<>();
    int last = -1;
    for (int request : requests) {
      int gid = request >>> 1;
      if (gid <= last || gid >= locations.size()) {
        throw new IllegalArgumentException("requests must name blocks by ascending gid below "
            + locations.size() + ": gid=" + gid + " after " + last);
      }
      last = gid;
      ((request & 1) != 0 ? refine : derefine).add(locations.get(gid));
    }
    if (refine.isEmpty() && derefine.size() < nleaf) {
      return new Result(0, 0);
    }
    List<LogicalLocation> parents = derefine.size() >= nleaf
        ? completeSiblingGroups(derefine, ndim) : new ArrayList<>();
    if (parents.size() > 1) {
      parents.subList(0, parents.size() - 1)
          .sort(Comparator.comparingInt(LogicalLocation::level).reversed());
    }
    int created = 0;
    for (LogicalLocation loc : refine) {
      created += forest.refine(loc);
    }
    int destroyed = 0;
    for (LogicalLocation parent : parents) {
      destroyed += forest.derefine(parent);
    }
    return new Result(created, destroyed);
  }

  /**
   * The parents whose children all appear in {@code derefine} (gid order), consecutively and
   * first child first.
   */
  static List<LogicalLocation> completeSiblingGroups(List<LogicalLocation> derefine, int ndim) {
    List<LogicalLocation> parents = new ArrayList<>();
    for (int n = 0; n < derefine.size(); n++) {
      LogicalLocation first = derefine.get(n);
      if ((first.lx1() & 1L) != 0 || (first.lx2() & 1L) != 0 || (first.lx3() & 1L) != 0) {
        continue;
      }
      LogicalLocation[] siblings = first.parent().children(ndim);
      int matching = 0;
      for (int s = 0; s < siblings.length && n + s < derefine.size(); s++) {
        if (derefine.get(n + s).equals(siblings[s])) {
          matching++;
        }
      }
      if (matching == siblings.length) {
        parents.add(first.parent());
      }
    }
    return parents;
  }
}
