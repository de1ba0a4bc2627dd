package org.metope.mesh.field;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.metope.mesh.MeshBlock;
import org.metope.tasking.TaskThreadPool;

/**
 * Every field value of the blocks of one rank, in one flat {@code double[]} arena laid out by an
 * {@link ArenaLayout}, so one kernel launch can cover every field of a partition.
 *
 * <p>Dense fields start at zero. A sparse field has no storage on a block until {@link
 * #allocateSparse}; its data then starts at the field's {@link Metadata#defaultValue() default
 * value} and its fluxes and coarse buffer at zero. Allocation may grow the arena, which replaces
 * the array returned by {@link #data()} (offsets stay valid); read {@code data()} at each kernel
 * launch and never keep it across an allocation change. Each change increments {@link
 * #allocationVersion()}, so plans built from offsets (boundary caches, {@link MeshData} tables)
 * know to rebuild.
 *
 * <p>A growth copies the array, and writes to the old one during the copy would be lost, so it
 * runs through {@link TaskThreadPool#runExclusive}: inside a task on a pool of several threads,
 * it waits until no other task of the rank runs (a sparse field allocated on receive while
 * other partitions compute), and anywhere else it happens at once. Allocations that fit in the
 * arena's spare room move nothing and need no such wait.
 */
public final class FieldStorage {
  /**
   * An arena too short for a remesh's blocks is collected before its successor is allocated only
   * from this size (64 MiB) up: below it, the memory a collector-grown heap could keep is small,
   * and a full collection would cost more than the run's young collections of a whole remesh.
   */
  static final long COLLECT_BEFORE_GROWTH_BYTES = 64L << 20;
  /** What {@link #zero} copies over a recycled arena, a chunk at a time (8 KiB: stays in L1). */
  private static final double[] ZEROS = new double[1024];

  private final ResolvedState state;
  private final BlockShape cells;
  private final BlockShape coarse;
  private final BlockShape fine;
  private final List<String> containers;
  private final ArenaLayout layout;
  private volatile double[] data;
  private int allocationVersion;
  /**
   * Allocation changes per block, and arena growths: a partition's plans depend only on its own
   * blocks' allocations and on the array ({@link #allocationVersion(int, int)}).
   */
  private final int[] blockAllocationVersions;
  private int arenaGrowths;
  private final List<MeshBlock> blocks;
  /** Cycles each sparse field has stayed negligible on each block: [field * numBlocks + block]. */
  private final int[] deallocationCounts;

  /**
   * Storage for {@code numBlocks} blocks of {@code cells} extents (ghosts included) and the named
   * stage containers (the first is the base container, e.g. {@code base}); {@code coarse} gives
   * the coarse buffers' extents on a multilevel mesh and is null otherwise. Without {@code FINE}
   * fields.
   */
  public FieldStorage(ResolvedState state, BlockShape cells, BlockShape coarse, int numBlocks,
      List<String> containerNames) {
    this(state, cells, coarse, null, numBlocks, containerNames, null, null);
  }

  /** The same with {@code fine}, the extents of {@code FINE} fields (null when there are none). */
  public FieldStorage(ResolvedState state, BlockShape cells, BlockShape coarse, BlockShape fine,
      int numBlocks, List<String> containerNames) {
    this(state, cells, coarse, fine, numBlocks, containerNames, null, null);
  }

  /**
   * Storage for the given mesh blocks (block {@code i} of the storage is {@code blocks.get(i)}),
   * so that partitions can hand package code each block's geometry.
   */
  public FieldStorage(ResolvedState state, BlockShape cells, BlockShape coarse, BlockShape fine,
      List<MeshBlock> blocks, List<String> containerNames) {
    this(state, cells, coarse, fine, blocks.size(), containerNames, List.copyOf(blocks), null);
  }

  /**
   * Storage for the given mesh blocks whose arena reuses the array in {@code recycled}, the arena
   * of storage that is no longer used, when it is long enough (zeroed where the layout uses it), so
   * that a remesh need not map fresh memory; otherwise a new arena with an eighth to spare, so
   * that a mesh that keeps growing reuses it next time. The reference is taken out of {@code
   * recycled} first, and, for an array of {@link #COLLECT_BEFORE_GROWTH_BYTES} or more, the heap
   * is collected before a new arena is allocated, so that the memory of an array too short goes to
   * the new one.
   */
  public FieldStorage(ResolvedState state, BlockShape cells, BlockShape coarse, BlockShape fine,
      List<MeshBlock> blocks, List<String> containerNames, AtomicReference<double[]> recycled) {
    this(state, cells, coarse, fine, blocks.size(), containerNames, List.copyOf(blocks),
        recycled);
  }

  private FieldStorage(ResolvedState state, BlockShape cells, BlockShape coarse, BlockShape fine,
      int numBlocks, List<String> containerNames, List<MeshBlock> blocks,
      AtomicReference<double[]> recycled) {
    if (containerNames.isEmpty() || !distinct(containerNames)) {
      throw new IllegalArgumentException("containers=" + containerNames
          + " must be non-empty and distinct");
    }
    this.state = state;
    this.cells = cells;
    this.coarse = coarse;
    this.fine = fine;
    this.containers = List.copyOf(containerNames);
    this.layout = new ArenaLayout(state, cells, coarse, fine, numBlocks, containers.size());
    int needed = layout.end();
    double[] old = recycled == null ? null : recycled.getAndSet(null);
    if (old == null) {
      this.data = allocate(needed, numBlocks);
    } else if (old.length >= needed) {
      zero(old, needed);
      this.data = old;
    } else {
      boolean large = collectsBeforeGrowth(old.length);
      old = null; // unreachable from here on: the collector may reclaim it for the new arena
      // Left to itself, G1 grows the heap for a large new array rather than collect, so the
      // process would keep the dead arena's pages as well as the new one's: on the shipped
      // burgers deck that was 15.3 GB resident against 6.2 GB of fields. Collecting first lets
      // the new arena take the old one's memory. A small arena (Parthenon's 2D adaptive deck's
      // is under 2 MB) is left to the young and old collections the run makes anyway.
      if (large) {
        System.gc();
      }
      this.data = allocate((int) Math.min(needed + needed / 8L, ArenaLayout.MAX_DOUBLES),
          numBlocks);
    }
    this.blocks = blocks;
    this.deallocationCounts = new int[state.numFields() * numBlocks];
    this.blockAllocationVersions = new int[numBlocks];
  }

  /**
   * Zeroes {@code data[0, length)} by copying {@link #ZEROS} over it: an array copy runs the JVM's
   * copy routine from the first call, whereas a fill loop ({@code Arrays.fill}) runs as
   * interpreted or profiled code until C2 compiles it, which on one CPU it seldom does for a
   * remesh's few calls (a recycled arena of 2 MB took 0.3-0.4 ms per remesh).
   */
  static void zero(double[] data, int length) {
    for (int at = 0; at < length; at += ZEROS.length) {
      System.arraycopy(ZEROS, 0, data, at, Math.min(ZEROS.length, length - at));
    }
  }

  /** Whether an arena of {@code length} values that is too short is collected before growing. */
  static boolean collectsBeforeGrowth(int length) {
    return (long) length * Double.BYTES >= COLLECT_BEFORE_GROWTH_BYTES;
  }

  /**
   * The number of values the arena of storage for {@code numBlocks} blocks would need for its
   * dense fields (sparse ones add to it when allocated), computed without allocating, so that an
   * impossible mesh can be refused first; {@code Long.MAX_VALUE} when one field's block alone is
   * too large for the arena.
   */
  public static long denseValues(ResolvedState state, BlockShape cells, BlockShape coarse,
      BlockShape fine, int numBlocks, int numContainers) {
    InstanceTable table;
    try {
      table = new InstanceTable(state, cells, coarse, fine, numContainers, cells.dimensions());
    } catch (IllegalArgumentException tooLarge) {
      return Long.MAX_VALUE;
    }
    long perBlock = 0;
    for (int inst = 0; inst < table.count; inst++) {
      if (!state.field(table.field[inst]).isSparse()) {
        perBlock += table.blockLength[inst];
      }
    }
    return perBlock * numBlocks;
  }

  /** Whether this storage was built from mesh blocks (tests build it from a count). */
  public boolean hasBlocks() {
    return blocks != null;
  }

  /**
   * A new arena of {@code length} doubles, or, when the heap cannot hold it, a {@link
   * FieldMemoryError} naming the block count and the memory needed.
   */
  private static double[] allocate(int length, int numBlocks) {
    try {
      return new double[length];
    } catch (OutOfMemoryError e) {
      throw new FieldMemoryError(numBlocks, length, Runtime.getRuntime().maxMemory());
    }
  }

  /** The mesh block stored at rank-local index {@code block}; only for storage built from blocks. */
  public MeshBlock block(int block) {
    if (blocks == null) {
      throw new IllegalStateException("storage was built without mesh blocks: block=" + block);
    }
    return blocks.get(block);
  }

  /** The arena. Replaced when an allocation grows it: read it again after allocation changes. */
  public double[] data() {
    return data;
  }

  /** The layout of the arena. */
  public ArenaLayout layout() {
    return layout;
  }

  /** The fields stored. */
  public ResolvedState state() {
    return state;
  }

  /** Block extents with ghosts. */
  public BlockShape cells() {
    return cells;
  }

  /** Coarse buffer extents, or null on a single-level mesh. */
  public BlockShape coarse() {
    return coarse;
  }

  /** Extents of {@code FINE} fields, ghosts included, or null when built without. */
  public BlockShape fine() {
    return fine;
  }

  /** Number of blocks stored. */
  public int numBlocks() {
    return layout.numBlocks();
  }

  /** The stage container names, base first. */
  public List<String> containers() {
    return containers;
  }

  /** The index of a container name. */
  public int containerIndex(String name) {
    int c = containers.indexOf(name);
    if (c < 0) {
      throw new IllegalArgumentException("no container name=" + name + " (containers="
          + containers + ")");
    }
    return c;
  }

  /** Incremented by every allocation change. */
  public synchronized int allocationVersion() {
    return allocationVersion;
  }

  /**
   * The allocation version of blocks {@code first} to {@code first + count - 1}: it grows with
   * every allocation change on one of them and with every growth of the arena (which replaces the
   * array), and stays put when other blocks allocate or free a field in place. A partition's
   * boundary caches and views depend on nothing else, so a sparse field allocated on one block
   * rebuilds only the plans of that block's partition (Parthenon compares allocation status per
   * {@code MeshData} the same way).
   */
  public synchronized long allocationVersion(int first, int count) {
    long sum = arenaGrowths;
    for (int b = first; b < first + count; b++) {
      sum += blockAllocationVersions[b];
    }
    return sum;
  }

  /** Whether {@code field} has storage on {@code block}. */
  public synchronized boolean isAllocated(int field, int block) {
    return layout.isAllocated(field, block);
  }

  /**
   * Allocates sparse {@code field} on {@code block} in every container, with its fluxes and
   * coarse buffer. Returns false when it was already allocated.
   */
  public boolean allocateSparse(int field, int block) {
    while (true) {
      synchronized (this) {
        long end = layout.endAfterAllocating(field);
        if (end <= data.length || end > ArenaLayout.MAX_DOUBLES) {
          return allocateInPlace(field, block);
        }
      }
      // Not while holding this storage's lock: the other tasks may need it to end their pass.
      TaskThreadPool.runExclusive(() -> growFor(field));
    }
  }

  /**
   * Grows the arena so that {@code field} fits on one more block: by half, or only as far as it
   * must where the heap has no room for that, or a {@link FieldMemoryError} where it has no room
   * at all (a sparse or derived field allocated after set-up, which the set-up's budget of the
   * dense fields does not count).
   */
  private synchronized void growFor(int field) {
    long end = layout.endAfterAllocating(field);
    if (end > data.length) {
      long grown = Math.min(Math.max(end, data.length + data.length / 2L),
          ArenaLayout.MAX_DOUBLES);
      try {
        data = Arrays.copyOf(data, (int) grown);
      } catch (OutOfMemoryError noRoomForHalf) {
        try {
          data = Arrays.copyOf(data, (int) end);
        } catch (OutOfMemoryError noRoom) {
          throw new FieldMemoryError(blockAllocationVersions.length, end,
              Runtime.getRuntime().maxMemory());
        }
      }
      arenaGrowths++;
    }
  }

  /** Allocates {@code field} on {@code block} in an arena that has room (or throws: too large). */
  private boolean allocateInPlace(int field, int block) {
    if (!layout.allocate(field, block)) {
      return false;
    }
    double defaultValue = state.field(field).metadata().defaultValue();
    for (int inst : layout.instancesOf(field)) {
      int start = layout.offset(inst, block);
      double fill = layout.instanceKind(inst) == ArenaLayout.DATA ? defaultValue : 0.0;
      Arrays.fill(data, start, start + layout.blockLength(inst), fill);
    }
    allocationVersion++;
    blockAllocationVersions[block]++;
    return true;
  }

  /** Frees sparse {@code field} on {@code block}; returns false when it was not allocated. */
  public synchronized boolean deallocateSparse(int field, int block) {
    if (!layout.deallocate(field, block)) {
      return false;
    }
    allocationVersion++;
    blockAllocationVersions[block]++;
    return true;
  }

  /**
   * How many consecutive cycles sparse {@code field} has stayed below its deallocation threshold
   * on {@code block} (Parthenon's per-variable {@code dealloc_count}); kept with the block's data
   * so that it moves with the block on a remesh.
   */
  public int deallocationCount(int field, int block) {
    return deallocationCounts[field * layout.numBlocks() + block];
  }

  /** Sets {@link #deallocationCount}; blocks are written by one task at a time. */
  public void setDeallocationCount(int field, int block, int count) {
    deallocationCounts[field * layout.numBlocks() + block] = count;
  }

  /**
   * The partitions of {@code container}: consecutive blocks in groups of {@code packSize}, the
   * last possibly smaller; a {@code packSize} below 1 (Parthenon's default -1) puts every block in
   * one partition. Zero blocks give no partitions.
   */
  public List<MeshData> partitions(String container, int packSize) {
    int c = containerIndex(container);
    int n = numBlocks();
    int size = packSize < 1 ? Math.max(n, 1) : packSize;
    List<MeshData> parts = new ArrayList<>();
    for (int first = 0; first < n; first += size) {
      parts.add(new MeshData(this, c, parts.size(), first, Math.min(size, n - first)));
    }
    return parts;
  }

  /**
   * Whether no name of {@code names} repeats: a few names, compared pairwise in plain loops (a
   * stream's set-up, interpreted once per remesh, cost more than the comparison).
   */
  private static boolean distinct(List<String> names) {
    for (int i = 1; i < names.size(); i++) {
      for (int j = 0; j < i; j++) {
        if (names.get(i).equals(names.get(j))) {
          return false;
        }
      }
    }
    return true;
  }
}
