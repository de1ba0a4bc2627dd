package org.metope.bvals;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.ArrayList;
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
import org.metope.mesh.forest.BlockOwnership;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.forest.NeighborIndex;
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
    IntArrayList restrictSubset = new IntArrayList();
    IntArrayList prolongSubset = new IntArrayList();
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
        addSendBoundary(md, bd, bufferOffset, table, prores, restrictSubset);
      } else {
        addReceiveBoundary(md, bd, bufferOffset, table, prores, restrictSubset, prolongSubset);
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
        proresTable, new int[][] {restrictSubset.toIntArray(), prolongSubset.toIntArray()},
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
    LogicalLocation sender = bd.nb.loc();
    int ownership = BlockOwnership.of(sender,
        bd.meshBlock.mesh().forest().findNeighbors(sender));
    NeighborIndex towardSender = bd.nb.element();
    int[] owned = new int[elements.size()];
    for (int e = 0; e < owned.length; e++) {
      owned[e] = BlockOwnership.elementMask(elements.get(e), ownership, -towardSender.ox1(),
          -towardSender.ox2(), -towardSender.ox3()) & withinElement(elements.get(e), bd.meshBlock);
    }
    return owned;
  }

  /**
   * The box cells that belong to element {@code el}: the box of all elements ends one index past
   * {@code el}'s own along each active axis on which {@code el} does not sit on cell boundaries,
   * and that last layer (another block's ghost or interior value, or padding) is not written.
   */
  private static int withinElement(TopologicalElement el, MeshBlock block) {
    int[] top = {el.offsetI(), el.offsetJ(), el.offsetK()};
    int mask = 0;
    for (int ck = -1; ck <= 1; ck++) {
      for (int cj = -1; cj <= 1; cj++) {
        for (int ci = -1; ci <= 1; ci++) {
          int[] c = {ci, cj, ck};
          boolean inside = true;
          for (int axis = 0; axis < 3; axis++) {
            inside &= !(c[axis] == 1 && top[axis] == 0 && !block.region().isSymmetry(axis));
          }
          mask |= inside ? 1 << BoundaryTable.ownedBit(ci, cj, ck) : 0;
        }
      }
    }
    return mask;
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
      restrictSubset.add(r);
    } else {
      table.add(BoundaryOp.COPY, ndim, dataLayout(md, bd.field.id(), bd.block), box, bufferOffset);
    }
  }

  private void addReceiveBoundary(MeshData md, Boundary bd, int bufferOffset,
      BoundaryTableBuilder table, BoundaryTableBuilder prores, IntArrayList restrictSubset,
      IntArrayList prolongSubset) {
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
    IndexBox coarseBox =
        BoundaryIndices.calc(block, bd.nb, BoundaryIndices.Range.RECEIVE, true, 0);
    BlockLayout coarse = coarseLayout(md, bd.field.id(), bd.block);
    if (bd.nb.isCoarser()) {
      int p = prores.add(BoundaryOp.PROLONGATE, ndim, coarse, coarseBox, 0);
      fine(prores, p, md, bd, data);
      prolongSubset.add(p);
    } else if (hasCoarserNeighbor(block)) {
      int r = prores.add(BoundaryOp.RESTRICT, ndim, coarse, coarseBox, 0);
      fine(prores, r, md, bd, data);
      restrictSubset.add(r);
    }
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
