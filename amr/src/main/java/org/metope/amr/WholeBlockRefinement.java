package org.metope.amr;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.Arrays;
import java.util.List;
import org.metope.kernels.table.BlockLayout;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;
import org.metope.kernels.table.BoundaryTableBuilder;
import org.metope.kernels.table.IndexBox;
import org.metope.kernels.KernelBackend;
import org.metope.mesh.FineSide;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.RefinementOps;
import org.metope.mesh.forest.BlockOwnership;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * Restriction and prolongation of whole blocks through the kernels, as Parthenon's remesh does
 * with {@code ProResInfo::GetInteriorRestrict} and {@code GetInteriorProlongate}: one {@link
 * BoundaryTable} entry per (block, field), one launch for all of them.
 *
 * <ul>
 *   <li>{@link #restrict}: a block about to merge into its parent averages its interior into its
 *       own coarse buffer (box: the coarse interior); the remesh then sends that interior to the
 *       parent.
 *   <li>{@link #prolongate}: a new block whose coarse buffer holds its parent's cells (interior and
 *       ghosts, copied there by the remesh) spreads them over its cells with the minmod-limited
 *       slopes of ghost prolongation (box: the coarse interior and {@code nghost / 2} coarse cells
 *       beyond on every active axis, as Parthenon's, which also fills the fine ghosts; the ghost
 *       exchange that follows overwrites those).
 * </ul>
 *
 * Both use the block's own coordinates and its coarsened ones, as the ghost exchange does, so the
 * arithmetic is Parthenon's to the bit. A face, edge or node field's entry covers its elements'
 * box (one longer at the top along every active axis) and is restricted and prolongated element
 * by element; its prolongation has entries inside the coarse elements too (the field's internal
 * operator, Toth and Roe's for a divergence-keeping face field), launched after the others.
 */
final class WholeBlockRefinement {
  private final BoundaryTableBuilder builder = new BoundaryTableBuilder();
  /** Entries of the restriction or the (shared) prolongation. */
  private final IntArrayList shared = new IntArrayList();
  /** Entries of the prolongation inside coarse elements, launched after {@link #shared}. */
  private final IntArrayList internal = new IntArrayList();
  private final FieldStorage storage;
  private final int op;
  private final int ndim;
  private final int nghost;

  /** Whether {@link #run} launches only the entries inside coarse elements. */
  private boolean insidesOnly;

  private WholeBlockRefinement(FieldStorage storage, int op, int ndim, int nghost) {
    this.storage = storage;
    this.op = op;
    this.ndim = ndim;
    this.nghost = nghost;
  }

  /** A restriction of whole blocks of {@code storage} (blocks added with {@link #add}). */
  static WholeBlockRefinement restriction(FieldStorage storage, int ndim, int nghost) {
    return new WholeBlockRefinement(storage, BoundaryOp.RESTRICT, ndim, nghost);
  }

  /** A prolongation of whole blocks of {@code storage} (blocks added with {@link #add}). */
  static WholeBlockRefinement prolongation(FieldStorage storage, int ndim, int nghost) {
    return new WholeBlockRefinement(storage, BoundaryOp.PROLONGATE, ndim, nghost);
  }

  /**
   * The prolongation inside coarse elements alone, of face, edge and node fields whose shared
   * fine values are already in place (blocks added with {@link #add}; cell fields add nothing).
   */
  static WholeBlockRefinement insides(FieldStorage storage, int ndim, int nghost) {
    WholeBlockRefinement w = new WholeBlockRefinement(storage, BoundaryOp.PROLONGATE, ndim,
        nghost);
    w.insidesOnly = true;
    return w;
  }

  /** Adds field {@code field} of storage block {@code block}, which must be allocated. */
  void add(int block, int field) {
    ArenaLayout layout = storage.layout();
    int coarseInst = layout.coarseInstance(field);
    int dataInst = layout.dataInstance(field, 0);
    BlockLayout coarse = layout(layout, coarseInst, block);
    BlockLayout fine = layout(layout, dataInst, block);
    Metadata metadata = storage.state().field(field).metadata();
    // A FINE field's coarse space is the block's own cells (Parthenon's cellbounds).
    Box box = new Box(storage.block(block), metadata.isFine(), nghost,
        op == BoundaryOp.PROLONGATE ? nghost / 2 : 0);
    List<TopologicalElement> elements = metadata.elements();
    boolean cell = elements.get(0) == TopologicalElement.CC;
    int[] top = new int[3];
    for (int axis = 0; axis < 3; axis++) {
      top[axis] = cell || !box.active[axis] ? 0 : 1;
    }
    int b = builder.add(op, ndim, coarse, box.indexBox(top), 0);
    box.place(builder, b, fine);
    if (cell) {
      builder.slopes(b, metadata.refinementOps().prolongation().tableSlopes());
      shared.add(b);
      return;
    }
    int[] codes = new int[elements.size()];
    int[] owned = new int[elements.size()];
    for (int el = 0; el < codes.length; el++) {
      codes[el] = code(elements.get(el));
      owned[el] = BlockOwnership.withinElement(elements.get(el), box.active);
    }
    int perElement = layout.numComponents(dataInst);
    builder.elements(b, perElement, owned).elementCodes(b, codes);
    shared.add(b);
    if (op == BoundaryOp.PROLONGATE) {
      addInsides(metadata, coarse, fine, box, perElement, codes, owned);
    }
  }

  /**
   * The prolongation entries inside the coarse elements of a face, edge or node field, one per
   * inner element its operator fills: every element Toth and Roe's, else those that lie in the
   * field's elements. {@code owned} is the shared entry's, overwritten (every value owned).
   */
  private void addInsides(Metadata metadata, BlockLayout coarse, BlockLayout fine, Box box,
      int perElement, int[] codes, int[] owned) {
    List<TopologicalElement> elements = metadata.elements();
    boolean toth = metadata.refinementOps().internal()
        == RefinementOps.InternalProlongation.TOTH_AND_ROE;
    Arrays.fill(owned, BoundaryTable.OWNED_ALL);
    for (TopologicalElement inner : TopologicalElement.FILL_ORDER) {
      if (toth ? inner != TopologicalElement.CC
          : !TopologicalElement.anyLiesIn(elements, inner, ndim)) {
        continue;
      }
      int[] end = new int[3];
      for (int axis = 0; axis < 3; axis++) {
        end[axis] = box.active[axis] ? inner.offset(axis) : 0;
      }
      int q = builder.add(toth ? BoundaryOp.INTERNAL_TOTH_AND_ROE : BoundaryOp.INTERNAL_AVERAGE,
          ndim, coarse, box.indexBox(end), 0);
      box.place(builder, q, fine);
      builder.elements(q, perElement, owned).elementCodes(q, codes).innerElement(q, code(inner));
      internal.add(q);
    }
  }

  /**
   * A block's coarse index box of a whole-block entry (the coarse interior and {@code reach}
   * coarse cells beyond it on every active axis) and its fine side ({@link FineSide}).
   */
  private static final class Box {
    final int[] start = new int[3];
    final int[] end = new int[3];
    final boolean[] active = new boolean[3];
    private final MeshBlock block;
    private final boolean fineField;
    private final int nghost;

    Box(MeshBlock block, boolean fineField, int nghost, int reach) {
      this.block = block;
      this.fineField = fineField;
      this.nghost = nghost;
      for (int axis = 0; axis < 3; axis++) {
        active[axis] = !block.region().isSymmetry(axis);
        int nx = block.region().nx(axis);
        int cells = active[axis] ? (fineField ? nx : Math.max(1, nx / 2)) : 1;
        start[axis] = active[axis] ? nghost - reach : 0;
        end[axis] = active[axis] ? nghost + cells - 1 + reach : 0;
      }
    }

    /** The box, its top along each axis moved by {@code extra}. */
    IndexBox indexBox(int[] extra) {
      return new IndexBox(start[0], end[0] + extra[0], start[1], end[1] + extra[1], start[2],
          end[2] + extra[2]);
    }

    /** Gives entry {@code row} the block's fine side: {@code fine}, origin and coordinates. */
    void place(BoundaryTableBuilder builder, int row, BlockLayout fine) {
      FineSide.place(builder, row, block, fineField, nghost, fine, 0);
    }
  }

  private static int code(TopologicalElement el) {
    return BoundaryTable.elementCode(el.offsetI(), el.offsetJ(), el.offsetK());
  }

  private static BlockLayout layout(ArenaLayout layout, int inst, int block) {
    int offset = layout.offset(inst, block);
    if (offset < 0) {
      throw new IllegalStateException("unallocated field in a whole-block refinement: instance="
          + inst + " block=" + block);
    }
    return new BlockLayout(offset, layout.numElements(inst) * layout.numComponents(inst),
        layout.nk(inst), layout.nj(inst), layout.ni(inst));
  }

  /** Number of (block, field) entries added. */
  int size() {
    return builder.size();
  }

  /**
   * Runs every entry in one launch on {@code backend}; nothing when there is none. The remesh
   * goes on on the host, so a device-resident backend copies the arena back after the launch.
   */
  void run(KernelBackend backend) {
    if (builder.size() == 0) {
      return;
    }
    BoundaryTable table = builder.build();
    double[] data = storage.data();
    table.checkArenas(data.length, Integer.MAX_VALUE); // no buffer: these launches read none
    int[] first = shared.toIntArray();
    if (op == BoundaryOp.PROLONGATE) {
      if (!insidesOnly) {
        backend.prolongate(table, first, first.length, data);
      }
      if (!internal.isEmpty()) {
        // Inside coarse elements after the shared values they read (face, edge, node fields).
        backend.prolongate(table, internal.toIntArray(), internal.size(), data);
      }
    } else {
      backend.restrictBlocks(table, first, first.length, data);
    }
    if (backend.resident()) {
      backend.acquireHost(data, true);
      backend.releaseHost(data);
    }
  }
}
