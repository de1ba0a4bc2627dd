package org.metope.mesh.field;

import java.util.function.Function;
import org.metope.mesh.MeshBlock;

/**
 * A partition of a rank's blocks in one stage container (Parthenon's {@code MeshData}): the unit
 * that tasks, kernels and package callbacks work on. Blocks are numbered {@code 0 ..
 * numBlocks()-1} within the partition; {@link #blockIndex} gives the rank-local block.
 *
 * <p>Package code reads fields through views ({@code org.metope.mesh.view}: {@code FieldView},
 * {@code VariablePack}, {@code ParFor}), which are built from these tables. Framework kernels
 * that move whole blocks read the arena through the offset tables: {@link #dataOffsets()} holds, for every
 * field and block of the partition, where that block's data starts in {@link #data()} (-1 where a
 * sparse field is unallocated), at slot {@link ArenaLayout#tableSlot}{@code (field, b,
 * numBlocks())}; {@link #fluxOffsets()} and {@link #coarseOffsets()} do the same for fluxes
 * ({@link ArenaLayout#fluxTableSlot}) and coarse buffers. Within a block, values follow {@link
 * ArenaLayout}'s strides. Tables are rebuilt after allocation changes; fetch them (and {@code
 * data()}) once per launch.
 */
public final class MeshData {
  private final FieldStorage storage;
  private final int container;
  private final int partition;
  private final int firstBlock;
  private final int numBlocks;
  private long tablesVersion = -1;
  private int[] dataOffsets;
  private int[] fluxOffsets;
  private int[] coarseOffsets;
  /** The most views {@link #keepView} keeps on one partition. */
  public static final int MAX_VIEWS = 16;
  /** Views built on this partition, by their maker's key, oldest first: key, view, key, ... */
  private Object[] views = new Object[0];
  private long viewsVersion = -1;

  MeshData(FieldStorage storage, int container, int partition, int firstBlock, int numBlocks) {
    this.storage = storage;
    this.container = container;
    this.partition = partition;
    this.firstBlock = firstBlock;
    this.numBlocks = numBlocks;
  }

  /** The stage container's name (Parthenon's {@code StageName}). */
  public String stageName() {
    return storage.containers().get(container);
  }

  /** The stage container's index in {@link FieldStorage#containers()}. */
  public int container() {
    return container;
  }

  /** This partition's position among the partitions of its container. */
  public int partition() {
    return partition;
  }

  /** Blocks in this partition. */
  public int numBlocks() {
    return numBlocks;
  }

  /**
   * This partition's allocation version ({@link FieldStorage#allocationVersion(int, int)} of its
   * blocks): plans built from its offsets or its array are current while it stays the same.
   */
  public long allocationVersion() {
    return storage.allocationVersion(firstBlock, numBlocks);
  }

  /** The rank-local index of partition block {@code b}. */
  public int blockIndex(int b) {
    return firstBlock + b;
  }

  /** Partition block {@code b}'s mesh block: its location, coordinates, bounds and neighbours. */
  public MeshBlock block(int b) {
    return storage.block(firstBlock + b);
  }

  /** The storage this partition views. */
  public FieldStorage storage() {
    return storage;
  }

  /** The fields, in id order. */
  public ResolvedState state() {
    return storage.state();
  }

  /** The arena layout (strides per instance). */
  public ArenaLayout layout() {
    return storage.layout();
  }

  /** The arena; replaced when an allocation grows it. */
  public double[] data() {
    return storage.data();
  }

  /**
   * Where block {@code b}'s data of {@code field} in this container starts.
   *
   * @throws IllegalStateException when the field is not allocated on the block
   */
  public int dataOffset(int field, int b) {
    return require(layout().offset(layout().dataInstance(field, container), firstBlock + b),
        field, b, "is not allocated");
  }

  /**
   * Where block {@code b}'s fluxes of {@code field} through {@code direction} faces start.
   *
   * @throws IllegalStateException when the field has no fluxes (declared without {@code
   *     WITH_FLUXES}) or is not allocated on the block
   */
  public int fluxOffset(int field, int direction, int b) {
    int inst = layout().fluxInstance(field, direction);
    if (inst < 0) {
      throw new IllegalStateException("field has no fluxes through direction " + direction
          + " (declare it WITH_FLUXES): field=" + state().field(field).name() + " "
          + blockName(b));
    }
    return require(layout().offset(inst, firstBlock + b), field, b, "is not allocated");
  }

  /**
   * Where block {@code b}'s coarse buffer of {@code field} starts.
   *
   * @throws IllegalStateException when the field has no coarse buffer (a single-level mesh) or
   *     is not allocated on the block
   */
  public int coarseOffset(int field, int b) {
    int inst = layout().coarseInstance(field);
    if (inst < 0) {
      throw new IllegalStateException("field has no coarse buffer (single-level mesh): field="
          + state().field(field).name() + " " + blockName(b));
    }
    return require(layout().offset(inst, firstBlock + b), field, b, "is not allocated");
  }

  /** The offset of partition block {@code b} in {@code instance}, -1 for none or unallocated. */
  private int offsetOrNone(int instance, int b) {
    return instance < 0 ? -1 : layout().offset(instance, firstBlock + b);
  }

  private String blockName(int b) {
    return storage.hasBlocks() ? "block=" + block(b).gid() : "block index=" + (firstBlock + b);
  }

  private int require(int offset, int field, int b, String problem) {
    if (offset < 0) {
      throw new IllegalStateException("field " + problem + " on this block: field="
          + state().field(field).name() + " " + blockName(b));
    }
    return offset;
  }

  /** The arena index of value {@code (c, k, j, i)} of {@code field} on block {@code b}. */
  public int index(int field, int b, int c, int k, int j, int i) {
    return layout().index(layout().dataInstance(field, container), firstBlock + b, c, k, j, i);
  }

  /** Whether {@code field} has storage on block {@code b}. */
  public boolean isAllocated(int field, int b) {
    return storage.isAllocated(field, firstBlock + b);
  }

  /** Data offsets by {@link ArenaLayout#tableSlot}; do not modify. */
  public int[] dataOffsets() {
    refreshTables();
    return dataOffsets;
  }

  /** Flux offsets by {@link ArenaLayout#fluxTableSlot} (-1 where none); do not modify. */
  public int[] fluxOffsets() {
    refreshTables();
    return fluxOffsets;
  }

  /** Coarse buffer offsets by {@link ArenaLayout#tableSlot} (-1 where none); do not modify. */
  public int[] coarseOffsets() {
    refreshTables();
    return coarseOffsets;
  }

  /**
   * The view that {@code key} last stored with {@link #keepView} on this partition, or null.
   * Views are built from the offset tables and {@link #data()}; the caller still checks that the
   * one it gets matches them. Keys are compared by identity and should live as long as the
   * set-up (a descriptor or package object made once): the partition keeps at most {@value
   * #MAX_VIEWS}, dropping the oldest, and drops them all at an allocation change on its blocks or a growth of the
   * arena ({@link #allocationVersion()}), so that no kept view holds a replaced arena. A remesh
   * makes new partitions, so what was kept here goes with the old ones.
   */
  public synchronized Object keptView(Object key) {
    dropStaleViews();
    for (int i = 0; i < views.length; i += 2) {
      if (views[i] == key) {
        return views[i + 1];
      }
    }
    return null;
  }

  /**
   * The view of class {@code type} this partition keeps ({@link #keptView}, with the class as the
   * key), made by {@code make} when there is none: the first call, and the first after an
   * allocation change. A package keeps a record of the views its callbacks read, so that a warm
   * call builds nothing: {@code md.keptView(Views.class, Views::new)}.
   */
  public <T> T keptView(Class<T> type, Function<MeshData, T> make) {
    Object kept = keptView(type);
    if (type.isInstance(kept)) {
      return type.cast(kept);
    }
    T made = make.apply(this);
    keepView(type, made);
    return made;
  }

  /** Keeps {@code view} for {@link #keptView}{@code (key)}, replacing what {@code key} kept. */
  public synchronized void keepView(Object key, Object view) {
    dropStaleViews();
    for (int i = 0; i < views.length; i += 2) {
      if (views[i] == key) {
        views[i + 1] = view;
        return;
      }
    }
    int keep = Math.min(views.length, 2 * (MAX_VIEWS - 1));
    Object[] more = new Object[keep + 2];
    System.arraycopy(views, views.length - keep, more, 0, keep);
    more[keep] = key;
    more[keep + 1] = view;
    views = more;
  }

  private void dropStaleViews() {
    long version = allocationVersion();
    if (version != viewsVersion) {
      views = new Object[0];
      viewsVersion = version;
    }
  }

  private synchronized void refreshTables() {
    long version = allocationVersion();
    if (version == tablesVersion) {
      return;
    }
    int numFields = layout().numFields();
    int[] data = new int[numFields * numBlocks];
    int[] flux = new int[numFields * 3 * numBlocks];
    int[] coarseTable = new int[numFields * numBlocks];
    for (int f = 0; f < numFields; f++) {
      for (int b = 0; b < numBlocks; b++) {
        data[ArenaLayout.tableSlot(f, b, numBlocks)] = offsetOrNone(layout().dataInstance(f,
            container), b);
        coarseTable[ArenaLayout.tableSlot(f, b, numBlocks)] =
            offsetOrNone(layout().coarseInstance(f), b);
        for (int d = 1; d <= 3; d++) {
          flux[ArenaLayout.fluxTableSlot(f, d, b, numBlocks)] =
              offsetOrNone(layout().fluxInstance(f, d), b);
        }
      }
    }
    dataOffsets = data;
    fluxOffsets = flux;
    coarseOffsets = coarseTable;
    tablesVersion = version;
  }
}
