package org.metope.mesh.field;

import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.Arrays;

/**
 * Where every value of every field of a rank lives in the one {@code double[]} arena of a {@link
 * FieldStorage}. This class owns every stride and offset formula. Package code reads fields
 * through the views of {@code org.metope.mesh.view}, which take their offsets and strides from
 * here; framework kernels (the field update, refinement criteria, the boundary tables) and the
 * burgers kernels still add strides to a block's offset by hand.
 *
 * <p><b>Instances.</b> A field has several arrays per block, each an <i>instance</i> with an int
 * id: its data in each stage container ({@link #DATA}; independent fields that are not {@code
 * ONE_COPY} get one per container, every other field one shared by all containers), its face
 * fluxes ({@link #FLUX_X1}..{@link #FLUX_X3}, {@code WITH_FLUXES} fields, one per direction in
 * use, shared by all containers as in Parthenon; a face field's are its edge fluxes, one {@link
 * #FLUX_X1} instance shaped like its data with the edges {@code E1..E3} as elements, which
 * {@link #fluxInstance} gives for every direction), and its coarse buffer ({@link #COARSE}, refined
 * fields on a multilevel mesh, shared). Instance ids run: data of container 0 for every field in
 * field-id order, data of container 1 for fields with stage copies, ..., then fluxes (field by
 * field, x1 before x2 before x3), then coarse buffers.
 *
 * <p><b>One block of an instance</b> is {@code nel x ncomp x nk x nj x ni} values, ghosts
 * included, {@code i} fastest, where {@code nel} is the number of the field's topological elements
 * (1 for cell and node fields, 3 for face and edge fields, {@link Metadata#elements}). A cell
 * field has the cell extents. A face, edge or node field has one more index along every direction
 * in use, for each of its elements (Parthenon's layout: {@code F1} needs the extra index only
 * along i, but all three faces share one shape); element {@code el} of component {@code n} is
 * plane {@code p = el.elementIndex() * ncomp + n}. A flux array has the cell extents (Parthenon's
 * {@code CellMemAligned} fluxes): the flux through the lower face of cell {@code (k, j, i)} in
 * direction {@code d} is at {@code (n, k, j, i)}; the upper face of the last ghost cell, never
 * needed, has no slot. A coarse buffer has the coarse extents (one more per direction in use for
 * non-cell fields). A {@code FINE} field has the fine extents (twice the interior cells along each
 * direction in use, the same ghosts), and so have its fluxes; its coarse buffer has the cell
 * extents (Parthenon's {@code f_cellbounds} and {@code cellbounds}). A field without topology ({@code NONE}) has {@code ni = nj = nk = 1}: one
 * value per component per block.
 *
 * <pre>
 * arena: double[]
 * |&lt;------------------------ dense region ------------------------&gt;|&lt;--- sparse chunks ---&gt;|
 * | inst 0: b0 b1 .. bN-1 | inst 1: b0 b1 .. bN-1 | ... | inst m: .. | chunk | free | chunk |
 *
 * one block of one instance, offset(inst, b) = start of bX above:
 * | p=0: k=0: j=0: i=0 .. ni-1 | j=1: i=0 .. ni-1 | ... | k=1: ... | p=1: ... |
 *
 * index(inst, b, p, k, j, i) = offset(inst, b) + ((p * nk + k) * nj + j) * ni + i
 * plane p = elementIndex * ncomp + n   (p = n for cell fields)
 * </pre>
 *
 * <p><b>Dense instances</b> keep their blocks back to back: {@code offset(inst, b) = start(inst) +
 * b * blockLength(inst)}, so one loop can sweep every block of a field. <b>Sparse fields</b> get a
 * chunk of {@code blockLength} values per instance per block when {@link #allocate allocated}
 * (offset -1 until then); freed chunks are reused by later allocations of the same length, newest
 * first, so the same sequence of allocations gives the same offsets.
 *
 * <p>Instances are shared state of the rank; allocation changes happen between kernels (see
 * {@link FieldStorage}).
 */
public final class ArenaLayout {
  /** The most doubles an arena holds: the longest Java array, with a margin for the JVM. */
  public static final int MAX_DOUBLES = Integer.MAX_VALUE - 16;
  /** Instance kind: a field's values in one container. */
  public static final int DATA = 0;
  /** Instance kind: fluxes through x1 faces. */
  public static final int FLUX_X1 = 1;
  /** Instance kind: fluxes through x2 faces. */
  public static final int FLUX_X2 = 2;
  /** Instance kind: fluxes through x3 faces. */
  public static final int FLUX_X3 = 3;
  /** Instance kind: coarse-resolution buffer for prolongation and restriction. */
  public static final int COARSE = 4;

  private final int numBlocks;
  private final int numFields;
  private final int numContainers;
  private final int fluxDirections;
  private final boolean[] fieldSparse;

  private final int[] instanceField;
  private final int[] instanceKind;
  private final int[] instanceContainer;
  private final int[] instanceNcomp;
  private final int[] instanceElements;
  private final int[] instanceNi;
  private final int[] instanceNj;
  private final int[] instanceNk;
  private final int[] instanceBlockLength;
  private final int numInstances;

  private final int[] dataInstance;
  private final int[] fluxInstance;
  private final int[] coarseInstance;
  /** Instances of each field, for sparse allocation: [field][..]. Built once. */
  private final int[][] instancesOfField;

  private final int[] offsets;
  private final boolean[] allocated;
  private final int denseEnd;
  private int end;
  private final Int2ObjectOpenHashMap<IntArrayList> freeChunks = new Int2ObjectOpenHashMap<>();

  /**
   * Lays out {@code state}'s fields for {@code numBlocks} blocks of {@code cells} extents and
   * {@code numContainers} stage containers; {@code coarse} is null on a single-level mesh, {@code
   * fine} (the extents of {@code FINE} fields) may be null when there are none.
   */
  ArenaLayout(ResolvedState state, BlockShape cells, BlockShape coarse, BlockShape fine,
      int numBlocks, int numContainers) {
    if (numBlocks < 0 || numContainers < 1) {
      throw new IllegalArgumentException("arena numBlocks=" + numBlocks + " numContainers="
          + numContainers + ": need numBlocks >= 0 and numContainers >= 1");
    }
    this.numBlocks = numBlocks;
    this.numFields = state.numFields();
    this.numContainers = numContainers;
    this.fluxDirections = cells.dimensions();
    this.fieldSparse = new boolean[numFields];
    InstanceTable table = new InstanceTable(state, cells, coarse, fine, numContainers,
        fluxDirections);
    for (FieldInfo f : state.fields()) {
      fieldSparse[f.id()] = f.isSparse();
    }
    this.numInstances = table.count;
    this.instanceField = Arrays.copyOf(table.field, numInstances);
    this.instanceKind = Arrays.copyOf(table.kind, numInstances);
    this.instanceContainer = Arrays.copyOf(table.container, numInstances);
    this.instanceNcomp = Arrays.copyOf(table.ncomp, numInstances);
    this.instanceElements = Arrays.copyOf(table.elements, numInstances);
    this.instanceNi = Arrays.copyOf(table.ni, numInstances);
    this.instanceNj = Arrays.copyOf(table.nj, numInstances);
    this.instanceNk = Arrays.copyOf(table.nk, numInstances);
    this.instanceBlockLength = Arrays.copyOf(table.blockLength, numInstances);
    this.dataInstance = table.dataInstance;
    this.fluxInstance = table.fluxInstance;
    this.coarseInstance = table.coarseInstance;
    this.instancesOfField = table.instancesOfField();
    this.offsets = new int[numInstances * numBlocks];
    this.allocated = new boolean[numFields * numBlocks];
    this.denseEnd = placeDense();
    this.end = denseEnd;
  }

  private int placeDense() {
    long next = 0;
    Arrays.fill(offsets, -1);
    for (int inst = 0; inst < numInstances; inst++) {
      if (!fieldSparse[instanceField[inst]]) {
        next = placeBlocks(inst, next);
      }
    }
    for (int f = 0; f < numFields; f++) {
      if (!fieldSparse[f]) {
        Arrays.fill(allocated, f * numBlocks, (f + 1) * numBlocks, true);
      }
    }
    return (int) next;
  }

  /**
   * Places every block of dense instance {@code inst} from arena index {@code next} on and returns
   * the index after the last: a method per instance, so that the JIT compiles its loop (a layout
   * is made once per remesh, too rarely for the caller's loops to be compiled).
   */
  private long placeBlocks(int inst, long next) {
    long at = next;
    for (int b = 0; b < numBlocks; b++) {
      offsets[inst * numBlocks + b] = (int) at;
      at += instanceBlockLength[inst];
      checkSize(at);
    }
    return at;
  }

  private static void checkSize(long doubles) {
    if (doubles > MAX_DOUBLES) {
      throw new IllegalArgumentException("arena doubles=" + doubles + " exceeds one Java array;"
          + " use smaller or fewer blocks per rank");
    }
  }

  // ---- the formulas ---------------------------------------------------------------------------

  /** Start of block {@code block} of instance {@code instance}, or -1 if unallocated. */
  public int offset(int instance, int block) {
    return offsets[instance * numBlocks + block];
  }

  /**
   * Arena index of value {@code (p, k, j, i)} of block {@code block} of {@code instance}, where
   * plane {@code p} is the component of a cell field, {@code elementIndex * ncomp + n} of others.
   */
  public int index(int instance, int block, int p, int k, int j, int i) {
    int nj = instanceNj[instance];
    return offsets[instance * numBlocks + block]
        + ((p * instanceNk[instance] + k) * nj + j) * instanceNi[instance] + i;
  }

  /** Values in one block of {@code instance}: {@code nel * ncomp * nk * nj * ni}. */
  public int blockLength(int instance) {
    return instanceBlockLength[instance];
  }

  /** Distance between components: {@code nk * nj * ni}. */
  public int componentStride(int instance) {
    return instanceNk[instance] * instanceNj[instance] * instanceNi[instance];
  }

  /**
   * Distance between the topological elements of a face or edge field ({@code F1} to {@code
   * F2}): {@code ncomp * nk * nj * ni}.
   */
  public int elementStride(int instance) {
    return instanceNcomp[instance] * componentStride(instance);
  }

  /** Distance between k planes: {@code nj * ni}. */
  public int kStride(int instance) {
    return instanceNj[instance] * instanceNi[instance];
  }

  /** Distance between j rows: {@code ni}. */
  public int jStride(int instance) {
    return instanceNi[instance];
  }

  /** Slot of {@code (field, block)} in a partition's data or coarse offset table. */
  public static int tableSlot(int field, int block, int blocksInTable) {
    return field * blocksInTable + block;
  }

  /** Slot of {@code (field, direction 1..3, block)} in a partition's flux offset table. */
  public static int fluxTableSlot(int field, int direction, int block, int blocksInTable) {
    return (field * 3 + direction - 1) * blocksInTable + block;
  }

  // ---- instances -----------------------------------------------------------------------------

  /** The data instance of {@code field} in {@code container} (shared ones are the same id). */
  public int dataInstance(int field, int container) {
    return dataInstance[container * numFields + field];
  }

  /** The flux instance of {@code field} through faces of {@code direction} (1..3), or -1. */
  public int fluxInstance(int field, int direction) {
    return fluxInstance[field * 3 + direction - 1];
  }

  /** The coarse buffer instance of {@code field}, or -1. */
  public int coarseInstance(int field) {
    return coarseInstance[field];
  }

  /** Number of instances. */
  public int numInstances() {
    return numInstances;
  }

  /** The field an instance belongs to. */
  public int instanceField(int instance) {
    return instanceField[instance];
  }

  /** The kind of an instance: {@link #DATA}, {@link #FLUX_X1}..{@link #FLUX_X3}, {@link #COARSE}. */
  public int instanceKind(int instance) {
    return instanceKind[instance];
  }

  /** The container of a data instance with stage copies; -1 for instances shared by all. */
  public int instanceContainer(int instance) {
    return instanceContainer[instance];
  }

  /** Components of an instance: the field's, per topological element. */
  public int numComponents(int instance) {
    return instanceNcomp[instance];
  }

  /** Topological elements of an instance: 3 for face and edge fields, else 1. */
  public int numElements(int instance) {
    return instanceElements[instance];
  }

  /** Extent along i of an instance's block. */
  public int ni(int instance) {
    return instanceNi[instance];
  }

  /** Extent along j of an instance's block. */
  public int nj(int instance) {
    return instanceNj[instance];
  }

  /** Extent along k of an instance's block. */
  public int nk(int instance) {
    return instanceNk[instance];
  }

  /** Blocks laid out. */
  public int numBlocks() {
    return numBlocks;
  }

  /** Fields laid out. */
  public int numFields() {
    return numFields;
  }

  /** Stage containers laid out. */
  public int numContainers() {
    return numContainers;
  }

  /** Flux directions in use: the mesh's dimensions. */
  public int fluxDirections() {
    return fluxDirections;
  }

  // ---- sparse allocation ---------------------------------------------------------------------

  /** Whether {@code field} has storage on {@code block} (dense fields always do). */
  public boolean isAllocated(int field, int block) {
    return allocated[field * numBlocks + block];
  }

  /** Whether {@code field} is sparse. */
  public boolean isSparse(int field) {
    return fieldSparse[field];
  }

  /** One past the last value in use (the arena must be at least this long). */
  public int end() {
    return end;
  }

  /** Values in the dense region. */
  public int denseEnd() {
    return denseEnd;
  }

  /** The instances of {@code field}, in instance-id order. */
  public int[] instancesOf(int field) {
    return instancesOfField[field].clone();
  }

  /**
   * Where {@link #end()} would be after {@link #allocate allocating} sparse {@code field} on one
   * more block: freed chunks of the right lengths are reused first, the rest extend the end.
   */
  long endAfterAllocating(int field) {
    int[] instances = instancesOfField[field];
    long newEnd = end;
    for (int n = 0; n < instances.length; n++) {
      int length = instanceBlockLength[instances[n]];
      int takenBefore = 0;
      for (int m = 0; m < n; m++) {
        takenBefore += instanceBlockLength[instances[m]] == length ? 1 : 0;
      }
      IntArrayList free = freeChunks.get(length);
      if (free == null || free.size() <= takenBefore) {
        newEnd += length;
      }
    }
    return newEnd;
  }

  /**
   * Gives every instance of sparse {@code field} a chunk on {@code block}, reusing freed chunks of
   * the same length first. Returns false (and changes nothing) when already allocated.
   */
  boolean allocate(int field, int block) {
    requireSparse(field);
    if (allocated[field * numBlocks + block]) {
      return false;
    }
    for (int inst : instancesOfField[field]) {
      int length = instanceBlockLength[inst];
      IntArrayList free = freeChunks.get(length);
      int start;
      if (free != null && !free.isEmpty()) {
        start = free.removeInt(free.size() - 1);
      } else {
        checkSize((long) end + length);
        start = end;
        end += length;
      }
      offsets[inst * numBlocks + block] = start;
    }
    allocated[field * numBlocks + block] = true;
    return true;
  }

  /** Returns the chunks of sparse {@code field} on {@code block}; false when not allocated. */
  boolean deallocate(int field, int block) {
    requireSparse(field);
    if (!allocated[field * numBlocks + block]) {
      return false;
    }
    for (int inst : instancesOfField[field]) {
      int slot = inst * numBlocks + block;
      freeChunks.computeIfAbsent(instanceBlockLength[inst], k -> new IntArrayList())
          .add(offsets[slot]);
      offsets[slot] = -1;
    }
    allocated[field * numBlocks + block] = false;
    return true;
  }

  private void requireSparse(int field) {
    if (!fieldSparse[field]) {
      throw new IllegalArgumentException("field=" + field + " is dense: only sparse fields are"
          + " allocated per block");
    }
  }
}
