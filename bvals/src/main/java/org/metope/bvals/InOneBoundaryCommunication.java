package org.metope.bvals;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.metope.bvals.channel.BoundaryType;
import org.metope.bvals.channel.BufferArena;
import org.metope.bvals.channel.BufferPools;
import org.metope.bvals.channel.ChannelRegistry;
import org.metope.bvals.channel.FieldCommunicators;
import org.metope.bvals.channel.PostingOrder;
import org.metope.bvals.channel.TagMap;
import org.metope.bvals.conditions.BoundaryConditions;
import org.metope.comm.Communicator;
import org.metope.kernels.KernelBackend;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.NeighborBlock;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.SetupError;
import org.metope.mesh.field.SparseConfig;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.update.SparseDeallocation;
import org.metope.tasking.IterativeTasks;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskStatus;
import org.metope.tasking.TaskThreadPool;

/**
 * Boundary communication "in one" for one rank: owns the buffer arena and pools, the channel maps
 * (boundary values and flux corrections), the tags and per-field communicators, and the plans
 * of every partition ({@link BoundaryCaches}); {@link BoundaryExchange} runs the per-step tasks
 * over them.
 *
 * <p>{@link #setup} is the only place that creates channels (Parthenon's {@code
 * BuildBoundaryBuffers} over every partition plus {@code SetupMPIComms} and the tag map); it runs
 * at start and after every remesh. Plans are built on first use and rebuilt only when the storage
 * allocation or the arena layout they were built against changed; builds and reuses are counted.
 */
public final class InOneBoundaryCommunication implements BoundaryCommunication {
  /** Blocks ranked below the others of their level for shared values, during a remesh. */
  private Set<LogicalLocation> newlyRefined = Set.of();
  private final KernelBackend backend;
  private final PostingOrder postingOrder;
  private final SparseConfig sparse;
  private final boolean coalesce;
  /** The buffers of the current mesh: a new arena at every {@link #setup}. */
  private BufferArena arena = new BufferArena();
  private BufferPools pools = new BufferPools(arena);
  private final BoundaryCaches caches = new BoundaryCaches(this);
  private final BoundaryExchange exchange = new BoundaryExchange(this);
  private final BoundaryConditions boundaryConditions;
  /** Whether this instance exchanges the STATIC fields only (the one {@link #statics} holds). */
  private final boolean staticOnly;
  /**
   * The exchange of ghost-filled STATIC fields, run by {@link #fillGhosts} only (set-up and
   * remesh), never by a stage's tasks; null while the mesh has none.
   */
  private InOneBoundaryCommunication statics;
  private final AtomicLong staticGhostFills = new AtomicLong();
  /** The threads of {@link #fillGhosts}; null: the calling thread. */
  private TaskThreadPool ghostFillThreads;
  private final SparseDeallocation sparseDeallocation;
  private ChannelRegistry registry;
  /** The registry's boundary-value channels in cache-build order. */
  private ValueChannels valueChannels;
  private Mesh mesh;
  /** The deck this was made from, for errors found at set-up; null when built directly. */
  private ParameterInput deck;
  private FieldCommunicators fieldCommunicators;
  private List<FieldInfo> ghostFields = List.of();
  private List<FieldInfo> fluxFields = List.of();
  private TagMap tags;

  /**
   * Boundary communication with coalesced messages between ranks (the default).
   *
   * @param backend the kernel backend every launch goes through
   * @param postingOrder the order in which sends and receives are posted
   * @param sparse the {@code <parthenon/sparse>} settings
   */
  public InOneBoundaryCommunication(KernelBackend backend, PostingOrder postingOrder,
      SparseConfig sparse) {
    this(backend, postingOrder, sparse, true);
  }

  /**
   * @param backend the kernel backend every launch goes through
   * @param postingOrder the order in which sends and receives are posted
   * @param sparse the {@code <parthenon/sparse>} settings
   * @param coalesce whether the cross-rank channels of one partition to one rank travel as one
   *     {@link org.metope.bvals.channel.CoalescedMessage} per exchange (true) or each as its own
   *     message
   */
  public InOneBoundaryCommunication(KernelBackend backend, PostingOrder postingOrder,
      SparseConfig sparse, boolean coalesce) {
    this(backend, postingOrder, sparse, coalesce, false);
  }

  private InOneBoundaryCommunication(KernelBackend backend, PostingOrder postingOrder,
      SparseConfig sparse, boolean coalesce, boolean staticOnly) {
    this.staticOnly = staticOnly;
    this.boundaryConditions = new BoundaryConditions(staticOnly);
    this.backend = backend;
    this.postingOrder = postingOrder;
    this.sparse = sparse;
    this.coalesce = coalesce;
    this.sparseDeallocation = new SparseDeallocation(sparse);
  }

  /**
   * Boundary communication configured by the deck: {@code <parthenon/comm> post_order = cache |
   * random} with {@code seed} (the order sends and receives are posted in), {@code coalesce =
   * true | false} (one message per partition, peer rank and kind, or one per channel), and {@code
   * <parthenon/sparse>}.
   */
  public static InOneBoundaryCommunication fromInput(ParameterInput pin, KernelBackend backend) {
    String order = pin.getOrAddString("parthenon/comm", "post_order", "cache",
        List.of("cache", "random"));
    long seed = pin.getOrAddInteger("parthenon/comm", "seed", 0);
    boolean coalesce = pin.getOrAddBoolean("parthenon/comm", "coalesce", true);
    InOneBoundaryCommunication made = new InOneBoundaryCommunication(backend,
        PostingOrder.parse(order, seed), SparseConfig.fromInput(pin), coalesce);
    made.deck = pin;
    return made;
  }

  /**
   * Boundary communication configured entirely by the deck: the kernel backend from {@code
   * <parthenon/kernels>} ({@link KernelBackendChoice}), then {@link #fromInput(ParameterInput,
   * KernelBackend)}.
   */
  public static InOneBoundaryCommunication fromInput(ParameterInput pin) {
    return fromInput(pin, KernelBackendChoice.fromInput(pin));
  }

  @Override
  public void release() {
    caches.release();
    if (registry != null) {
      // Waits for the last cross-rank sends before the channels' buffers go: once per remesh,
      // here, so that the next setup finds nothing left in flight (ChannelRegistry.retire).
      registry.awaitSends();
    }
    if (statics != null) {
      statics.release();
    }
  }

  @Override
  public void setup(Mesh target) {
    setup(target, Set.of());
  }

  @Override
  public void setup(Mesh target, Set<LogicalLocation> newlyRefined) {
    this.newlyRefined = Set.copyOf(newlyRefined);
    // release() waited for the sends; the old channels go with their arena and pools.
    int expectedValues = registry == null ? 0 : registry.boundaryValues().size();
    int expectedFluxes = registry == null ? 0 : registry.fluxCorrections().size();
    if (registry != null) {
      registry.retire();
    }
    caches.clear();
    // A new arena per mesh: sized for this mesh's channels, and its on-demand region last.
    arena = new BufferArena();
    pools = new BufferPools(arena);
    this.mesh = target;
    boundaryConditions.prepare(target.resolvedPackages());
    boundaryConditions.requireRegistered(target.config(), deck);
    Communicator world = target.communicator();
    this.registry = new ChannelRegistry(world.rank(), arena, expectedValues, expectedFluxes);
    ghostFields = fieldsWith(MetadataFlag.FILL_GHOST);
    fluxFields = target.isMultilevel() && !staticOnly ? fieldsWith(MetadataFlag.WITH_FLUXES)
        : List.of();
    if (fieldCommunicators == null || fieldCommunicators.world() != world) {
      fieldCommunicators =
          FieldCommunicators.create(world, ids(ghostFields), ids(fluxFields));
    }
    // Coalesced messages are tagged by sending partition; per-channel tags only without them.
    tags = coalesce ? null : buildTagMap(target);
    valueChannels = new ChannelBuilder(this).build(target);
    arena.openOnDemandRegion();
    arena.freeze();
    if (!staticOnly) {
      setupStatics(target);
    }
  }

  /**
   * Sets up the exchange of the STATIC ghost-filled fields: a second instance over the same mesh,
   * with its own channels, messages and communicators, so that the stages' caches never contain
   * them. Every rank resolves the same packages, so every rank makes the same decision here.
   */
  private void setupStatics(Mesh target) {
    boolean any = false;
    for (FieldInfo f : target.resolvedPackages().fields()) {
      any |= f.metadata().allSet(MetadataFlag.STATIC, MetadataFlag.FILL_GHOST)
          && f.metadata().isMeshTied();
    }
    if (!any) {
      statics = null;
      return;
    }
    if (statics == null) {
      statics = new InOneBoundaryCommunication(backend, postingOrder, sparse, coalesce, true);
      statics.deck = deck;
    }
    statics.boundaryConditions.use(boundaryConditions.functions());
    statics.setup(target);
  }

  /** Cell fields with {@code flag}: the STATIC ones if {@link #staticOnly}, else the others. */
  private List<FieldInfo> fieldsWith(MetadataFlag flag) {
    List<FieldInfo> out = new ArrayList<>();
    for (FieldInfo f : mesh.resolvedPackages().fields()) {
      if (f.metadata().isSet(flag) && f.metadata().isMeshTied()
          && f.metadata().isSet(MetadataFlag.STATIC) == staticOnly) {
        requireExchangeable(f);
        out.add(f);
      }
    }
    return List.copyOf(out);
  }

  /**
   * Face, edge and node fields are exchanged when dense, across levels on the JVM backend only;
   * elsewhere say so instead of filling their ghosts wrongly. (Moving them in a remesh is
   * adaptive refinement's to refuse.)
   */
  private void requireExchangeable(FieldInfo f) {
    if (f.metadata().isSet(MetadataFlag.CELL)) {
      return;
    }
    String where = f.isSparse() ? "a SPARSE field"
        : mesh.isMultilevel() && !"jvm".equals(backend.name())
            ? "a mesh with refinement on the " + backend.name() + " backend" : null;
    if (where != null) {
      throw new SetupError("field=" + f.name() + " topology=" + f.metadata().topology()
          + " is FILL_GHOST, but ghost exchange of face, edge and node fields does not cover "
          + where + " yet (only dense fields, and across levels on the jvm backend)");
    }
  }

  private static int[] ids(List<FieldInfo> fields) {
    int[] out = new int[fields.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = fields.get(i).id();
    }
    return out;
  }

  private static TagMap buildTagMap(Mesh mesh) {
    TagMap.Builder b = TagMap.builder(mesh.myRank());
    for (MeshBlock block : mesh.blocks()) {
      for (NeighborBlock nb : block.neighbors()) {
        b.add(block.gid(), nb.element().index(), nb.rank(), nb.gid(),
            nb.element().reverse().index());
      }
    }
    return b.build();
  }

  /** The blocks ranked below the others of their level for shared values (usually none). */
  Set<LogicalLocation> newlyRefined() {
    return newlyRefined;
  }

  /** The up-to-date plan of {@code md} for {@code type} and direction ({@link BoundaryCaches}). */
  BvarsSubCache subCache(MeshData md, BoundaryType type, boolean sender) {
    return caches.subCache(md, type, sender);
  }

  /** Every partition's plans. */
  BoundaryCaches caches() {
    return caches;
  }

  @Override
  public TaskId addBoundaryExchange(TaskId dependency, TaskList tl, MeshData md) {
    return exchange.addBoundaryExchangeTasks(dependency, tl, md);
  }

  @Override
  public TaskId addBoundaryExchange(TaskId dependency, IterativeTasks group, MeshData md,
      PhysicalBoundaries physical) {
    return exchange.addRepeatedBoundaryExchangeTasks(dependency, group, md,
        physical == PhysicalBoundaries.APPLY);
  }

  @Override
  public TaskId addBoundaryExchangeWithoutProlongation(TaskId dependency, TaskList tl,
      MeshData md) {
    return exchange.addExchangeWithoutProlongationTasks(dependency, tl, md);
  }

  @Override
  public TaskId addFluxCorrection(TaskId dependency, TaskList tl, MeshData md) {
    return exchange.addFluxCorrectionTasks(dependency, tl, md);
  }

  @Override
  public TaskStatus startReceiveBoundaries(MeshData md) {
    return exchange.startReceiveBoundBufs(md);
  }

  @Override
  public TaskStatus startReceiveFluxCorrections(MeshData md) {
    return exchange.startReceiveFluxCorrections(md);
  }

  @Override
  public TaskStatus applyBoundaryConditions(MeshData md) {
    return boundaryConditions.apply(md, false, backend);
  }

  /**
   * Fills the ghosts of every ghost-filled field of {@code container}, the STATIC ones included:
   * at set-up and after a remesh, the only times STATIC ghosts are exchanged.
   */
  @Override
  public void fillGhosts(Mesh target, String container) {
    exchange.fillGhosts(target, container, ghostFillThreads);
    if (statics != null) {
      statics.exchange.fillGhosts(target, container, ghostFillThreads);
      staticGhostFills.incrementAndGet();
    }
    if (backend.resident()) {
      // Set-up and remesh continue on the host (fill-derived callbacks, tags): the whole arena
      // comes back, as a remesh's must.
      double[] done = null;
      for (MeshData md : target.meshData(container)) {
        if (md.data() != done) {
          done = md.data();
          backend.acquireHost(done, true);
          backend.releaseHost(done);
        }
      }
    }
  }

  @Override
  public void useThreads(TaskThreadPool pool) {
    ghostFillThreads = pool;
  }

  /** How often the STATIC fields' ghosts have been exchanged: once per {@link #fillGhosts}. */
  public long staticGhostFills() {
    return staticGhostFills.get();
  }

  /**
   * Counts cycles in which each sparse field of the partition stayed below the deallocation
   * threshold and frees those past {@code dealloc_count}; run once per cycle after the last stage.
   */
  public TaskStatus sparseDealloc(MeshData md) {
    sparseDeallocation.check(md);
    return TaskStatus.COMPLETE;
  }

  /**
   * Physical boundary conditions; give them the application's {@link
   * org.metope.bvals.conditions.BoundaryFunctions} ({@code
   * boundaryConditions().use(registry)}) before {@link #setup}.
   */
  public BoundaryConditions boundaryConditions() {
    return boundaryConditions;
  }

  /** The per-step tasks, for drivers that compose them one by one. */
  public BoundaryExchange exchange() {
    return exchange;
  }

  /** Text dump of every channel (key, state, sequences, size, peer, tag), for stall reports. */
  @Override
  public String describeChannels() {
    String own = registry == null ? "(no channels)" : registry.dump();
    return statics == null ? own : own + "\nstatic fields:\n" + statics.describeChannels();
  }

  /**
   * Length of the boundary-buffer arena's array (every buffer and coalesced message of this rank,
   * spare room included), the memory boundary communication holds for buffers; the STATIC
   * fields' exchange has its own.
   */
  public int bufferArenaLength() {
    return arena.array().length;
  }

  /** Of {@link #cacheBuilds()}, the plans carried over from another container's partition. */
  public long plansCarriedOver() {
    return caches.plansCarriedOver();
  }

  /**
   * Boundaries whose rows a plan took from the plan before a remesh ({@link PreviousPlans})
   * instead of working them out.
   */
  public long boundariesRelocated() {
    return caches.boundariesRelocated();
  }

  /** Number of sub-caches built so far (setup, remesh and allocation changes). */
  public long cacheBuilds() {
    return caches.builds();
  }

  /** Number of times an existing sub-cache was reused. */
  public long cacheReuses() {
    return caches.reuses();
  }

  KernelBackend backend() {
    return backend;
  }

  @Override
  public KernelBackend kernels() {
    return backend;
  }

  PostingOrder postingOrder() {
    return postingOrder;
  }

  SparseConfig sparse() {
    return sparse;
  }

  /** Whether cross-rank channels travel in coalesced messages. */
  public boolean coalesce() {
    return coalesce;
  }

  BufferArena arena() {
    return arena;
  }

  BufferPools pools() {
    return pools;
  }

  ChannelRegistry registry() {
    return registry;
  }

  ValueChannels valueChannels() {
    return valueChannels;
  }

  FieldCommunicators fieldCommunicators() {
    return fieldCommunicators;
  }

  TagMap tags() {
    if (tags == null) {
      throw new IllegalStateException("no per-channel tags with coalesced messages: coalesce="
          + coalesce);
    }
    return tags;
  }

  Mesh mesh() {
    return mesh;
  }

  int myRank() {
    return mesh.myRank();
  }

  List<FieldInfo> ghostFields() {
    return ghostFields;
  }

  List<FieldInfo> fluxFields() {
    return fluxFields;
  }
}
