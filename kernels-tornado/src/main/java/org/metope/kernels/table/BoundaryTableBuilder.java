package org.metope.kernels.table;

import java.util.Arrays;

/**
 * Collects boundaries one by one at cache-build time and produces a {@link BoundaryTable}. This is
 * the only place that walks objects; it checks each boundary so that a kernel never meets an index
 * outside its block.
 *
 * <pre>
 *   BoundaryTableBuilder builder = new BoundaryTableBuilder();
 *   int b = builder.add(BoundaryOp.RESTRICT, 3, coarseImage, box, bufferOffset);
 *   builder.fine(b, senderBlock, originI, originJ, originK).defaultValue(b, 0.0);
 *   BoundaryTable table = builder.build();
 * </pre>
 *
 * A cache builder keeps one builder and uses it again: {@link #clear} empties it and keeps its
 * arrays, and {@link #build(BoundaryTable)} writes into the replaced table when the size matches,
 * so that rebuilding the same boundaries allocates nothing.
 */
public final class BoundaryTableBuilder {
  /** Flag of a row given its fine layout ({@link #fine}). */
  private static final byte FINE = 1;
  /** Flag of a row given its coordinates ({@link #coordinates}). */
  private static final byte COORDINATES = 2;
  /** Flag of a row copied from a built table ({@link #addCopies}) and not changed since. */
  private static final byte CHECKED = 4;

  private int size;
  /**
   * Rows for {@code capacity} boundaries, column by column: column {@code c} of boundary {@code
   * b} is at {@code c * capacity + b}, the layout of {@link BoundaryTable}.
   */
  private int capacity;
  private int[] columns;
  private double[] realColumns;
  /** Whether {@link #build} handed {@code columns} to a table: the next change copies them first. */
  private boolean handedOver;
  /** Per row, {@link #FINE}, {@link #COORDINATES} and {@link #CHECKED} bits. */
  private byte[] flags;
  /** One boundary's int columns, for the reach check. */
  private final int[] row = new int[BoundaryTable.INT_COLUMNS];

  /** A builder with room for 16 boundaries; it grows as needed. */
  public BoundaryTableBuilder() {
    this(16);
  }

  /**
   * A builder with room for {@code capacity} boundaries, so that a known count never grows it;
   * when exactly that many are added, {@link #build} copies nothing.
   */
  public BoundaryTableBuilder(int capacity) {
    this.capacity = Math.max(capacity, 1);
    columns = new int[this.capacity * BoundaryTable.INT_COLUMNS];
    realColumns = new double[this.capacity * BoundaryTable.REAL_COLUMNS];
    flags = new byte[this.capacity];
  }

  /** Number of boundaries added so far. */
  public int size() {
    return size;
  }

  /**
   * Adds a boundary and returns its index {@code b}.
   *
   * @param op a {@link BoundaryOp} code
   * @param ndim active dimensions, 1 to 3
   * @param var the block (or coarse buffer) whose box is loaded, unloaded or written
   * @param box index range in var
   * @param bufferOffset start of the buffer slice in the buffer arena (any value when unused)
   */
  public int add(int op, int ndim, BlockLayout var, IndexBox box, int bufferOffset) {
    return add(op, ndim, var, 0, box.is(), box.ie(), box.js(), box.je(), box.ks(), box.ke(),
        bufferOffset);
  }

  /**
   * Adds a boundary as {@link #add(int, int, BlockLayout, IndexBox, int)} does, without objects
   * per boundary: var is {@code shape} moved by {@code varOffset} (a cache builder keeps one
   * shape per field instance), the box is {@code box[0..6)}, {@code is, ie, js, je, ks, ke}.
   */
  public int add(int op, int ndim, BlockLayout shape, int varOffset, int[] box,
      int bufferOffset) {
    return add(op, ndim, shape, varOffset, box[0], box[1], box[2], box[3], box[4], box[5],
        bufferOffset);
  }

  private int add(int op, int ndim, BlockLayout shape, int varOffset, int is, int ie, int js,
      int je, int ks, int ke, int bufferOffset) {
    if (!BoundaryOp.isValid(op)) {
      throw new IllegalArgumentException("unknown operation: op=" + op);
    }
    if (ndim < 1 || ndim > 3) {
      throw new IllegalArgumentException("ndim must be 1, 2 or 3: ndim=" + ndim);
    }
    if (ie < is || je < js || ke < ks || !shape.contains(ks, js, is)
        || !shape.contains(ke, je, ie)) {
      throw new IllegalArgumentException("box outside var: box=" + is + ".." + ie + ", " + js
          + ".." + je + ", " + ks + ".." + ke + " var=" + shape + " moved by " + varOffset);
    }
    if (bufferOffset < 0) {
      throw new IllegalArgumentException("bufferOffset must be >= 0: bufferOffset=" + bufferOffset);
    }
    ensureCapacity(size + 1);
    int b = size++;
    // A cleared builder's row keeps an earlier table's flags too: no fine side or coordinates yet.
    flags[b] = 0;
    int ncomp = shape.ncomp();
    int cells = (ie - is + 1) * (je - js + 1) * (ke - ks + 1);
    set(b, BoundaryTable.OP, op);
    set(b, BoundaryTable.NDIM, ndim);
    setLayout(b, BoundaryTable.VAR_OFFSET, shape, varOffset);
    set(b, BoundaryTable.NCOMP, ncomp);
    set(b, BoundaryTable.IS, is);
    set(b, BoundaryTable.IE, ie);
    set(b, BoundaryTable.JS, js);
    set(b, BoundaryTable.JE, je);
    set(b, BoundaryTable.KS, ks);
    set(b, BoundaryTable.KE, ke);
    set(b, BoundaryTable.BUFFER_OFFSET, bufferOffset);
    set(b, BoundaryTable.ROWS, ncomp * (ke - ks + 1) * (je - js + 1));
    set(b, BoundaryTable.CELLS, ncomp * cells);
    set(b, BoundaryTable.PLANES_PER_ELEMENT, ncomp);
    for (int e = 0; e < 3; e++) {
      set(b, BoundaryTable.OWNED_0 + e, BoundaryTable.OWNED_ALL);
      set(b, BoundaryTable.ELEMENT_0 + e, 0);
    }
    set(b, BoundaryTable.INNER_ELEMENT, 0);
    set(b, BoundaryTable.SLOPES, BoundaryTable.SLOPES_MIN_MOD);
    // A cleared builder's row may hold an earlier table's values: no fine side, no reals yet.
    for (int c = BoundaryTable.FINE_OFFSET; c <= BoundaryTable.FINE_ORIGIN_K; c++) {
      set(b, c, 0);
    }
    for (int c = 0; c < BoundaryTable.REAL_COLUMNS; c++) {
      setReal(b, c, 0.0);
    }
    return b;
  }

  /**
   * Adds rows {@code first} to {@code first + count - 1} of {@code from} again, in order, every
   * column as {@code from} has it, coordinates included, and returns the index of the first; each
   * then gets its own offsets from {@link #moveCopy}. For a plan rebuilt after a remesh from rows
   * of the plan before, where a block and its neighbours stayed and only the arena places moved:
   * column by column, one array copy each. {@code from} checked the rows when it was built, and
   * the checks do not depend on offsets, so {@link #build} does not check them again unless a
   * later call changes one.
   */
  public int addCopies(BoundaryTable from, int first, int count) {
    if (first < 0 || count < 0 || first + count > from.size) {
      throw new IllegalArgumentException("no such rows: first=" + first + " count=" + count
          + " size=" + from.size);
    }
    ensureCapacity(size + count);
    int b = size;
    for (int c = 0; c < BoundaryTable.INT_COLUMNS; c++) {
      System.arraycopy(from.ints, c * from.size + first, columns, c * capacity + b, count);
    }
    for (int c = 0; c < BoundaryTable.REAL_COLUMNS; c++) {
      System.arraycopy(from.reals, c * from.size + first, realColumns, c * capacity + b, count);
    }
    for (int k = b; k < b + count; k++) {
      boolean refines = BoundaryOp.usesFine(get(k, BoundaryTable.OP));
      flags[k] = refines ? FINE | COORDINATES | CHECKED : CHECKED;
    }
    size += count;
    return b;
  }

  /**
   * Gives row {@code b}, added by {@link #addCopies}, its var offset {@code varOffset}, its fine
   * offset {@code fineOffset} (taken by refinement rows only) and its buffer offset {@code
   * bufferOffset}.
   */
  public BoundaryTableBuilder moveCopy(int b, int varOffset, int fineOffset, int bufferOffset) {
    if (b < 0 || b >= size) {
      throw new IllegalArgumentException("no such boundary: b=" + b + " size=" + size);
    }
    if (handedOver) {
      relayout(capacity);
    }
    set(b, BoundaryTable.VAR_OFFSET, varOffset);
    set(b, BoundaryTable.BUFFER_OFFSET, bufferOffset);
    if ((flags[b] & FINE) != 0) {
      set(b, BoundaryTable.FINE_OFFSET, fineOffset);
    }
    return this;
  }

  /**
   * Gives cell-field prolongation {@code b} the slopes {@code slopes} ({@link
   * BoundaryTable#SLOPES_MIN_MOD} or {@link BoundaryTable#SLOPES_LINEAR}).
   */
  public BoundaryTableBuilder slopes(int b, int slopes) {
    checkIndex(b);
    if (slopes != BoundaryTable.SLOPES_MIN_MOD && slopes != BoundaryTable.SLOPES_LINEAR) {
      throw new IllegalArgumentException("unknown slopes: slopes=" + slopes + " b=" + b);
    }
    set(b, BoundaryTable.SLOPES, slopes);
    return this;
  }

  /**
   * Makes boundary {@code b} one of a face, edge or node field: {@code var}'s planes are {@code
   * owned.length} elements of {@code perElement} components, and unload writes the box cells of
   * element {@code e} that {@code owned[e]} marks (see {@link BoundaryTable}, "Shared elements").
   */
  public BoundaryTableBuilder elements(int b, int perElement, int[] owned) {
    checkIndex(b);
    if (perElement < 1 || owned.length < 1 || owned.length > 3
        || perElement * owned.length != get(b, BoundaryTable.NCOMP)) {
      throw new IllegalArgumentException("elements=" + owned.length + " x perElement="
          + perElement + " do not make NCOMP=" + get(b, BoundaryTable.NCOMP) + ": b=" + b);
    }
    set(b, BoundaryTable.PLANES_PER_ELEMENT, perElement);
    for (int e = 0; e < owned.length; e++) {
      set(b, BoundaryTable.OWNED_0 + e, owned[e] & BoundaryTable.OWNED_ALL);
    }
    return this;
  }

  /**
   * Names the topological element of each of boundary {@code b}'s elements ({@link
   * BoundaryTable#elementCode}), which restriction and prolongation need; the box is then the box
   * of all elements, one past the cell box along every active axis, and each element's own box
   * ends one earlier along an axis on which it does not sit on cell boundaries. Call after {@link
   * #elements}.
   */
  public BoundaryTableBuilder elementCodes(int b, int[] codes) {
    checkIndex(b);
    int ppe = get(b, BoundaryTable.PLANES_PER_ELEMENT);
    if (codes.length * ppe != get(b, BoundaryTable.NCOMP)) {
      throw new IllegalArgumentException("element codes=" + codes.length + " do not match NCOMP="
          + get(b, BoundaryTable.NCOMP) + " / PLANES_PER_ELEMENT=" + ppe + ": b=" + b);
    }
    for (int e = 0; e < codes.length; e++) {
      if ((codes[e] & ~15) != 0 || (codes[e] & 8) == 0) {
        throw new IllegalArgumentException("not an element code: " + codes[e] + ": b=" + b);
      }
      set(b, BoundaryTable.ELEMENT_0 + e, codes[e]);
    }
    return this;
  }

  /**
   * Makes internal prolongation row {@code b} fill the inside of coarse element {@code code}
   * ({@link BoundaryTable#INNER_ELEMENT}); its box is that element's box.
   */
  public BoundaryTableBuilder innerElement(int b, int code) {
    checkIndex(b);
    if (!BoundaryOp.isInternal(get(b, BoundaryTable.OP))) {
      throw new IllegalArgumentException("inner element on a row that is not internal "
          + "prolongation: b=" + b + " op=" + BoundaryOp.name(get(b, BoundaryTable.OP)));
    }
    set(b, BoundaryTable.INNER_ELEMENT, code);
    return this;
  }

  /**
   * Sets the fine side of a refinement boundary: the fine block and the fine index of the first
   * child of coarse index 0 along each direction (Parthenon's {@code ib.s - 2 * cib.s}; for an
   * inactive direction the fine index of coarse index 0).
   */
  public BoundaryTableBuilder fine(int b, BlockLayout fine, int originI, int originJ, int originK) {
    return fine(b, fine, 0, originI, originJ, originK);
  }

  /**
   * {@link #fine(int, BlockLayout, int, int, int)} with the fine layout moved by {@code
   * fineOffset}, so that one layout per field instance serves every block.
   */
  public BoundaryTableBuilder fine(int b, BlockLayout fine, int fineOffset, int originI,
      int originJ, int originK) {
    checkIndex(b);
    if (fine.ncomp() != get(b, BoundaryTable.NCOMP)) {
      throw new IllegalArgumentException("fine ncomp differs from var: b=" + b + " fine.ncomp="
          + fine.ncomp() + " var.ncomp=" + get(b, BoundaryTable.NCOMP));
    }
    setLayout(b, BoundaryTable.FINE_OFFSET, fine, fineOffset);
    set(b, BoundaryTable.FINE_ORIGIN_I, originI);
    set(b, BoundaryTable.FINE_ORIGIN_J, originJ);
    set(b, BoundaryTable.FINE_ORIGIN_K, originK);
    flags[b] |= FINE;
    return this;
  }

  /**
   * Sets the cell-centre coordinates of the fine layout and of var along x1, x2, x3 ({@code xmin}
   * is the position of face 0, so centre {@code idx} is at {@code xmin + (idx + 0.5) * dx}).
   * Without
   * this call the builder uses unit coordinates: coarse dx 1, fine dx 1/2, aligned through the
   * origins.
   */
  public BoundaryTableBuilder coordinates(int b, double[] fineXmin, double[] fineDx,
      double[] coarseXmin, double[] coarseDx) {
    checkIndex(b);
    if (fineXmin.length != 3 || fineDx.length != 3 || coarseXmin.length != 3
        || coarseDx.length != 3) {
      throw new IllegalArgumentException("coordinates need 3 values per array: b=" + b);
    }
    for (int d = 0; d < 3; d++) {
      coordinates(b, d, fineXmin[d], fineDx[d], coarseXmin[d], coarseDx[d]);
    }
    return this;
  }

  /**
   * {@link #coordinates(int, double[], double[], double[], double[])} along direction {@code
   * axis} alone (0, 1 or 2); give every direction its values.
   */
  public BoundaryTableBuilder coordinates(int b, int axis, double fineXmin, double fineDx,
      double coarseXmin, double coarseDx) {
    checkIndex(b);
    if (axis < 0 || axis > 2) {
      throw new IllegalArgumentException("axis must be 0, 1 or 2: axis=" + axis + " b=" + b);
    }
    setReal(b, BoundaryTable.FINE_XMIN1 + 2 * axis, fineXmin);
    setReal(b, BoundaryTable.FINE_DX1 + 2 * axis, fineDx);
    setReal(b, BoundaryTable.COARSE_XMIN1 + 2 * axis, coarseXmin);
    setReal(b, BoundaryTable.COARSE_DX1 + 2 * axis, coarseDx);
    flags[b] |= COORDINATES;
    return this;
  }

  /** Sets the value unload writes for a null channel. */
  public BoundaryTableBuilder defaultValue(int b, double value) {
    checkIndex(b);
    setReal(b, BoundaryTable.DEFAULT_VALUE, value);
    return this;
  }

  /** Sets the threshold at which load reports a boundary as non-zero. */
  public BoundaryTableBuilder sparseThreshold(int b, double threshold) {
    checkIndex(b);
    setReal(b, BoundaryTable.SPARSE_THRESHOLD, threshold);
    return this;
  }

  /**
   * Checks every refinement boundary against its fine layout and builds the table. A builder
   * filled to its capacity hands its arrays to the table (and copies them before any later
   * change); otherwise the table gets the first {@code size} values of each column.
   */
  public BoundaryTable build() {
    if (handedOver) {
      relayout(capacity); // build writes unit coordinates: not into an earlier table's arrays
    }
    check();
    if (size == capacity) {
      handedOver = true;
      return new BoundaryTable(size, columns, realColumns);
    }
    return copy(null);
  }

  /**
   * Checks and builds as {@link #build()} does, for a builder that is used again ({@link
   * #clear}): the table gets copies of the columns, written into {@code reuse}'s arrays when it
   * has exactly {@link #size()} boundaries (its per-step arrays start over and its columns
   * version moves on), otherwise into new ones. Only the task that owns {@code reuse}, between
   * its launches, may pass it; a cache rebuilt for the same boundaries then allocates nothing.
   */
  public BoundaryTable build(BoundaryTable reuse) {
    if (handedOver) {
      relayout(capacity);
    }
    check();
    return copy(reuse != null && reuse.size == size && size > 0 ? reuse : null);
  }

  /**
   * Forgets every boundary and keeps the arrays, for the next table of a reused builder: a row
   * added later starts over ({@link #add}, {@link #addCopies}), so nothing is cleared here.
   */
  public void clear() {
    size = 0;
  }

  /**
   * A method per run of 64 rows: this loop runs a few times per remesh and stays interpreted on
   * one CPU, while {@link #checkRows} is compiled in the first builds (see BoundaryTable).
   */
  private void check() {
    for (int b = 0; b < size; b += CHECK_RUN) {
      checkRows(b, Math.min(size, b + CHECK_RUN));
    }
  }

  /** Rows {@link #checkRows} checks per call. */
  private static final int CHECK_RUN = 64;

  private void checkRows(int from, int to) {
    for (int b = from; b < to; b++) {
      checkRow(b);
    }
  }

  private void checkRow(int b) {
    int op = get(b, BoundaryTable.OP);
    if (!BoundaryOp.usesFine(op) || (flags[b] & CHECKED) != 0) {
      return;
    }
    if ((flags[b] & FINE) == 0) {
      throw new IllegalArgumentException("refinement boundary without fine layout: b=" + b
          + " op=" + BoundaryOp.name(op));
    }
    for (int c = 0; c < row.length; c++) {
      row[c] = get(b, c);
    }
    RefinementReach.check(b, row, 0);
    if ((flags[b] & COORDINATES) == 0) {
      unitCoordinates(b);
    }
  }

  /** The first {@code size} rows as a table: into {@code into}'s arrays, or new ones if null. */
  private BoundaryTable copy(BoundaryTable into) {
    int[] ints = into != null ? into.ints : new int[size * BoundaryTable.INT_COLUMNS];
    double[] reals = into != null ? into.reals : new double[size * BoundaryTable.REAL_COLUMNS];
    copyColumns(columns, ints, BoundaryTable.INT_COLUMNS, size);
    copyColumns(realColumns, reals, BoundaryTable.REAL_COLUMNS, size);
    if (into == null) {
      return new BoundaryTable(size, ints, reals);
    }
    into.refilled();
    return into;
  }

  /**
   * Copies the first {@code size} rows of {@code count} columns of stride {@code capacity} into
   * {@code to}, whose columns have stride {@code toStride} ({@code int[]} or {@code double[]}).
   */
  private void copyColumns(Object from, Object to, int count, int toStride) {
    for (int c = 0; c < count; c++) {
      System.arraycopy(from, c * capacity, to, c * toStride, size);
    }
  }

  private void unitCoordinates(int b) {
    int ndim = get(b, BoundaryTable.NDIM);
    for (int d = 0; d < 3; d++) {
      boolean active = d < ndim;
      int origin = get(b, BoundaryTable.FINE_ORIGIN_I + d);
      setReal(b, BoundaryTable.COARSE_XMIN1 + 2 * d, 0.0);
      setReal(b, BoundaryTable.COARSE_DX1 + 2 * d, 1.0);
      setReal(b, BoundaryTable.FINE_XMIN1 + 2 * d, active ? -0.5 * origin : 0.0);
      setReal(b, BoundaryTable.FINE_DX1 + 2 * d, active ? 0.5 : 1.0);
    }
  }

  private void ensureCapacity(int needed) {
    if (needed > capacity) {
      relayout(Math.max(needed, 2 * capacity));
      flags = Arrays.copyOf(flags, capacity);
    } else if (handedOver) {
      relayout(capacity);
    }
  }

  /** New column arrays for {@code newCapacity} boundaries holding the rows so far. */
  private void relayout(int newCapacity) {
    int[] ints = new int[newCapacity * BoundaryTable.INT_COLUMNS];
    double[] reals = new double[newCapacity * BoundaryTable.REAL_COLUMNS];
    copyColumns(columns, ints, BoundaryTable.INT_COLUMNS, newCapacity);
    copyColumns(realColumns, reals, BoundaryTable.REAL_COLUMNS, newCapacity);
    columns = ints;
    realColumns = reals;
    capacity = newCapacity;
    handedOver = false;
  }

  /** Checks {@code b} before a change to its row (copying rows a table was handed first). */
  private void checkIndex(int b) {
    if (b < 0 || b >= size) {
      throw new IllegalArgumentException("no such boundary: b=" + b + " size=" + size);
    }
    if (handedOver) {
      relayout(capacity);
    }
    flags[b] &= ~CHECKED;
  }

  private int get(int b, int column) {
    return columns[column * capacity + b];
  }

  private void set(int b, int column, int value) {
    columns[column * capacity + b] = value;
  }

  /**
   * Writes {@code layout} moved by {@code moved} into the four columns from {@code offsetColumn}:
   * VAR_OFFSET, VAR_NI, VAR_NJ, VAR_NK or their FINE_ twins, which follow the same order.
   */
  private void setLayout(int b, int offsetColumn, BlockLayout layout, int moved) {
    set(b, offsetColumn, layout.offset() + moved);
    set(b, offsetColumn + 1, layout.ni());
    set(b, offsetColumn + 2, layout.nj());
    set(b, offsetColumn + 3, layout.nk());
  }

  private void setReal(int b, int column, double value) {
    realColumns[column * capacity + b] = value;
  }
}
