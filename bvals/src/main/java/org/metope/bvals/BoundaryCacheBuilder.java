package org.metope.bvals;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.metope.bvals.channel.BoundaryType;
import org.metope.bvals.channel.ChannelKey;
import org.metope.bvals.channel.ChannelVector;
import org.metope.bvals.channel.CommBuffer;
import org.metope.kernels.table.BlockLayout;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;
import org.metope.kernels.table.BoundaryTableBuilder;
import org.metope.kernels.table.IndexBox;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.NeighborBlock;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.RefinementOps;
import org.metope.mesh.forest.BlockOwnership;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;

/**
 * Builds the {@link BvarsSubCache} of one partition, boundary type and direction: the only place
 * that walks blocks, fields and neighbours (Parthenon's {@code RebuildBufferCache} with {@code
 * BndInfo::GetSendBndInfo}/{@code GetSetBndInfo} and the {@code ProResInfo} creators).
 *
 * <p>Boundaries are enumerated like Parthenon's {@code ForEachBoundary}: blocks of the partition in
 * order, then fields in id order, then each block's neighbours in order.
 *
 * <p>What each boundary does:
 *
 * <ul>
 *   <li>send to a same-level or finer neighbour: copy the block's cells into the buffer;
 *   <li>send to a coarser neighbour: restrict the block's cells into its coarse buffer (a
 *       refinement entry), then copy from the coarse buffer, as Parthenon does, so the coarse
 *       buffer's interior next to the neighbour is up to date for this block's own prolongation;
 *   <li>receive from a same-level or finer neighbour: copy into the ghosts; on a block that also
 *       has a coarser neighbour, restrict those ghosts into the coarse buffer afterwards (they
 *       are part of the prolongation stencils);
 *   <li>receive from a coarser neighbour: copy into the coarse buffer, then prolongate into the
 *       ghosts;
 *   <li>flux correction: the fine block sends the area-weighted average of its face fluxes on the
 *       shared face; the coarse block copies them over its own face fluxes.
 * </ul>
 */
final class BoundaryCacheBuilder {
  private final InOneBoundaryCommunication comm;

  BoundaryCacheBuilder(InOneBoundaryCommunication comm) {
    this.comm = comm;
  }

  /** One boundary found by the enumeration. */
  private record Boundary(int block, MeshBlock meshBlock, FieldInfo field, NeighborBlock nb) {}

  /** The boundaries of {@code md} of the given type, in cache order. */
  List<Boundary> enumerate(MeshData md, BoundaryType type) {
    List<Boundary> out = new ArrayList<>();
    int myRank = comm.myRank();
    for (int b = 0; b < md.numBlocks(); b++) {
      MeshBlock block = md.block(b);
      for (FieldInfo field : type.isFluxCorrection() ? comm.fluxFields() : comm.ghostFields()) {
        for (NeighborBlock nb : block.neighbors()) {
          if (type.covers(nb, myRank)) {
            out.add(new Boundary(b, block, field, nb));
          }
        }
      }
    }
    return out;
  }

  /**
   * Gives each sparse send buffer outside coalesced messages a slice where its field is allocated
   * on the sending block, and frees the others' when nothing uses them (Parthenon's send buffers
   * follow allocation the same way); before the send plan is built from their offsets.
   */
  void prepareSendBuffers(MeshData md, BoundaryType type) {
    for (Boundary bd : enumerate(md, type)) {
      CommBuffer buffer = channel(bd, type, true);
      if (!buffer.isSparse() || buffer.message() != null) {
        continue;
      }
      if (md.isAllocated(bd.field.id(), bd.block)) {
        buffer.allocate();
      } else {
        buffer.freeIfIdle();
      }
    }
  }

  /** Builds the send ({@code sender}) or receive plan of {@code type} for {@code md}. */
  BvarsSubCache build(MeshData md, BoundaryType type, boolean sender) {
    List<Boundary> boundaries = enumerate(md, type);
    int n = boundaries.size();
    BoundaryTableBuilder table = new BoundaryTableBuilder(n);
    BoundaryTableBuilder prores = new BoundaryTableBuilder(n);
    IntArrayList[] subsets = {new IntArrayList(), new IntArrayList(), new IntArrayList()};
    IntArrayList sparse = new IntArrayList();
    List<CommBuffer> buffers = new ArrayList<>(n);
    int[] blocks = new int[n];
    int[] fields = new int[n];
    boolean[] allocated = new boolean[n];
    IntArrayList proresOwner = new IntArrayList();
    for (int i = 0; i < n; i++) {
      Boundary bd = boundaries.get(i);
      CommBuffer buffer = channel(bd, type, sender);
      buffers.add(buffer);
      blocks[i] = bd.block;
      fields[i] = bd.field.id();
      allocated[i] = md.isAllocated(bd.field.id(), bd.block);
      if (buffer.isSparse()) {
        sparse.add(i);
      }
      int bufferOffset = buffer.isAllocated() ? buffer.buffer().offset() : 0;
      if (type.isFluxCorrection()) {
        addFluxBoundary(md, bd, sender, bufferOffset, table);
      } else if (sender) {
        addSendBoundary(md, bd, bufferOffset, table, prores,
            subsets[BvarsSubCache.RESTRICTION]);
      } else {
        addReceiveBoundary(md, bd, bufferOffset, table, prores, subsets);
      }
      while (proresOwner.size() < prores.size()) {
        proresOwner.add(i);
      }
      // Row i of the table is boundary i: each boundary adds exactly one row.
      Metadata m = bd.field.metadata();
      table.defaultValue(i, bd.field.isSparse() ? m.defaultValue() : 0.0);
      table.sparseThreshold(i, bd.field.isSparse() ? comm.sparse().allocationThreshold(m) : 0.0);
    }
    BoundaryTable built = table.build();
    for (int i = 0; i < n; i++) {
      built.allocated[i] = allocated[i] ? 1 : 0;
    }
    BoundaryTable proresTable = prores.build();
    // A refinement row works on its boundary's field: skipped, like the boundary, while the
    // field is unallocated on that block (its offsets are placeholders then).
    for (int r = 0; r < proresTable.size; r++) {
      proresTable.allocated[r] = allocated[proresOwner.getInt(r)] ? 1 : 0;
    }
    ChannelVector channels = new ChannelVector(buffers, comm.postingOrder(),
        ((long) md.partition() << 8) ^ (type.ordinal() << 1) ^ (sender ? 1 : 0));
    return new BvarsSubCache(type, sender, built, channels, blocks, fields, sparse.toIntArray(),
        proresTable, new int[][] {subsets[0].toIntArray(), subsets[1].toIntArray(),
            subsets[2].toIntArray()},
        md.allocationVersion(), comm.arena().layoutVersion());
  }

  private CommBuffer channel(Boundary bd, BoundaryType type, boolean sender) {
    ChannelKey key = sender
        ? new ChannelKey(bd.meshBlock.gid(), bd.nb.gid(), bd.field.id(), bd.nb.element().index())
        : new ChannelKey(bd.nb.gid(), bd.meshBlock.gid(), bd.field.id(),
            bd.nb.element().reverse().index());
    return comm.registry().map(type.kind()).require(key);
  }

  /**
   * The box of a same-level or cross-level value boundary of {@code field} on {@code block}: the
   * cell box, or for a face, edge or node field the box of all its elements ({@link
   * BoundaryIndices#forElements}).
   */
  static IndexBox valueBox(MeshBlock block, NeighborBlock nb, FieldInfo field,
      BoundaryIndices.Range range) {
    IndexBox cells = BoundaryIndices.calc(block, nb, range, false, 0);
    return isCell(field) ? cells : BoundaryIndices.forElements(cells, block);
  }

  private static boolean isCell(FieldInfo field) {
    return field.metadata().elements().get(0) == TopologicalElement.CC;
  }

  /**
   * Which box cells a receiver writes, per element of a face, edge or node field: those the
   * sender owns on a shared face, edge or corner (Parthenon's ownership mask), all others.
   */
  private static int[] ownedByElement(Boundary bd) {
    List<TopologicalElement> elements = bd.field.metadata().elements();
    int[] owned = new int[elements.size()];
    for (int e = 0; e < owned.length; e++) {
      owned[e] = senderOwns(bd, elements.get(e))
          & BlockOwnership.withinElement(elements.get(e), active(bd.meshBlock));
    }
    return owned;
  }

  /**
   * The box cells of element {@code el} whose values the sender of {@code bd} owns (Parthenon's
   * {@code GetIndexRangeMaskFromOwnership} as {@code CalcIndices} calls it). From a coarser
   * sender the box lies at one corner of the sender's part, never across a whole face or edge:
   * along an axis with no offset, the box's end away from the block's place in its parent is
   * deep in the sender.
   */
  private static int senderOwns(Boundary bd, TopologicalElement el) {
    LogicalLocation sender = bd.nb.loc();
    int ownership = BlockOwnership.of(sender,
        bd.meshBlock.mesh().forest().findNeighbors(sender));
    int[] ox = new int[3];
    for (int axis = 0; axis < 3; axis++) {
      ox[axis] = -bd.nb.element().offset(axis);
      if (ox[axis] == 0 && bd.nb.isCoarser()) {
        ox[axis] = (bd.meshBlock.loc().l(axis) & 1L) == 1L ? 1 : -1;
      }
    }
    return BlockOwnership.elementMask(el, ownership, ox[0], ox[1], ox[2]);
  }

  /** The element codes of a face, edge or node field's planes ({@link BoundaryTable#ELEMENT_0}). */
  private static int[] elementCodes(FieldInfo field) {
    List<TopologicalElement> elements = field.metadata().elements();
    int[] codes = new int[elements.size()];
    for (int e = 0; e < codes.length; e++) {
      codes[e] = code(elements.get(e));
    }
    return codes;
  }

  private static int code(TopologicalElement el) {
    return BoundaryTable.elementCode(el.offsetI(), el.offsetJ(), el.offsetK());
  }

  /**
   * Marks refinement row {@code r} as one of a face, edge or node field: its planes are the
   * field's elements, with {@code owned} masks (restriction ignores them).
   */
  private static void elementRow(BoundaryTableBuilder t, int r, FieldInfo field, int[] owned) {
    t.elements(r, field.numComponents(), owned);
    t.elementCodes(r, elementCodes(field));
  }

  private static int[] allOwned(FieldInfo field) {
    int[] owned = new int[field.metadata().elements().size()];
    Arrays.fill(owned, BoundaryTable.OWNED_ALL);
    return owned;
  }

  private void addSendBoundary(MeshData md, Boundary bd, int bufferOffset,
      BoundaryTableBuilder table, BoundaryTableBuilder prores, IntArrayList restrictSubset) {
    IndexBox box = valueBox(bd.meshBlock, bd.nb, bd.field, BoundaryIndices.Range.SEND);
    int ndim = md.block(0).mesh().ndim();
    if (bd.nb.isCoarser()) {
      BlockLayout coarse = coarseLayout(md, bd.field.id(), bd.block);
      table.add(BoundaryOp.COPY, ndim, coarse, box, bufferOffset);
      int r = prores.add(BoundaryOp.RESTRICT, ndim, coarse, box, 0);
      fine(prores, r, md, bd, dataLayout(md, bd.field.id(), bd.block));
      if (!isCell(bd.field)) {
        elementRow(prores, r, bd.field, allOwned(bd.field));
      }
      restrictSubset.add(r);
    } else {
      table.add(BoundaryOp.COPY, ndim, dataLayout(md, bd.field.id(), bd.block), box, bufferOffset);
    }
  }

  private void addReceiveBoundary(MeshData md, Boundary bd, int bufferOffset,
      BoundaryTableBuilder table, BoundaryTableBuilder prores, IntArrayList[] subsets) {
    MeshBlock block = bd.meshBlock;
    int ndim = block.mesh().ndim();
    IndexBox box = valueBox(block, bd.nb, bd.field, BoundaryIndices.Range.RECEIVE);
    BlockLayout data = dataLayout(md, bd.field.id(), bd.block);
    BlockLayout var = bd.nb.isCoarser() ? coarseLayout(md, bd.field.id(), bd.block) : data;
    int row = table.add(BoundaryOp.COPY, ndim, var, box, bufferOffset);
    if (!isCell(bd.field)) {
      table.elements(row, bd.field.numComponents(), ownedByElement(bd));
    }
    if (!block.mesh().isMultilevel()) {
      return;
    }
    IndexBox cellBox =
        BoundaryIndices.calc(block, bd.nb, BoundaryIndices.Range.RECEIVE, true, 0);
    IndexBox coarseBox = isCell(bd.field) ? cellBox : BoundaryIndices.forElements(cellBox, block);
    BlockLayout coarse = coarseLayout(md, bd.field.id(), bd.block);
    if (bd.nb.isCoarser()) {
      int p = prores.add(BoundaryOp.PROLONGATE, ndim, coarse, coarseBox, 0);
      fine(prores, p, md, bd, data);
      subsets[BvarsSubCache.PROLONGATION].add(p);
      if (!isCell(bd.field)) {
        elementRow(prores, p, bd.field, ownedByElement(bd));
        addInternalRows(md, bd, cellBox, coarse, data, prores, subsets);
      }
    } else if (hasCoarserNeighbor(block)) {
      int r = prores.add(BoundaryOp.RESTRICT, ndim, coarse, coarseBox, 0);
      fine(prores, r, md, bd, data);
      if (!isCell(bd.field)) {
        elementRow(prores, r, bd.field, allOwned(bd.field));
      }
      subsets[BvarsSubCache.RESTRICTION].add(r);
    }
  }

  /**
   * Adds the internal prolongation rows of a face, edge or node field's boundary with a coarser
   * neighbour: one per coarse element that has some field element inside it (the cell only, for
   * Toth and Roe's operator), its box the cell box {@code cellBox} one longer at the top where
   * that element sits on cell boundaries, masked by the sender's ownership of that element.
   */
  private static void addInternalRows(MeshData md, Boundary bd, IndexBox cellBox,
      BlockLayout coarse, BlockLayout data, BoundaryTableBuilder prores, IntArrayList[] subsets) {
    MeshBlock block = bd.meshBlock;
    int ndim = block.mesh().ndim();
    boolean toth = bd.field.metadata().refinementOps().internal()
        == RefinementOps.InternalProlongation.TOTH_AND_ROE;
    for (TopologicalElement cel : TopologicalElement.FILL_ORDER) {
      if (toth ? cel != TopologicalElement.CC : !holdsSome(cel, bd.field, ndim)) {
        continue;
      }
      int[] top = {cel.offsetI(), cel.offsetJ(), cel.offsetK()};
      int[] end = {cellBox.ie(), cellBox.je(), cellBox.ke()};
      for (int axis = 0; axis < 3; axis++) {
        end[axis] += block.region().isSymmetry(axis) ? 0 : top[axis];
      }
      IndexBox box = new IndexBox(cellBox.is(), end[0], cellBox.js(), end[1], cellBox.ks(),
          end[2]);
      int q = prores.add(toth ? BoundaryOp.INTERNAL_TOTH_AND_ROE : BoundaryOp.INTERNAL_AVERAGE,
          ndim, coarse, box, 0);
      fine(prores, q, md, bd, data);
      int[] owned = allOwned(bd.field);
      Arrays.fill(owned, senderOwns(bd, cel));
      elementRow(prores, q, bd.field, owned);
      prores.innerElement(q, code(cel));
      subsets[BvarsSubCache.INTERNAL_PROLONGATION].add(q);
    }
  }

  private static boolean holdsSome(TopologicalElement cel, FieldInfo field, int ndim) {
    for (TopologicalElement el : field.metadata().elements()) {
      if (el.liesIn(cel, ndim)) {
        return true;
      }
    }
    return false;
  }

  private static boolean[] active(MeshBlock block) {
    boolean[] active = new boolean[3];
    for (int axis = 0; axis < 3; axis++) {
      active[axis] = !block.region().isSymmetry(axis);
    }
    return active;
  }

  private void addFluxBoundary(MeshData md, Boundary bd, boolean sender, int bufferOffset,
      BoundaryTableBuilder table) {
    int axis = faceAxis(bd.nb);
    int ndim = bd.meshBlock.mesh().ndim();
    BlockLayout flux = fluxLayout(md, bd.field.id(), axis + 1, bd.block);
    if (sender) {
      IndexBox box =
          BoundaryIndices.calc(bd.meshBlock, bd.nb, BoundaryIndices.Range.SEND, true, axis + 1);
      BlockLayout coarseSpace = coarseLayout(md, bd.field.id(), bd.block);
      int b = table.add(BoundaryOp.FLUX_X1 + axis, ndim, coarseSpace, box, bufferOffset);
      fine(table, b, md, bd, flux);
    } else {
      IndexBox box =
          BoundaryIndices.calc(bd.meshBlock, bd.nb, BoundaryIndices.Range.RECEIVE, false, axis + 1);
      table.add(BoundaryOp.COPY, ndim, flux, box, bufferOffset);
    }
  }

  /** Sets the fine side of refinement entry {@code r}: the block's own cells and coordinates. */
  private static void fine(BoundaryTableBuilder t, int r, MeshData md, Boundary bd,
      BlockLayout fine) {
    int nghost = bd.meshBlock.mesh().nghost();
    UniformCartesian coords = bd.meshBlock.coords();
    UniformCartesian coarse = coords.coarsened(2);
    int[] origin = new int[3];
    double[] fineXmin = new double[3];
    double[] fineDx = new double[3];
    double[] coarseXmin = new double[3];
    double[] coarseDx = new double[3];
    for (int axis = 0; axis < 3; axis++) {
      boolean active = !bd.meshBlock.region().isSymmetry(axis);
      // Parthenon's fine index of coarse index 0: ib.s - 2 * cib.s, both starting at nghost.
      origin[axis] = active ? -nghost : 0;
      fineXmin[axis] = coords.xf(axis, 0);
      fineDx[axis] = coords.dx(axis);
      coarseXmin[axis] = coarse.xf(axis, 0);
      coarseDx[axis] = coarse.dx(axis);
    }
    t.fine(r, fine, origin[0], origin[1], origin[2]);
    t.coordinates(r, fineXmin, fineDx, coarseXmin, coarseDx);
  }

  private static boolean hasCoarserNeighbor(MeshBlock block) {
    for (NeighborBlock nb : block.neighbors()) {
      if (nb.isCoarser()) {
        return true;
      }
    }
    return false;
  }

  private static int faceAxis(NeighborBlock nb) {
    for (int axis = 0; axis < 3; axis++) {
      if (nb.element().offset(axis) != 0) {
        return axis;
      }
    }
    throw new IllegalArgumentException("flux correction needs a face neighbour: element="
        + nb.element());
  }

  /**
   * The block's data in this partition's container. An unallocated field's rows are skipped by
   * every kernel ({@code allocated[b] == 0}), so they carry offset 0 as a placeholder.
   */
  static BlockLayout dataLayout(MeshData md, int field, int block) {
    ArenaLayout layout = md.layout();
    int inst = layout.dataInstance(field, md.container());
    return layout(layout, inst, md.isAllocated(field, block) ? md.dataOffset(field, block) : 0);
  }

  /** The block's coarse buffer; its index space only when the field has none. */
  static BlockLayout coarseLayout(MeshData md, int field, int block) {
    ArenaLayout layout = md.layout();
    int inst = layout.coarseInstance(field);
    if (inst < 0) {
      throw new IllegalStateException("field has no coarse buffer on a multilevel mesh: field="
          + md.state().field(field).name());
    }
    return layout(layout, inst, md.isAllocated(field, block) ? md.coarseOffset(field, block) : 0);
  }

  static BlockLayout fluxLayout(MeshData md, int field, int direction, int block) {
    ArenaLayout layout = md.layout();
    int inst = layout.fluxInstance(field, direction);
    if (inst < 0) {
      throw new IllegalStateException("field has no fluxes in direction " + direction + ": field="
          + md.state().field(field).name());
    }
    return layout(layout, inst,
        md.isAllocated(field, block) ? md.fluxOffset(field, direction, block) : 0);
  }

  /** An instance's block as a kernel sees it: every element's components are its planes. */
  private static BlockLayout layout(ArenaLayout layout, int inst, int offset) {
    return new BlockLayout(offset, layout.numElements(inst) * layout.numComponents(inst),
        layout.nk(inst), layout.nj(inst), layout.ni(inst));
  }
}
