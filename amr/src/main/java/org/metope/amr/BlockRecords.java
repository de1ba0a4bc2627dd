package org.metope.amr;

import org.metope.mesh.Mesh;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldStorage;

/**
 * The flat record one transfer of a remesh carries (what Parthenon's {@code SendSameToSame},
 * {@code SendCoarseToFine} and {@code SendFineToCoarse} send, for all fields at once). Every
 * value is a double; flags and counters are small integers stored exactly.
 *
 * <pre>
 * SAME      | derefine count | per moving field: allocated, deallocation count |
 *           | per allocated moving field: base data block, then coarse buffer (if it has one) |
 * REFINED   | per refined field: allocated | per allocated one: the parent's cells that cover
 *           | the child's coarse buffer, ghosts included (planes x cnk x cnj x cni) |
 * DEREFINED | per refined field: allocated | per allocated one: the child's coarse buffer
 *           | interior, restricted just before (planes x cnx3 x cnx2 x cnx1, one more along
 *           | each active axis for a face, edge or node field) |
 * </pre>
 *
 * Moving fields are Parthenon's remesh fields ({@code vars_cc_}): independent, filled in ghosts
 * or forced through remesh communication ({@link org.metope.mesh.field.Metadata#isRefined()}).
 * Other fields (derived ones, recomputed after a remesh) start as new storage does, zero or
 * unallocated when sparse, as on a block Parthenon moves to another rank; so a result never
 * depends on where a block was. A refined field is a moving field with a coarse buffer: only
 * those move between levels. A face, edge or node field's planes are its elements' components. A
 * {@code FINE} field's parent cells and quadrants are counted in its own cells, twice the block's
 * along each active axis (its coarse buffer has the block's cells).
 * Unpacking allocates sparse fields the sender had allocated; a merged block's field is allocated
 * when any child's was.
 */
final class BlockRecords {
  private final int numFields;
  private final boolean[] moving;
  /** Which fields are {@code FINE} (by field id). */
  private final boolean[] fine;
  private final int nghost;
  /** Interior cells per axis of a block (1 on inactive axes). */
  private final int[] nx;
  private final boolean[] active;

  /**
   * Records for blocks of {@code nx} interior cells per axis (1 when inactive) with {@code nghost}
   * ghosts, for fields of which those flagged in {@code moving} (by field id) move with blocks
   * and those flagged in {@code fine} are {@code FINE}.
   */
  BlockRecords(boolean[] moving, boolean[] fine, int[] nx, boolean[] active, int nghost) {
    this.numFields = moving.length;
    this.moving = moving.clone();
    this.fine = fine.clone();
    this.nx = nx.clone();
    this.active = active.clone();
    this.nghost = nghost;
  }

  /**
   * Records for {@code mesh}'s blocks and fields (its fields initialised): the moving fields are
   * its refined ones ({@link org.metope.mesh.field.Metadata#isRefined()}).
   */
  static BlockRecords forMesh(Mesh mesh) {
    int[] nx = new int[3];
    boolean[] active = new boolean[3];
    for (int axis = 0; axis < 3; axis++) {
      active[axis] = axis < mesh.ndim();
      nx[axis] = active[axis] ? mesh.config().blockNx(axis) : 1;
    }
    boolean[] moving = new boolean[mesh.resolvedPackages().numFields()];
    boolean[] fine = new boolean[moving.length];
    for (int f = 0; f < moving.length; f++) {
      moving[f] = mesh.resolvedPackages().field(f).metadata().isRefined();
      fine[f] = mesh.resolvedPackages().field(f).metadata().isFine();
    }
    return new BlockRecords(moving, fine, nx, active, mesh.nghost());
  }

  /** The longest record of {@code kind} for a storage laid out like {@code layout}. */
  int maxLength(ArenaLayout layout, RemeshPlan.Kind kind) {
    int length = kind == RemeshPlan.Kind.SAME ? 1 : 0;
    for (int f = 0; f < numFields; f++) {
      if (!moving[f]) {
        continue;
      }
      int coarse = layout.coarseInstance(f);
      switch (kind) {
        case SAME -> length += 2 + layout.blockLength(layout.dataInstance(f, 0))
            + (coarse >= 0 ? layout.blockLength(coarse) : 0);
        case REFINED -> length += coarse >= 0 ? 1 + layout.blockLength(coarse) : 0;
        case DEREFINED -> length += coarse >= 0
            ? 1 + planes(layout, coarse) * coarseInteriorCells(layout, coarse) : 0;
        default -> throw new IllegalStateException("kind=" + kind);
      }
    }
    return length;
  }

  /** The exact length of the record of {@code kind} that {@code block} of {@code from} packs. */
  int length(FieldStorage from, int block, RemeshPlan.Kind kind) {
    ArenaLayout layout = from.layout();
    int length = kind == RemeshPlan.Kind.SAME ? 1 : 0;
    for (int f = 0; f < numFields; f++) {
      if (!moving[f]) {
        continue;
      }
      int coarse = layout.coarseInstance(f);
      boolean allocated = from.isAllocated(f, block);
      switch (kind) {
        case SAME -> length += 2 + (allocated ? layout.blockLength(layout.dataInstance(f, 0))
            + (coarse >= 0 ? layout.blockLength(coarse) : 0) : 0);
        case REFINED -> length += coarse >= 0 ? 1 + (allocated ? layout.blockLength(coarse) : 0)
            : 0;
        case DEREFINED -> length += coarse >= 0
            ? 1 + (allocated ? planes(layout, coarse) * coarseInteriorCells(layout, coarse) : 0)
            : 0;
        default -> throw new IllegalStateException("kind=" + kind);
      }
    }
    return length;
  }

  private int coarseInteriorCells(ArenaLayout layout, int coarse) {
    int[] extent = coarseInterior(layout, coarse);
    return extent[0] * extent[1] * extent[2];
  }

  /** Planes of an instance's block: every element's components. */
  private static int planes(ArenaLayout layout, int inst) {
    return layout.numElements(inst) * layout.numComponents(inst);
  }

  /**
   * Writes, for every field with a coarse buffer, whether it is allocated on {@code block}: the
   * header of REFINED and DEREFINED records.
   */
  private int writeRefinedFlags(FieldStorage from, int block, double[] out, int pos) {
    ArenaLayout layout = from.layout();
    for (int f = 0; f < numFields; f++) {
      if (layout.coarseInstance(f) >= 0) {
        out[pos++] = from.isAllocated(f, block) ? 1 : 0;
      }
    }
    return pos;
  }

  /**
   * Reads the header {@link #writeRefinedFlags} wrote into {@code allocated}, allocating on
   * {@code block} of {@code to} every sparse field the record carries; returns the next position.
   */
  private int readRefinedFlags(FieldStorage to, int block, double[] in, int pos,
      boolean[] allocated) {
    ArenaLayout layout = to.layout();
    for (int f = 0; f < numFields; f++) {
      if (layout.coarseInstance(f) >= 0) {
        allocated[f] = in[pos++] != 0;
        if (allocated[f] && !to.isAllocated(f, block)) {
          to.allocateSparse(f, block);
        }
      }
    }
    return pos;
  }

  // ---- SAME -------------------------------------------------------------------------------

  /** Packs block {@code block} of {@code from} at {@code out[pos]}; returns the next position. */
  int packSame(FieldStorage from, int block, int derefineCount, double[] out, int pos) {
    ArenaLayout layout = from.layout();
    double[] data = from.data();
    out[pos++] = derefineCount;
    for (int f = 0; f < numFields; f++) {
      if (moving[f]) {
        out[pos++] = from.isAllocated(f, block) ? 1 : 0;
        out[pos++] = from.deallocationCount(f, block);
      }
    }
    for (int f = 0; f < numFields; f++) {
      if (!moving[f] || !from.isAllocated(f, block)) {
        continue;
      }
      pos = copyOut(data, layout, layout.dataInstance(f, 0), block, out, pos);
      if (layout.coarseInstance(f) >= 0) {
        pos = copyOut(data, layout, layout.coarseInstance(f), block, out, pos);
      }
    }
    return pos;
  }

  /**
   * Unpacks a SAME record at {@code in[pos]} into block {@code block} of {@code to}; stores the
   * derefine count in {@code derefineCounts[block]}; returns the next position.
   */
  int unpackSame(FieldStorage to, int block, int[] derefineCounts, double[] in, int pos) {
    derefineCounts[block] = (int) in[pos++];
    boolean[] allocated = new boolean[numFields];
    for (int f = 0; f < numFields; f++) {
      if (!moving[f]) {
        continue;
      }
      allocated[f] = in[pos++] != 0;
      to.setDeallocationCount(f, block, (int) in[pos++]);
      if (allocated[f] && !to.isAllocated(f, block)) {
        to.allocateSparse(f, block);
      }
    }
    ArenaLayout layout = to.layout();
    double[] data = to.data();
    for (int f = 0; f < numFields; f++) {
      if (!allocated[f]) {
        continue;
      }
      pos = copyIn(in, pos, data, layout, layout.dataInstance(f, 0), block);
      if (layout.coarseInstance(f) >= 0) {
        pos = copyIn(in, pos, data, layout, layout.coarseInstance(f), block);
      }
    }
    return pos;
  }

  private static int copyOut(double[] data, ArenaLayout layout, int inst, int block, double[] out,
      int pos) {
    int length = layout.blockLength(inst);
    System.arraycopy(data, layout.offset(inst, block), out, pos, length);
    return pos + length;
  }

  private static int copyIn(double[] in, int pos, double[] data, ArenaLayout layout, int inst,
      int block) {
    int length = layout.blockLength(inst);
    System.arraycopy(in, pos, data, layout.offset(inst, block), length);
    return pos + length;
  }

  // ---- REFINED ------------------------------------------------------------------------------

  /**
   * Packs, from parent block {@code block} of {@code from}, the cells that cover the coarse
   * buffer of its child {@code child}; returns the next position.
   */
  int packRefined(FieldStorage from, int block, int child, double[] out, int pos) {
    ArenaLayout layout = from.layout();
    pos = writeRefinedFlags(from, block, out, pos);
    double[] data = from.data();
    for (int f = 0; f < numFields; f++) {
      int coarse = layout.coarseInstance(f);
      if (coarse < 0 || !from.isAllocated(f, block)) {
        continue;
      }
      int inst = layout.dataInstance(f, 0);
      int[] start = childStart(child, 0, fine[f]);
      pos = copyBox(data, layout.offset(inst, block), layout.nj(inst), layout.nk(inst),
          layout.ni(inst), start, out, pos, planes(layout, coarse),
          new int[] {layout.ni(coarse), layout.nj(coarse), layout.nk(coarse)}, true);
    }
    return pos;
  }

  /** Unpacks a REFINED record into the coarse buffers of block {@code block} of {@code to}. */
  int unpackRefined(FieldStorage to, int block, double[] in, int pos) {
    ArenaLayout layout = to.layout();
    boolean[] allocated = new boolean[numFields];
    pos = readRefinedFlags(to, block, in, pos, allocated);
    double[] data = to.data();
    for (int f = 0; f < numFields; f++) {
      if (allocated[f]) {
        pos = copyIn(in, pos, data, layout, layout.coarseInstance(f), block);
      }
    }
    return pos;
  }

  // ---- DEREFINED ----------------------------------------------------------------------------

  /** Packs the coarse buffer interior of child block {@code block} of {@code from}. */
  int packDerefined(FieldStorage from, int block, double[] out, int pos) {
    ArenaLayout layout = from.layout();
    pos = writeRefinedFlags(from, block, out, pos);
    double[] data = from.data();
    for (int f = 0; f < numFields; f++) {
      int coarse = layout.coarseInstance(f);
      if (coarse < 0 || !from.isAllocated(f, block)) {
        continue;
      }
      pos = copyBox(data, layout.offset(coarse, block), layout.nj(coarse), layout.nk(coarse),
          layout.ni(coarse), interiorStart(), out, pos, planes(layout, coarse),
          coarseInterior(layout, coarse), true);
    }
    return pos;
  }

  /**
   * Unpacks a DEREFINED record of child {@code child} into its quadrant of the base data of parent
   * block {@code block} of {@code to}.
   */
  int unpackDerefined(FieldStorage to, int block, int child, double[] in, int pos) {
    ArenaLayout layout = to.layout();
    boolean[] allocated = new boolean[numFields];
    pos = readRefinedFlags(to, block, in, pos, allocated);
    double[] data = to.data();
    for (int f = 0; f < numFields; f++) {
      if (!allocated[f]) {
        continue;
      }
      int inst = layout.dataInstance(f, 0);
      pos = copyBox(data, layout.offset(inst, block), layout.nj(inst), layout.nk(inst),
          layout.ni(inst), childStart(child, nghost, fine[f]), in, pos, planes(layout, inst),
          coarseInterior(layout, layout.coarseInstance(f)), false);
    }
    return pos;
  }

  // ---- boxes ----------------------------------------------------------------------------------

  /**
   * Where child {@code child}'s half starts in its parent's index space (a {@code FINE} field's
   * when {@code fineField}) along each axis: {@code base} plus half the interior for an upper
   * child (0 on inactive axes).
   */
  private int[] childStart(int child, int base, boolean fineField) {
    int[] start = new int[3];
    for (int axis = 0; axis < 3; axis++) {
      boolean upper = ((child >> axis) & 1) == 1;
      int interior = fineField ? 2 * nx[axis] : nx[axis];
      start[axis] = active[axis] ? base + (upper ? interior / 2 : 0) : 0;
    }
    return start;
  }

  private int[] interiorStart() {
    int[] start = new int[3];
    for (int axis = 0; axis < 3; axis++) {
      start[axis] = active[axis] ? nghost : 0;
    }
    return start;
  }

  /**
   * The coarse interior a DEREFINED record carries per plane: the coarse cells, and for a face,
   * edge or node field the top layer of its elements too (its coarse buffer is one longer along
   * every active axis; siblings carry their shared layer alike, with equal values).
   */
  private int[] coarseInterior(ArenaLayout layout, int coarse) {
    int[] extent = {layout.ni(coarse), layout.nj(coarse), layout.nk(coarse)};
    for (int axis = 0; axis < 3; axis++) {
      extent[axis] = active[axis] ? extent[axis] - 2 * nghost : 1;
    }
    return extent;
  }

  /**
   * Copies a box of {@code extent} cells (i, j, k) of every component between a block (at {@code
   * blockOffset} in {@code arena}, extents {@code ni, nj, nk}, box starting at {@code start}) and
   * the flat run {@code flat[pos..]} (component, k, j, i order): out of the block when {@code
   * toFlat}, into it otherwise. Returns the position after the run.
   */
  private static int copyBox(double[] arena, int blockOffset, int nj, int nk, int ni,
      int[] start, double[] flat, int pos, int ncomp, int[] extent, boolean toFlat) {
    for (int c = 0; c < ncomp; c++) {
      for (int k = 0; k < extent[2]; k++) {
        for (int j = 0; j < extent[1]; j++) {
          int row = blockOffset + ((c * nk + k + start[2]) * nj + j + start[1]) * ni + start[0];
          if (toFlat) {
            System.arraycopy(arena, row, flat, pos, extent[0]);
          } else {
            System.arraycopy(flat, pos, arena, row, extent[0]);
          }
          pos += extent[0];
        }
      }
    }
    return pos;
  }
}
