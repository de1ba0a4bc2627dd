package org.metope.amr;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.metope.kernels.body.TagLaunch;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.NeighborBlock;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.RefinementCheck;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.forest.LogicalLocation;

/**
 * Each block's refinement decision (Parthenon's {@code Refinement::CheckAllRefinement} and {@code
 * MeshRefinement::SetRefinement}), kept per rank-local block with its derefinement counter.
 *
 * <p><b>Recommendation.</b> The maximum over every package's {@code checkRefinement} and every
 * built-in criterion, where a criterion's refine counts as same once the block's level above the
 * root grid reaches its {@code max_level} (what Parthenon's runs do, in 3D too, where its trees
 * number levels from the root grid's level in the tree); with nothing to ask, a block derefines.
 *
 * <p><b>Decision</b> ({@link #flag}), from the recommendation:
 *
 * <ul>
 *   <li>refine: refine, unless the block is at the deepest level allowed ({@code numlevel}); the
 *       derefinement counter restarts;
 *   <li>same: stay; the counter restarts;
 *   <li>derefine: a root-level block stays and its counter restarts; any other block counts one
 *       more cycle and derefines once the counter reaches {@code <parthenon/mesh> derefine_count}
 *       (Parthenon's hysteresis, default 10), unless a neighbour is finer.
 * </ul>
 *
 * Whether a block really derefines is decided later by {@link TreeUpdate}: all its siblings must
 * agree, and the merge must keep 2:1 balance.
 *
 * <p>Tagging a partition ({@link #tag}) touches only that partition's blocks and a scratch array
 * of its own, so partitions can be tagged concurrently; it allocates nothing. On a
 * device-resident backend the criteria's measures can run on the device ({@link #onDevice}, built
 * once per partition and layout), and {@link #tag(OnDevice)} decides from them the same way.
 */
public final class RefinementTagging {
  private final Mesh mesh;
  private final StateDescriptor[] checks;
  private final RefinementCriterion[] criteria;
  private final int derefineThreshold;
  private int[] derefineCounts = new int[0];
  private int[] flags = new int[0];
  /** Per partition: the combined recommendations, and one package's before combining. */
  private int[][] scratch = new int[0][];
  private int[][] packageScratch = new int[0][];

  /**
   * Tagging for {@code mesh} (fields initialised) with the packages' checks, the built-in
   * criteria and the {@code derefine_count} threshold.
   */
  RefinementTagging(Mesh mesh, List<RefinementCriterion> criteria, int derefineThreshold) {
    this.mesh = mesh;
    List<StateDescriptor> withCheck = new ArrayList<>();
    for (StateDescriptor pkg : mesh.packages().all()) {
      if (pkg.hasCheckRefinement()) {
        withCheck.add(pkg);
      }
    }
    this.checks = withCheck.toArray(new StateDescriptor[0]);
    this.criteria = criteria.toArray(new RefinementCriterion[0]);
    this.derefineThreshold = derefineThreshold;
    reset(new int[mesh.blocks().size()]);
  }

  /**
   * Starts over on the mesh's current blocks with the given derefinement counters (by local id);
   * flags start at 0. Called at start and after every remesh.
   */
  void reset(int[] counters) {
    if (counters.length != mesh.blocks().size()) {
      throw new IllegalArgumentException("one counter per block: counters=" + counters.length
          + " blocks=" + mesh.blocks().size());
    }
    derefineCounts = counters.clone();
    flags = new int[counters.length];
    List<MeshData> parts = mesh.meshData("base");
    scratch = new int[parts.size()][];
    packageScratch = new int[parts.size()][];
    for (int p = 0; p < parts.size(); p++) {
      scratch[p] = new int[parts.get(p).numBlocks()];
      packageScratch[p] = new int[parts.get(p).numBlocks()];
    }
  }

  /** Recommends and decides for every block of {@code md} (Parthenon's {@code Tag} task). */
  public void tag(MeshData md) {
    int[] tags = scratch[md.partition()];
    recommend(md, tags, packageScratch[md.partition()], null);
    decideAll(md, tags);
  }

  /**
   * {@link #tag} from measures a device made: {@code device}'s launches have run ({@code
   * KernelBackend#measure}) on the current values of its partition.
   */
  public void tag(OnDevice device) {
    MeshData md = device.md();
    int[] tags = scratch[md.partition()];
    recommend(md, tags, packageScratch[md.partition()], device);
    decideAll(md, tags);
  }

  private void decideAll(MeshData md, int[] tags) {
    for (int b = 0; b < md.numBlocks(); b++) {
      decide(md.block(b), md.blockIndex(b), tags[b]);
    }
  }

  /**
   * The device form of tagging partition {@code md}: every package's criterion's ({@link
   * RefinementCheck#onDevice}) and every built-in criterion's launch, built once per partition and
   * layout; null when some package's criterion runs on the host only.
   */
  public OnDevice onDevice(MeshData md) {
    RefinementCheck.OnDevice[] own = new RefinementCheck.OnDevice[checks.length];
    List<TagLaunch> launches = new ArrayList<>();
    for (int i = 0; i < checks.length; i++) {
      own[i] = checks[i].refinementOnDevice(md);
      if (own[i] == null) {
        return null;
      }
      launches.add(own[i].launch());
    }
    TagLaunch[] measured = new TagLaunch[criteria.length];
    for (int c = 0; c < criteria.length; c++) {
      measured[c] = criteria[c].launch(md);
      launches.add(measured[c]);
    }
    return new OnDevice(md, own, measured, launches.toArray(new TagLaunch[0]));
  }

  /**
   * Tagging of one partition in device form: the packages' criteria, the built-in criteria's
   * launches (one per criterion, in order) and every launch to run before {@link #tag(OnDevice)}.
   */
  public record OnDevice(MeshData md, RefinementCheck.OnDevice[] checks, TagLaunch[] criteria,
      TagLaunch[] launches) {}

  /**
   * Every package's and criterion's recommendation for the blocks of {@code md}, combined into
   * {@code tags}; {@code own} is scratch for one package's answer. From the cells, or from the
   * measures of {@code device} when not null.
   */
  void recommend(MeshData md, int[] tags, int[] own, OnDevice device) {
    int n = md.numBlocks();
    Arrays.fill(tags, 0, n, AmrTag.DEREFINE_VALUE);
    for (int p = 0; p < checks.length; p++) {
      StateDescriptor pkg = checks[p];
      Arrays.fill(own, 0, n, AmrTag.DEREFINE_VALUE);
      if (device == null) {
        pkg.checkRefinement(md, own);
      } else {
        device.checks()[p].tags(own);
      }
      for (int b = 0; b < n; b++) {
        int tag = own[b];
        if (tag < AmrTag.DEREFINE_VALUE || tag > AmrTag.REFINE_VALUE) {
          throw new IllegalStateException("package=" + pkg.label() + " wrote tag=" + tag
              + " for block=" + b + "; expected -1 (derefine), 0 (same) or 1 (refine)");
        }
        tags[b] = Math.max(tags[b], tag);
      }
    }
    if (criteria.length == 0) {
      return; // the packages' checks alone: no block's level to read
    }
    for (int b = 0; b < n; b++) {
      int level = md.block(b).physicalLevel();
      for (int c = 0; c < criteria.length; c++) {
        RefinementCriterion criterion = criteria[c];
        int tag = device == null ? criterion.check(md, b)
            : criterion.tag(device.criteria()[c], md, b);
        if (tag == AmrTag.REFINE_VALUE && level >= criterion.settings().maxLevel()) {
          tag = AmrTag.SAME_VALUE;
        }
        tags[b] = Math.max(tags[b], tag);
      }
    }
  }

  /** Parthenon's {@code SetRefinement} for the block with local id {@code lid}. */
  private void decide(MeshBlock block, int lid, int recommendation) {
    int level = block.loc().level();
    if (recommendation >= AmrTag.SAME_VALUE) {
      derefineCounts[lid] = 0;
      flags[lid] = recommendation > 0 && level < mesh.maxLevel() ? AmrTag.REFINE_VALUE
          : AmrTag.SAME_VALUE;
      return;
    }
    if (level == mesh.rootLevel()) {
      flags[lid] = AmrTag.SAME_VALUE;
      derefineCounts[lid] = 0;
      return;
    }
    derefineCounts[lid]++;
    flags[lid] = !hasFinerNeighbor(block) && derefineCounts[lid] >= derefineThreshold
        ? AmrTag.DEREFINE_VALUE : AmrTag.SAME_VALUE;
  }

  private static boolean hasFinerNeighbor(MeshBlock block) {
    List<NeighborBlock> neighbors = block.neighbors();
    for (int n = 0; n < neighbors.size(); n++) {
      if (neighbors.get(n).level() > block.loc().level()) {
        return true;
      }
    }
    return false;
  }

  /** The mesh whose blocks are tagged. */
  public Mesh mesh() {
    return mesh;
  }

  /** The decision of the block with local id {@code lid}: -1, 0 or 1. */
  public int flag(int lid) {
    return flags[lid];
  }

  /** How many of this rank's blocks decided {@code value}. */
  int count(int value) {
    int n = 0;
    for (int flag : flags) {
      if (flag == value) {
        n++;
      }
    }
    return n;
  }

  /**
   * This rank's votes to derefine that may still complete a sibling group, the second count of
   * {@link AdaptiveRefinement#localVotes}: a group of children merges only when all {@code 2^ndim}
   * are leaves voting to derefine, and such leaves are consecutive in gid order ({@link
   * TreeUpdate}). A run of consecutive votes with one parent counts {@code 2^ndim} when it is the
   * whole group, and its length when it touches this rank's first or last block and a rank holds
   * blocks beyond (the rest of the group may be there); any other run lacks a sibling that is
   * here and did not vote, or that is not a leaf, and counts nothing. So the sum over the ranks
   * reaches {@code 2^ndim} whenever some group can merge, and a mesh whose only votes cannot
   * merge (on the 2D adaptive deck, most cycles) skips the requests' allgather. Allocates nothing.
   *
   * @param blocksBefore whether a rank before this one holds blocks (gids below this rank's)
   * @param blocksAfter whether a rank after this one holds blocks
   */
  int derefineVotesThatMayMerge(boolean blocksBefore, boolean blocksAfter) {
    int group = 1 << mesh.ndim();
    List<MeshBlock> blocks = mesh.blocks();
    int votes = 0;
    int i = 0;
    while (i < flags.length) {
      if (flags[i] != AmrTag.DEREFINE_VALUE) {
        i++;
        continue;
      }
      LogicalLocation first = blocks.get(i).loc();
      int j = i + 1;
      while (j < flags.length && flags[j] == AmrTag.DEREFINE_VALUE
          && siblings(first, blocks.get(j).loc())) {
        j++;
      }
      if (j - i == group) {
        votes += group;
      } else if (i == 0 && blocksBefore || j == flags.length && blocksAfter) {
        votes += j - i;
      }
      i = j;
    }
    return votes;
  }

  private static boolean siblings(LogicalLocation a, LogicalLocation b) {
    return a.level() == b.level() && a.lx1() >> 1 == b.lx1() >> 1 && a.lx2() >> 1 == b.lx2() >> 1
        && a.lx3() >> 1 == b.lx3() >> 1;
  }

  /** This rank's decisions by local id (a copy). */
  int[] flags() {
    return flags.clone();
  }

  /** Every block's derefinement counter by local id (a copy). */
  int[] derefineCounts() {
    return derefineCounts.clone();
  }

  /** The derefinement counter of the block with local id {@code lid}. */
  public int derefineCount(int lid) {
    return derefineCounts[lid];
  }
}
