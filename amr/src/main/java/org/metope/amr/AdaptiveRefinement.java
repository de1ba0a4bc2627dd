package org.metope.amr;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.metope.mesh.BlockDistribution;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshRefinement;
import org.metope.comm.Communicator;
import org.metope.comm.ReduceOp;
import org.metope.kernels.KernelBackend;
import org.metope.kernels.body.TagLaunch;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.DriverError;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.forest.LeafChanges;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.input.ParameterInput;
import org.metope.tasking.Task;
import org.metope.tasking.TaskStatus;

/**
 * Adaptive mesh refinement of one mesh (Parthenon's
 * {@code Mesh::LoadBalancingAndAdaptiveMeshRefinement} with the start-up loop of {@code
 * Mesh::Initialize}): tags blocks, changes the forest, and when it changed, remeshes.
 *
 * <p>Per cycle: the last stage of a step runs {@link #tag} on every partition (on a
 * device-resident backend, {@link #tagTask}: the criteria's measures on the device); after the
 * step the driver calls {@link #loadBalancingAndAdaptiveMeshRefinement}, which gathers every rank's
 * decisions, updates the forest ({@link TreeUpdate}) and, only if the tree changed, redistributes:
 * new gids along the Morton curve, new ranks by cost ({@code LoadBalance}, contiguous gid ranges),
 * block data moved and prolongated or restricted ({@link BlockMigration}), fresh storage and
 * partitions, particles moved to the blocks holding them ({@link SwarmMigration}), boundary
 * communication set up again, and ghosts filled (pre-communication derived
 * fields, ghost exchange, derived fields). The driver then forgets its task collections and
 * estimates the time step again. Tagging allocates nothing, and neither does a cycle in which no
 * block asks to refine and no sibling group could merge.
 *
 * <p>At start-up ({@link #initialRefinementStep}) every block is tagged after the problem
 * generator, and the mesh is remeshed until the number of blocks stops changing, regenerating the
 * initial state each time, as Parthenon does.
 *
 * <p>Reads {@code <parthenon/mesh> derefine_count} (default 10) and the {@code
 * <parthenon/refinementN>} criteria ({@link RefinementCriteria}).
 */
public final class AdaptiveRefinement implements MeshRefinement {
  private final Mesh mesh;
  private final BoundaryCommunication boundaries;
  private final Communicator remeshComm;
  private final RefinementTagging tagging;
  private final BlockMigration migration;
  /** Null when no package declares a swarm. */
  private final SwarmMigration swarmMigration;
  private final List<String> warnings = new ArrayList<>();
  private long created;
  private long destroyed;
  private int remeshes;
  private int startupRemeshes;
  private long remeshNanos;
  private boolean modified;
  private boolean inLoop;
  private final long[] requestCounts = new long[2];

  private AdaptiveRefinement(Mesh mesh, BoundaryCommunication boundaries,
      RefinementCriteria.Read criteria, int derefineCount) {
    this.mesh = mesh;
    this.boundaries = boundaries;
    this.remeshComm = mesh.communicator().duplicate();
    this.tagging = new RefinementTagging(mesh, criteria.criteria(), derefineCount);
    this.warnings.addAll(criteria.warnings());
    BlockRecords records = BlockRecords.forMesh(mesh);
    this.migration = new BlockMigration(remeshComm, boundaries.kernels(), records, mesh.ndim(),
        mesh.nghost());
    this.swarmMigration = mesh.swarms().layouts().isEmpty() ? null
        : new SwarmMigration(remeshComm, mesh);
  }


  /**
   * The adaptive refinement of {@code mesh} (adaptive, fields initialised), attached to it ({@link
   * Mesh#refinement()}); collective (it duplicates the communicator). Remeshes set up {@code
   * boundaries} again and fill ghosts through it.
   *
   * @throws org.metope.mesh.input.InputError for a bad {@code derefine_count} or criterion
   */
  public static AdaptiveRefinement fromInput(ParameterInput pin, Mesh mesh,
      BoundaryCommunication boundaries) {
    int derefineCount = pin.getOrAddInteger("parthenon/mesh", "derefine_count", 10);
    if (derefineCount < 1) {
      throw pin.error("parthenon/mesh", "derefine_count", "an integer >= 1");
    }
    AdaptiveRefinement amr = new AdaptiveRefinement(mesh, boundaries,
        RefinementCriteria.fromInput(pin, mesh), derefineCount);
    mesh.setRefinement(amr);
    return amr;
  }

  /** Tags the blocks of {@code md}, a partition of {@code base} (Parthenon's {@code Tag} task). */
  @Override
  public TaskStatus tag(MeshData md) {
    tagging.tag(md);
    return TaskStatus.COMPLETE;
  }

  @Override
  public Task tagTask(MeshData md, KernelBackend kernels) {
    if (!kernels.resident()) {
      return () -> tag(md);
    }
    RefinementTagging.OnDevice device = tagging.onDevice(md);
    if (device == null) {
      return () -> {
        kernels.acquireHost(md.data(), false);
        try {
          return tag(md);
        } finally {
          kernels.releaseHost(md.data());
        }
      };
    }
    return () -> {
      for (TagLaunch launch : device.launches()) {
        kernels.measure(launch, md.data());
      }
      tagging.tag(device);
      return TaskStatus.COMPLETE;
    };
  }

  /**
   * One pass of start-up refinement, after the initial state is set and ghosts filled: tags every
   * block and remeshes if the tree changed.
   *
   * @param initialBlocks the number of blocks before start-up refinement began
   * @param beforeReplace as for {@link #loadBalancingAndAdaptiveMeshRefinement(Runnable)}
   * @return whether the number of blocks changed, so that the initial state must be made again
   */
  @Override
  public boolean initialRefinementStep(int initialBlocks, Runnable beforeReplace) {
    for (MeshData md : mesh.meshData("base")) {
      tagging.tag(md);
    }
    int before = mesh.totalBlocks();
    loadBalancingAndAdaptiveMeshRefinement(beforeReplace);
    int after = mesh.totalBlocks();
    if (after < before) {
      warnings.add("the number of MeshBlocks decreased during AMR grid initialization (" + before
          + " to " + after + "); possibly the refinement criteria have a problem");
    }
    if (after > 2 * initialBlocks && after != before) {
      warnings.add("the number of MeshBlocks increased more than twice during initialization ("
          + initialBlocks + " to " + after + "); more computing power than you expected may be"
          + " required");
    }
    return after != before;
  }

  /** Marks the start of the time loop: later remeshes count as the loop's. */
  @Override
  public void startLoop() {
    inLoop = true;
  }

  /**
   * {@link #loadBalancingAndAdaptiveMeshRefinement(Runnable)} for a caller that keeps nothing
   * built on the current partitions.
   */
  public boolean loadBalancingAndAdaptiveMeshRefinement() {
    return loadBalancingAndAdaptiveMeshRefinement(() -> {});
  }

  /**
   * Gathers every block's decision, updates the forest and remeshes if it changed; collective.
   *
   * @param beforeReplace run once the old blocks' data are packed and before the blocks and
   *     storage are replaced: the caller drops whatever it built on the old partitions (task
   *     lists), so that the old storage can be freed before the new one is allocated
   * @return whether the mesh changed
   * @throws DriverError when the new mesh has fewer blocks than there are ranks
   */
  @Override
  public boolean loadBalancingAndAdaptiveMeshRefinement(Runnable beforeReplace) {
    return loadBalancingAndAdaptiveMeshRefinement(() -> { }, beforeReplace);
  }

  /**
   * {@link #loadBalancingAndAdaptiveMeshRefinement(Runnable)} with {@code beforeRead} run once the
   * forest changed, before the old blocks' fields are read.
   */
  @Override
  public boolean loadBalancingAndAdaptiveMeshRefinement(Runnable beforeRead,
      Runnable beforeReplace) {
    localVotes(requestCounts, 0);
    mesh.communicator().allreduce(requestCounts, ReduceOp.SUM);
    return loadBalancingAndAdaptiveMeshRefinement(requestCounts[0], requestCounts[1], beforeRead,
        beforeReplace);
  }

  @Override
  public void localVotes(long[] votes, int at) {
    votes[at] = tagging.count(AmrTag.REFINE_VALUE);
    int rank = mesh.myRank();
    votes[at + 1] = tagging.derefineVotesThatMayMerge(rank > 0,
        rank < mesh.nranks() - 1);
  }

  @Override
  public boolean loadBalancingAndAdaptiveMeshRefinement(long refineVotes, long derefineVotes,
      Runnable beforeRead, Runnable beforeReplace) {
    long start = System.nanoTime();
    // Parthenon counts the requests first: without a refinement or a whole sibling group asking
    // to merge, nothing can change, and the cycle allocates nothing.
    if (refineVotes == 0 && derefineVotes < 1L << mesh.ndim()) {
      modified = false;
      return false;
    }
    TreeUpdate.Result result = TreeUpdate.applyRequests(mesh.forest(), mesh.locations(),
        gatherRequests(), mesh.ndim());
    created += result.created();
    destroyed += result.destroyed();
    modified = result.changed();
    if (modified) {
      beforeRead.run();
      redistributeAndRefine(beforeReplace);
      if (inLoop) {
        remeshes++;
        remeshNanos += System.nanoTime() - start;
      } else {
        startupRemeshes++;
      }
    }
    return modified;
  }

  /**
   * The requests of every block that asks for a change, on every rank, gids ascending ({@link
   * TreeUpdate#requests}). Each rank sends only its tagged blocks, so the allgather carries those
   * rather than one int per block of the whole mesh, and the tree update reads them alone
   * (Parthenon's {@code UpdateMeshBlockTree} gathers the lists of blocks to refine and derefine
   * the same way). A rank's blocks are its contiguous gid range, in local order, and ranks come
   * in order, so the gathered gids ascend.
   */
  private int[] gatherRequests() {
    int first = mesh.distribution().firstGid(mesh.myRank());
    return mesh.communicator().allgather(TreeUpdate.requests(tagging.flags(), first));
  }

  private void redistributeAndRefine(Runnable beforeReplace) {
    List<LogicalLocation> oldLocations = mesh.locations();
    BlockDistribution oldDistribution = mesh.distribution();
    double[] oldCosts = new double[oldLocations.size()];
    for (int gid = 0; gid < oldCosts.length; gid++) {
      oldCosts[gid] = mesh.cost(gid);
    }
    List<LogicalLocation> newLocations = mesh.forest().resolveGids();
    LeafChanges changes = mesh.forest().lastChanges();
    RemeshPlan plan = changes != null
        ? new RemeshPlan(oldLocations, oldDistribution, oldCosts, newLocations, changes,
            mesh.nranks())
        : new RemeshPlan(oldLocations, oldDistribution, oldCosts, newLocations, mesh.ndim(),
            mesh.nranks());
    if (newLocations.size() < mesh.nranks()) {
      // Only merged static refinement can get here: root blocks never merge.
      throw new DriverError("too few mesh blocks after a remesh: the mesh has "
          + newLocations.size() + " blocks for " + mesh.nranks() + " ranks; every rank needs at"
          + " least one");
    }
    migration.pack(plan, mesh.fields(), tagging.derefineCounts());
    if (swarmMigration != null) {
      swarmMigration.pack(plan, mesh.swarms());
    }
    beforeReplace.run();
    boundaries.release();
    mesh.replaceBlocks(newLocations, plan.newCosts(), plan.newDistribution());
    tagging.reset(migration.deliver(plan, mesh.fields()));
    if (swarmMigration != null) {
      swarmMigration.deliver(plan, mesh.swarms());
    }
    refineSharedElements(plan);
    boundaries.setup(mesh);
    for (MeshData md : mesh.meshData("base")) {
      mesh.packages().preCommFillDerived(md);
    }
    boundaries.fillGhosts(mesh, "base");
    for (MeshData md : mesh.meshData("base")) {
      mesh.packages().fillDerived(md);
    }
  }

  /**
   * Where new fine blocks meet blocks already at their level, gives them those older blocks'
   * values on shared faces, edges and corners and fills their insides again from them, so that
   * a face field prolongated with Toth and Roe's operator keeps its divergence there too
   * (Parthenon's {@code RedistributeAndRefineMeshBlocks}: an exchange with newly refined blocks
   * ranked below the others of their level, then {@code ProlongateInternal}). Only when some
   * refined field is a face, edge or node field.
   */
  private void refineSharedElements(RemeshPlan plan) {
    if (!movesElementFields()) {
      return;
    }
    Set<LogicalLocation> refined = new HashSet<>();
    LeafChanges changes = plan.changes();
    for (int c = 0; c < changes.count(); c++) {
      for (int s = 0; !changes.merged(c) && s < changes.newSpan(c); s++) {
        refined.add(plan.newLocations().get(changes.newGid(c) + s));
      }
    }
    if (refined.isEmpty()) {
      return;
    }
    boundaries.setup(mesh, refined);
    boundaries.fillGhosts(mesh, "base");
    migration.refillInsides(plan, mesh.fields());
    boundaries.release();
  }

  private boolean movesElementFields() {
    for (FieldInfo f : mesh.resolvedPackages().fields()) {
      if (f.metadata().isRefined() && !f.metadata().isSet(MetadataFlag.CELL)
          && f.metadata().isMeshTied()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Continues the counts of blocks created and removed from a restart file's (Parthenon's mesh
   * takes {@code nbnew} and {@code nbdel} from it), so that outputs and the run report count
   * from the start of the first run.
   */
  public void restoreBlockCounts(long created, long destroyed) {
    this.created = created;
    this.destroyed = destroyed;
  }

  /**
   * Takes every block's derefinement counter from a restart file ({@code counts} by gid), so that a
   * restarted run derefines when the run it continues would have (Parthenon restores them too).
   */
  public void restoreDerefinementCounts(int[] counts) {
    if (counts.length != mesh.totalBlocks()) {
      throw new IllegalArgumentException("one counter per block: counts=" + counts.length
          + " blocks=" + mesh.totalBlocks());
    }
    int first = mesh.distribution().firstGid(mesh.myRank());
    tagging.reset(java.util.Arrays.copyOfRange(counts, first, first + mesh.blocks().size()));
  }

  /** Whether the last call to {@link #loadBalancingAndAdaptiveMeshRefinement} changed the mesh. */
  @Override
  public boolean modified() {
    return modified;
  }

  @Override
  public int derefineCount(int lid) {
    return tagging.derefineCount(lid);
  }

  /** The tagging state: each block's decision and derefinement counter. */
  public RefinementTagging tagging() {
    return tagging;
  }

  /** Warnings for the user gathered so far (criteria settings, start-up growth). */
  @Override
  public List<String> warnings() {
    return List.copyOf(warnings);
  }

  /** What refinement has done so far. */
  @Override
  public Statistics statistics() {
    return new Statistics(created, destroyed, remeshes, startupRemeshes, remeshNanos * 1e-9);
  }
}
