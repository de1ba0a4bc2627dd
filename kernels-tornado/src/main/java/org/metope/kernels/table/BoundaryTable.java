package org.metope.kernels.table;

import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/**
 * The boundary descriptors of one cache (one partition, one direction): everything a kernel needs
 * to move the data of every boundary "in one" launch, as struct-of-arrays in flat primitive arrays.
 * Built by {@link BoundaryTableBuilder} when the cache is built; a rebuild of the same size may
 * write new columns into the same arrays ({@link BoundaryTableBuilder#build(BoundaryTable)}),
 * between launches, never during one. Per step only the per-step arrays
 * below and the buffer offsets of sparse receivers ({@link #setBufferOffset}) change.
 *
 * <h2>Layout</h2>
 *
 * Each descriptor field is a column of {@link #size} entries indexed by boundary {@code b}. The
 * int columns sit back to back in one {@code int[]}, the double columns in one {@code double[]}:
 *
 * <pre>
 *   ints:  | OP[0..n) | NDIM[0..n) | VAR_OFFSET[0..n) | VAR_NI | ... | CELLS[0..n) |
 *            ^ ints[OP * n + b]      ^ ints[VAR_OFFSET * n + b]
 *   reals: | DEFAULT_VALUE[0..n) | SPARSE_THRESHOLD | FINE_XMIN1 | FINE_DX1 | ... | COARSE_DX3 |
 *
 *   per-step state, one entry per boundary, in arrays of their own:
 *   receiveMode[b]  written by bvals before unload: RECEIVE_SKIP, RECEIVE_COPY, RECEIVE_DEFAULT
 *   allocated[b]    written by bvals: 0 = the block's field is unallocated, skip in load,
 *                   prolongate, restrictBlocks
 *   nonzero[b]      written by load: 1 when some loaded |value| >= SPARSE_THRESHOLD
 * </pre>
 *
 * Columns in one array rather than twenty parallel arrays, because a TornadoVM task takes at most
 * twenty parameters and a kernel body should not need more than a handful; the memory layout is the
 * same struct-of-arrays. The per-step arrays are separate because they travel to the device at
 * every launch while the columns travel once.
 *
 * <h2>Meaning of one boundary</h2>
 *
 * <pre>
 *   var   = BlockLayout(VAR_OFFSET, NCOMP, VAR_NK, VAR_NJ, VAR_NI) in the data arena
 *   box   = IS..IE, JS..JE, KS..KE in var's index space
 *   buffer slice = [BUFFER_OFFSET, BUFFER_OFFSET + CELLS) of the buffer arena, ordered like the
 *                  box: component, then k, j, i with i fastest
 *   fine  = BlockLayout(FINE_OFFSET, NCOMP, FINE_NK, FINE_NJ, FINE_NI), for refinement codes
 *
 *   coarse cell (c, k, j, i) of the box  &lt;-&gt;  fine cells starting at
 *       fi = FINE_ORIGIN_I + 2 * i,  fj = FINE_ORIGIN_J + fy * j,  fk = FINE_ORIGIN_K + fz * k
 *   with fy = 2 when NDIM &gt;= 2 else 1, fz = 2 when NDIM == 3 else 1; this is Parthenon's
 *   fi = (ci - cib.s) * 2 + ib.s with FINE_ORIGIN_I = ib.s - 2 * cib.s.
 * </pre>
 *
 * Load reads the box of var (COPY) or the fine children of each box cell (RESTRICT, FLUX_*) and
 * writes the buffer slice; unload writes the box of var; prolongation reads var (the coarse
 * buffer, one cell around the box included) and writes the fine children; restriction and flux
 * correction read the fine children and write the box of var. See {@link BoundaryOp}.
 *
 * <h2>Shared elements</h2>
 *
 * A face, edge or node field keeps one value on a face, edge or corner that two blocks share;
 * each block stores it, and the exchange makes them agree: the receiver writes a value the
 * sender owns and keeps its own elsewhere (Parthenon's {@code SpatiallyMaskedIndexer6D} with the
 * mask of {@code GetIndexRangeMaskFromOwnership}). A box cell is in class {@code (ci, cj, ck)},
 * each -1 at the box's first index along that axis, +1 at its last, 0 between (and 0 where the
 * box is one index wide); unload writes it when bit {@link #ownedBit ownedBit(ci, cj, ck)} of
 * the element's OWNED column is set. The prolongation of such a field ({@code
 * ElementRefinementKernels}) writes only where its row's masks say so too; every other operation
 * ignores the masks.
 *
 * <p>Coordinates: cell centres are {@code xmin + (index + 0.5) * dx} along each direction, with
 * {@code FINE_XMIN*}/{@code FINE_DX*} for the fine layout and {@code COARSE_XMIN*}/{@code
 * COARSE_DX*} for var, exactly as Parthenon's uniform Cartesian coordinates (whose {@code xmin} is
 * the position of the first ghost face). Fine {@code dx} also gives the restriction weights.
 */
public final class BoundaryTable {
  /** Int column: operation code, see {@link BoundaryOp}. */
  public static final int OP = 0;
  /** Int column: number of active dimensions, 1 to 3 (x1, then x2, then x3). */
  public static final int NDIM = 1;
  /** Int column: arena index of cell (0,0,0,0) of var. */
  public static final int VAR_OFFSET = 2;
  /** Int column: var cells along x1 with ghosts. */
  public static final int VAR_NI = 3;
  /** Int column: var cells along x2 with ghosts. */
  public static final int VAR_NJ = 4;
  /** Int column: var cells along x3 with ghosts. */
  public static final int VAR_NK = 5;
  /** Int column: number of components (same in var and fine). */
  public static final int NCOMP = 6;
  /** Int column: first i of the box. */
  public static final int IS = 7;
  /** Int column: last i of the box. */
  public static final int IE = 8;
  /** Int column: first j of the box. */
  public static final int JS = 9;
  /** Int column: last j of the box. */
  public static final int JE = 10;
  /** Int column: first k of the box. */
  public static final int KS = 11;
  /** Int column: last k of the box. */
  public static final int KE = 12;
  /** Int column: start of the buffer slice in the buffer arena. */
  public static final int BUFFER_OFFSET = 13;
  /** Int column: arena index of cell (0,0,0,0) of the fine layout. */
  public static final int FINE_OFFSET = 14;
  /** Int column: fine cells along x1 with ghosts. */
  public static final int FINE_NI = 15;
  /** Int column: fine cells along x2 with ghosts. */
  public static final int FINE_NJ = 16;
  /** Int column: fine cells along x3 with ghosts. */
  public static final int FINE_NK = 17;
  /** Int column: fine i of the first child of coarse i = 0. */
  public static final int FINE_ORIGIN_I = 18;
  /** Int column: fine j of the first child of coarse j = 0. */
  public static final int FINE_ORIGIN_J = 19;
  /** Int column: fine k of the first child of coarse k = 0. */
  public static final int FINE_ORIGIN_K = 20;
  /** Int column: rows of the box, NCOMP * (KE-KS+1) * (JE-JS+1). */
  public static final int ROWS = 21;
  /** Int column: cells of the box times NCOMP, which is also the buffer slice length. */
  public static final int CELLS = 22;
  /**
   * Int column: components per topological element. NCOMP counts the planes of var, {@code
   * elements x PLANES_PER_ELEMENT}; a cell field has one element, so both are its components.
   */
  public static final int PLANES_PER_ELEMENT = 23;
  /**
   * Int column: which cells of the box unload writes for the first element, as 27 bits; {@link
   * #OWNED_ALL} for every cell. The second and third elements of a face or edge field follow at
   * +1 and +2. See "Shared elements" above.
   */
  public static final int OWNED_0 = 24;
  /**
   * Int column: the topological element of the first element's planes, as {@link #elementCode};
   * 0 on a cell field's row. The second and third elements follow at +1 and +2. Restriction and
   * prolongation treat each element's planes as Parthenon's operators treat that element.
   */
  public static final int ELEMENT_0 = 27;
  /**
   * Int column: on an internal prolongation row ({@link BoundaryOp#INTERNAL_AVERAGE}, {@link
   * BoundaryOp#INTERNAL_TOTH_AND_ROE}), the coarse element, as {@link #elementCode}, inside
   * which the row fills fine values; the row's box is that element's box and OWNED_0 its mask.
   */
  public static final int INNER_ELEMENT = 30;
  /**
   * Int column: the slopes of a cell field's shared prolongation ({@link BoundaryOp#PROLONGATE}):
   * {@link #SLOPES_MIN_MOD} (Parthenon's {@code ProlongateSharedMinMod}, the default) or {@link
   * #SLOPES_LINEAR} (its {@code ProlongateSharedLinear}).
   */
  public static final int SLOPES = 31;
  /** Number of int columns. */
  public static final int INT_COLUMNS = 32;

  /** SLOPES value: one min-mod limited slope per axis. */
  public static final int SLOPES_MIN_MOD = 0;
  /**
   * SLOPES value: no limiter; each child takes the one-sided slope towards its side, so the
   * prolongation is linear in the coarse values.
   */
  public static final int SLOPES_LINEAR = 1;

  /** OWNED_* value: unload writes every cell of the box (cell fields, interiors). */
  public static final int OWNED_ALL = (1 << 27) - 1;

  /** Real column: value unload writes for a null channel (the field's sparse default). */
  public static final int DEFAULT_VALUE = 0;
  /** Real column: load sets {@code nonzero[b]} when some |value| is at least this. */
  public static final int SPARSE_THRESHOLD = 1;
  /** Real column: fine xmin along x1; x2 and x3 follow at +2 and +4. */
  public static final int FINE_XMIN1 = 2;
  /** Real column: fine dx along x1; x2 and x3 follow at +2 and +4. */
  public static final int FINE_DX1 = 3;
  /** Real column: coarse (var) xmin along x1; x2 and x3 follow at +2 and +4. */
  public static final int COARSE_XMIN1 = 8;
  /** Real column: coarse (var) dx along x1; x2 and x3 follow at +2 and +4. */
  public static final int COARSE_DX1 = 9;
  /** Number of real columns. */
  public static final int REAL_COLUMNS = 14;

  /** receiveMode: leave the box alone (unallocated receiver, or a null flux correction). */
  public static final int RECEIVE_SKIP = 0;
  /** receiveMode: copy the buffer slice into the box. */
  public static final int RECEIVE_COPY = 1;
  /** receiveMode: fill the box with DEFAULT_VALUE (a null channel). */
  public static final int RECEIVE_DEFAULT = 2;

  /** Number of boundaries. */
  public final int size;
  /**
   * Int columns, {@code ints[column * size + b]}; read-only between builds except BUFFER_OFFSET,
   * which only {@link #setBufferOffset} changes.
   */
  public final int[] ints;
  /** Real columns, {@code reals[column * size + b]}; read-only between builds. */
  public final double[] reals;
  /** Per-step receive mode of each boundary, set by the caller before unload. */
  public final int[] receiveMode;
  /** Per-step allocation flag of each boundary (1 allocated, 0 not), set by the caller. */
  public final int[] allocated;
  /** Per-boundary result of the last load: 1 when some value reached the sparse threshold. */
  public final int[] nonzero;
  /**
   * 1 where the boundary's channel leaves the rank (its buffer slice is a message), 0 where sender
   * and receiver share the slice on this rank; set by the caller when the table is built. A
   * resident device backend moves only the slices of the former between host and device.
   */
  public final int[] crossRank;
  /** The subset of all boundaries, {@code 0..size-1}, for launches over the whole table. */
  public final int[] all;
  /** Largest ROWS of any boundary. */
  public int maxRows;
  /** Sum of CELLS over all boundaries, the doubles a full load moves. */
  public long totalCells;
  /** Bumped by every change of the columns, so that a device copy of them knows it is stale. */
  private volatile int columnsVersion;

  BoundaryTable(int size, int[] ints, double[] reals) {
    if (ints.length != size * INT_COLUMNS || reals.length != size * REAL_COLUMNS) {
      throw new IllegalArgumentException("column arrays do not match size=" + size);
    }
    this.size = size;
    this.ints = ints;
    this.reals = reals;
    this.receiveMode = new int[size];
    this.allocated = new int[size];
    this.nonzero = new int[size];
    this.crossRank = new int[size];
    this.all = new int[size];
    for (int b = 0; b < size; b++) {
      all[b] = b;
    }
    resetPerStep();
  }

  /**
   * A table with this one's columns and allocation flags, in which the arena offsets of var and
   * of the fine layout ({@link #VAR_OFFSET}, and {@link #FINE_OFFSET} where the operation has a
   * fine side) are passed through {@code offsets}: the same boundaries over another instance of
   * the same fields, such as another stage container's data, whose blocks sit at the same
   * distances from each other. The two tables share {@link #reals}, which no offset enters: a
   * builder that writes this table over ({@link BoundaryTableBuilder#build(BoundaryTable)}) for
   * the same boundaries writes the same reals.
   */
  public BoundaryTable withOffsets(IntUnaryOperator offsets) {
    int[] columns = ints.clone();
    for (int b = 0; b < size; b++) {
      moveOffsets(columns, b, offsets);
    }
    BoundaryTable copy = new BoundaryTable(size, columns, reals);
    System.arraycopy(allocated, 0, copy.allocated, 0, size);
    return copy;
  }

  /**
   * Starts the table over after a builder wrote new columns of the same size into {@link #ints}
   * and {@link #reals} (a cache rebuilt in place, {@link BoundaryTableBuilder#build(BoundaryTable)}):
   * the per-step arrays as after a build, and a new {@link #columnsVersion()} so that a device
   * copy is uploaded again.
   */
  void refilled() {
    Arrays.fill(nonzero, 0);
    Arrays.fill(crossRank, 0);
    resetPerStep();
    columnsVersion++;
  }

  /** Row {@code b} of {@link #withOffsets}: its var offset and, where it refines, fine offset. */
  private void moveOffsets(int[] columns, int b, IntUnaryOperator offsets) {
    columns[VAR_OFFSET * size + b] = offsets.applyAsInt(columns[VAR_OFFSET * size + b]);
    if (BoundaryOp.usesFine(columns[OP * size + b])) {
      columns[FINE_OFFSET * size + b] = offsets.applyAsInt(columns[FINE_OFFSET * size + b]);
    }
  }

  /**
   * The per-step arrays as after a build, and {@link #maxRows} and {@link #totalCells}. Loops over
   * rows here and in {@link BoundaryTableBuilder}'s check call a method per row: tables are made
   * a few times per remesh, too few for the JIT to compile a loop in place before most of a run
   * has passed (on one CPU Metope doubles its thresholds), whereas a method called once per row
   * is compiled during the first remesh.
   */
  private void resetPerStep() {
    maxRows = 0;
    totalCells = 0;
    for (int b = 0; b < size; b++) {
      resetRow(b);
    }
  }

  /** Row {@code b} of {@link #resetPerStep}. */
  private void resetRow(int b) {
    receiveMode[b] = RECEIVE_COPY;
    allocated[b] = 1;
    maxRows = Math.max(maxRows, ints[ROWS * size + b]);
    totalCells += ints[CELLS * size + b];
  }

  /**
   * The ELEMENT_* code of an element that sits on cell boundaries along x1 ({@code onI} 1), x2,
   * x3 (a cell centre has none, a node all three): never 0, so a cell row's 0 stays apart.
   */
  public static int elementCode(int onI, int onJ, int onK) {
    return 8 | onI | onJ << 1 | onK << 2;
  }

  /** Whether element {@code code} sits on cell boundaries along {@code axis} (0, 1, 2). */
  public static boolean onFaces(int code, int axis) {
    return (code >> axis & 1) == 1;
  }

  /** The bit of box-cell class {@code (ci, cj, ck)} in an OWNED column (NeighborIndex order). */
  public static int ownedBit(int ci, int cj, int ck) {
    return (ci + 1) + 3 * (cj + 1) + 9 * (ck + 1);
  }

  /** Int column {@code column} of boundary {@code b}. */
  public int get(int column, int b) {
    return ints[column * size + b];
  }

  /** Real column {@code column} of boundary {@code b}. */
  public double getReal(int column, int b) {
    return reals[column * size + b];
  }

  /**
   * Moves boundary {@code b}'s buffer slice to {@code offset} (a sparse receiver takes a slice
   * only when data arrive). A change bumps {@link #columnsVersion()}; setting the same offset
   * again does not.
   */
  public void setBufferOffset(int b, int offset) {
    final int at = BUFFER_OFFSET * size + b;
    if (ints[at] != offset) {
      ints[at] = offset;
      columnsVersion++;
    }
  }

  /**
   * Version of {@link #ints} and {@link #reals}: 0 after build, one more after every change. A
   * backend that keeps a copy of the columns on a device uploads them again when it differs.
   * Changes come from the task that owns the table, between its launches.
   */
  public int columnsVersion() {
    return columnsVersion;
  }

  /** Number of doubles in the buffer slice of boundary {@code b}. */
  public int bufferLength(int b) {
    return get(CELLS, b);
  }

  /**
   * Checks that every index any launch may touch lies inside arenas of the given lengths. Meant for
   * cache building, so that a wrong offset fails there with a message, not mid-step.
   *
   * @throws IllegalArgumentException naming the first boundary that reaches outside
   */
  public void checkArenas(int dataLength, int bufferLength) {
    for (int b = 0; b < size; b++) {
      int varEnd = get(VAR_OFFSET, b)
          + get(NCOMP, b) * get(VAR_NK, b) * get(VAR_NJ, b) * get(VAR_NI, b);
      if (varEnd > dataLength) {
        throw new IllegalArgumentException("var outside data arena: b=" + b + " end=" + varEnd
            + " dataLength=" + dataLength);
      }
      int bufferEnd = get(BUFFER_OFFSET, b) + get(CELLS, b);
      if (bufferEnd > bufferLength) {
        throw new IllegalArgumentException("buffer slice outside buffer arena: b=" + b + " end="
            + bufferEnd + " bufferLength=" + bufferLength);
      }
      if (BoundaryOp.usesFine(get(OP, b))) {
        int fineEnd = get(FINE_OFFSET, b)
            + get(NCOMP, b) * get(FINE_NK, b) * get(FINE_NJ, b) * get(FINE_NI, b);
        if (fineEnd > dataLength) {
          throw new IllegalArgumentException("fine layout outside data arena: b=" + b + " end="
              + fineEnd + " dataLength=" + dataLength);
        }
      }
    }
  }
}
