package org.metope.bvals;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.metope.bvals.channel.BoundaryType;
import org.metope.bvals.channel.CommBuffer;
import org.metope.kernels.KernelBackend;
import org.metope.mesh.field.MeshData;

/**
 * The plans of one rank's partitions, a {@link BvarsCache} per partition (Parthenon keeps its
 * {@code BvarsCache_t} in each {@code MeshData}): a plan is built on first use and rebuilt only
 * when an allocation on its blocks, the field arena or the buffer arena's layout changed since;
 * another container's partition over the same blocks takes its plans from the first one's
 * ({@link ContainerPlans}), and the plans after a remesh take the rows of unchanged blocks from
 * the ones before it ({@link PreviousPlans}). Builds, reuses and both kinds of carried-over work
 * are counted.
 */
final class BoundaryCaches {
  private final InOneBoundaryCommunication comm;
  private final BoundaryCacheBuilder builder;
  private final Map<MeshData, BvarsCache> caches = new IdentityHashMap<>();
  /** {@link #planOwner}'s partitions by first block and block count; cleared with caches. */
  private final Map<Long, MeshData> planOwners = new HashMap<>();
  private final AtomicLong builds = new AtomicLong();
  private final AtomicLong reuses = new AtomicLong();
  private final AtomicLong plansCarriedOver = new AtomicLong();
  private final AtomicLong boundariesRelocated = new AtomicLong();
  /** The plans at the last {@link #release}, for the builds after a remesh. */
  private PreviousPlans previousPlans;

  BoundaryCaches(InOneBoundaryCommunication comm) {
    this.comm = comm;
    this.builder = new BoundaryCacheBuilder(comm, this);
  }

  /**
   * Keeps the current ghost-exchange plans as {@link #previousPlans()} and lets the backend
   * forget every plan's tables: before a remesh, while the old mesh's blocks are still in place.
   */
  void release() {
    previousPlans = comm.mesh() == null ? null
        : PreviousPlans.of(comm.mesh(), comm.ghostFields(), caches, comm.arena().layoutVersion());
    for (BvarsCache c : caches.values()) {
      c.releaseAll(comm.backend());
    }
    clear();
  }

  /** Forgets every partition's plans: their channels went with the last set-up. */
  void clear() {
    caches.clear();
    planOwners.clear();
  }

  /**
   * The cache of {@code md}, creating an empty one on first use. Partitions run on several task
   * threads, so the map is guarded; each partition's own cache is then used by one task at a time.
   */
  private BvarsCache cache(MeshData md) {
    synchronized (caches) {
      BvarsCache c = caches.get(md);
      if (c == null) {
        c = new BvarsCache(planOwner(md));
        caches.put(md, c);
      }
      return c;
    }
  }

  /**
   * The first partition seen over the same blocks of the same storage as {@code md} (another
   * stage container's, or {@code md}), found once per partition when its cache is made. Its
   * caches hold the flux-correction plans of every container: fluxes are one instance per field,
   * shared by the containers, so their plans would come out the same row for row, and stages run
   * one after the other, so one plan serves them all. Its ghost-exchange plans are the ones other
   * containers' plans are carried over from ({@link ContainerPlans}).
   */
  private MeshData planOwner(MeshData md) {
    long blocks = ((long) md.blockIndex(0) << 32) | md.numBlocks();
    MeshData owner = planOwners.putIfAbsent(blocks, md);
    return owner == null || owner.storage() != md.storage() ? md : owner;
  }

  /**
   * The up-to-date sub-cache of {@code md} for {@code type} and direction: built on first use and
   * rebuilt when an allocation on one of its blocks, the field arena or the buffer arena's layout
   * changed since. Other partitions' allocations do not matter: a plan's rows and offsets are
   * its own blocks', and sparse buffers' offsets are read at every exchange.
   */
  BvarsSubCache subCache(MeshData md, BoundaryType type, boolean sender) {
    BvarsCache own = cache(md);
    BvarsCache c = type.isFluxCorrection() ? cache(own.owner) : own;
    BvarsSubCache sub = c.get(type, sender);
    if (sub != null && current(sub, md)) {
      reuses.incrementAndGet();
      return sub;
    }
    if (sender) {
      // Outside the rebuild's lock: taking a buffer may lengthen the arena, which waits for the
      // other tasks to end their pass, and one of them may be waiting for that lock.
      builder.prepareSendBuffers(md, type, sub);
    }
    return rebuild(md, c, sub, type, sender);
  }

  /**
   * Builds (again) a sub-cache. Partitions on different task threads build theirs at the same
   * time: a build only reads what they share (the mesh, the channel registry, the buffers'
   * slices, all fixed between remeshes; a sparse send buffer's slice is taken before, by {@link
   * BoundaryCacheBuilder#prepareSendBuffers}), and the backends guard their own tables.
   */
  private BvarsSubCache rebuild(MeshData md, BvarsCache c, BvarsSubCache old,
      BoundaryType type, boolean sender) {
    KernelBackend backend = comm.backend();
    if (old != null) {
      backend.release(old.table);
      backend.release(old.prores);
    }
    BvarsSubCache sub = carriedOver(md, type, sender);
    if (sub == null) {
      sub = builder.build(md, type, sender, old);
    }
    checkLengths(sub);
    double[] buffers = comm.arena().array();
    backend.prepare(sub.table, md.data(), buffers);
    backend.prepare(sub.prores, md.data(), buffers);
    c.put(type, sender, sub);
    builds.incrementAndGet();
    return sub;
  }

  /**
   * {@code md}'s plan carried over from the current one of its {@link #planOwner} in another
   * container, or null when there is none to carry over or it cannot be.
   */
  private BvarsSubCache carriedOver(MeshData md, BoundaryType type, boolean sender) {
    MeshData owner = cache(md).owner;
    if (owner == md || type.isFluxCorrection()) {
      return null;
    }
    BvarsSubCache from = cache(owner).get(type, sender);
    if (from == null || !current(from, owner)) {
      return null;
    }
    BvarsSubCache carried = ContainerPlans.derive(from, owner, md, comm.arena().layoutVersion());
    if (carried != null) {
      plansCarriedOver.incrementAndGet();
    }
    return carried;
  }

  private boolean current(BvarsSubCache sub, MeshData md) {
    return sub.allocationVersion == md.allocationVersion()
        && sub.arenaLayoutVersion == comm.arena().layoutVersion();
  }

  /** Boundaries {@link #checkLengths(BvarsSubCache, int, int)} checks per call. */
  private static final int CHECK_RUN = 64;

  private static void checkLengths(BvarsSubCache sub) {
    for (int b = 0; b < sub.size(); b += CHECK_RUN) {
      checkLengths(sub, b, Math.min(sub.size(), b + CHECK_RUN));
    }
  }

  /**
   * Boundaries {@code from} to {@code to - 1} of {@code sub}. The loop above runs a few times per
   * remesh and stays interpreted on one CPU, as would a loop over every boundary here; a run of
   * boundaries per call makes this method hot enough to be compiled within the first remeshes,
   * and leaves the interpreter one call per run instead of one per boundary.
   */
  private static void checkLengths(BvarsSubCache sub, int from, int to) {
    for (int b = from; b < to; b++) {
      CommBuffer buf = sub.channels.inCacheOrder(b);
      if (buf.length() != sub.table.bufferLength(b)) {
        throw new IllegalStateException("boundary box and channel disagree: key=" + buf.key()
            + " channelLength=" + buf.length() + " boxLength=" + sub.table.bufferLength(b)
            + " sender=" + sub.sender);
      }
    }
  }

  /** The ghost-exchange plans kept by the last {@link #release}, or null. */
  PreviousPlans previousPlans() {
    return previousPlans;
  }

  void countRelocated(int boundaries) {
    boundariesRelocated.addAndGet(boundaries);
  }

  long builds() {
    return builds.get();
  }

  long reuses() {
    return reuses.get();
  }

  long plansCarriedOver() {
    return plansCarriedOver.get();
  }

  long boundariesRelocated() {
    return boundariesRelocated.get();
  }
}
