package org.metope.bvals;

import it.unimi.dsi.fastutil.ints.IntArrayList;
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
  /** Partitions on different task threads build their caches at the same time. */
  private final ThreadLocal<CacheBuildScratch> scratch =
      ThreadLocal.withInitial(CacheBuildScratch::new);

  BoundaryCacheBuilder(InOneBoundaryCommunication comm) {
    this.comm = comm;
  }

  /** Called with the scratch's current boundary set, once per boundary in cache order. */
  private interface BoundaryVisitor {
    void visit(int index, CacheBuildScratch s);
  }

  /**
   * Visits the boundaries of {@code md} of the given type in cache order, with the current
   * boundary in {@code s}; returns how many there were. Indexed loops: no iterator per block.
   */
  private int forEachBoundary(MeshData md, BoundaryType type, CacheBuildScratch s,
      BoundaryVisitor visitor) {
    int myRank = comm.myRank();
    List<FieldInfo> fields = type.isFluxCorrection() ? comm.fluxFields() : comm.ghostFields();
    int index = 0;
    for (int b = 0; b < md.numBlocks(); b++) {
      MeshBlock block = md.block(b);
      List<NeighborBlock> neighbors = block.neighbors();
      for (int f = 0; f < fields.size(); f++) {
        boolean edgeFluxes = type.isFluxCorrection()
            && EdgeFluxBoxes.hasEdgeFluxes(fields.get(f));
        for (int n = 0; n < neighbors.size(); n++) {
          NeighborBlock nb = neighbors.get(n);
          if (type.covers(nb, myRank, edgeFluxes)) {
            s.block = b;
            s.meshBlock = block;
            s.field = fields.get(f);
            s.nb = nb;
            visitor.visit(index++, s);
          }
        }
      }
    }
    return index;
  }

  /**
   * Gives each sparse send buffer outside coalesced messages a slice where its field is allocated
   * on the sending block, and frees the others' when nothing uses them (Parthenon's send buffers
   * follow allocation the same way); before the send plan is built from their offsets. {@code
   * old}, the plan being replaced (or null), names the channels without a lookup.
   */
  void prepareSendBuffers(MeshData md, BoundaryType type, BvarsSubCache old) {
    CacheBuildScratch s = scratch.get();
    forEachBoundary(md, type, s, (i, row) -> {
      CommBuffer buffer = channel(row, type, true, old, i);
      if (buffer.isSparse() && buffer.message() == null) {
        if (md.isAllocated(row.field.id(), row.block)) {
          buffer.allocate();
        } else {
          buffer.freeIfIdle();
        }
      }
    });
    s.clear();
  }

  /**
   * Builds the send ({@code sender}) or receive plan of {@code type} for {@code md}. {@code old}
   * is the plan it replaces (or null): built on the same channels, as between two remeshes, its
   * channel vector and arrays are kept where they come out the same, and its tables are written
   * over when their sizes match, so that a rebuild after an allocation change allocates nothing
   * per boundary.
   */
  BvarsSubCache build(MeshData md, BoundaryType type, boolean sender, BvarsSubCache old) {
    CacheBuildScratch s = scratch.get();
    s.clear();
    s.newlyRefined = comm.newlyRefined();
    int n = forEachBoundary(md, type, s, (i, row) -> addBoundary(md, type, sender, old, i, row));
    BvarsSubCache same = sameChannels(old, s.buffers, n);
    BoundaryTable built = s.table.build(same == null ? null : same.table);
    BoundaryTable proresTable = s.prores.build(same == null ? null : same.prores);
    for (int i = 0; i < n; i++) {
      built.allocated[i] = s.allocated.getInt(i);
    }
    // A refinement row works on its boundary's field: skipped, like the boundary, while the
    // field is unallocated on that block (its offsets are placeholders then).
    for (int r = 0; r < proresTable.size; r++) {
      proresTable.allocated[r] = s.allocated.getInt(s.proresOwner.getInt(r));
    }
    ChannelVector channels = same != null ? same.channels : new ChannelVector(s.buffers,
        comm.postingOrder(), ((long) md.partition() << 8) ^ (type.ordinal() << 1)
            ^ (sender ? 1 : 0));
    int[][] subsets = keptSubsets(s.subsets, same == null ? null : same.bufferSubsets);
    BvarsSubCache sub = new BvarsSubCache(type, sender, built, channels, comm.registry(),
        kept(s.blocks, same == null ? null : same.block),
        kept(s.fields, same == null ? null : same.field),
        kept(s.sparse, same == null ? null : same.sparseBoundaries), proresTable, subsets,
        md.allocationVersion(), comm.arena().layoutVersion());
    s.clear();
    return sub;
  }

  /** Adds boundary {@code i}, the scratch's current one, to the tables. */
  private void addBoundary(MeshData md, BoundaryType type, boolean sender, BvarsSubCache old,
      int i, CacheBuildScratch s) {
    CommBuffer buffer = channel(s, type, sender, old, i);
    s.buffers.add(buffer);
    int fieldId = s.field.id();
    s.blocks.add(s.block);
    s.fields.add(fieldId);
    s.allocated.add(md.isAllocated(fieldId, s.block) ? 1 : 0);
    if (buffer.isSparse()) {
      s.sparse.add(i);
    }
    int bufferOffset = buffer.isAllocated() ? buffer.buffer().offset() : 0;
    if (type.isFluxCorrection() && EdgeFluxBoxes.hasEdgeFluxes(s.field)) {
      EdgeFluxBoxes.addBoundary(md, s, sender, bufferOffset);
    } else if (type.isFluxCorrection()) {
      addFluxBoundary(md, s, sender, bufferOffset);
    } else if (sender) {
      addSendBoundary(md, s, bufferOffset);
    } else {
      addReceiveBoundary(md, s, bufferOffset);
    }
    while (s.proresOwner.size() < s.prores.size()) {
      s.proresOwner.add(i);
    }
    // Row i of the table is boundary i: each boundary adds exactly one row.
    Metadata m = s.field.metadata();
    s.table.defaultValue(i, s.field.isSparse() ? m.defaultValue() : 0.0);
    s.table.sparseThreshold(i, s.field.isSparse() ? comm.sparse().allocationThreshold(m) : 0.0);
  }

  /**
   * {@code old} when it was built on the current channels and holds exactly {@code buffers} in
   * cache order (a rebuild after an allocation change), else null.
   */
  private BvarsSubCache sameChannels(BvarsSubCache old, List<CommBuffer> buffers, int n) {
    if (old == null || old.registry != comm.registry() || old.size() != n) {
      return null;
    }
    for (int i = 0; i < n; i++) {
      if (old.channels.inCacheOrder(i) != buffers.get(i)) {
        return null;
      }
    }
    return old;
  }

  /** {@code old} if each of its rows holds exactly the values of that list, else copies. */
  private static int[][] keptSubsets(IntArrayList[] lists, int[][] old) {
    boolean same = old != null;
    for (int row = 0; row < lists.length && same; row++) {
      same = kept(lists[row], old[row]) == old[row];
    }
    if (same) {
      return old;
    }
    int[][] copies = new int[lists.length][];
    for (int row = 0; row < lists.length; row++) {
      copies[row] = lists[row].toIntArray();
    }
    return copies;
  }

  /** {@code old} if it holds exactly the values of {@code list}, else a copy of them. */
  private static int[] kept(IntArrayList list, int[] old) {
    return old != null && Arrays.equals(old, 0, old.length, list.elements(), 0, list.size())
        ? old : list.toIntArray();
  }

  /**
   * The channel of the scratch's current boundary: channel {@code i} of {@code old} when {@code
   * old} was built on the current channels and that one has the boundary's key (no key object),
   * else the registry's.
   */
  private CommBuffer channel(CacheBuildScratch s, BoundaryType type, boolean sender,
      BvarsSubCache old, int i) {
    int self = s.meshBlock.gid();
    int other = s.nb.gid();
    int senderGid = sender ? self : other;
    int receiverGid = sender ? other : self;
    int element = sender ? s.nb.element().index() : s.nb.element().reverse().index();
    int field = s.field.id();
    if (old != null && old.registry == comm.registry() && i < old.size()) {
      CommBuffer kept = old.channels.inCacheOrder(i);
      ChannelKey k = kept.key();
      if (k.senderGid() == senderGid && k.receiverGid() == receiverGid && k.fieldId() == field
          && k.element() == element) {
        return kept;
      }
    }
    return comm.registry().map(type.kind())
        .require(new ChannelKey(senderGid, receiverGid, field, element));
  }

  /**
   * Writes into {@code box} the box of a same-level or cross-level value boundary of {@code
   * field} on {@code block}: the cell box, or for a face, edge or node field the box of all its
   * elements ({@link BoundaryIndices#forElements}).
   */
  static void valueBox(MeshBlock block, NeighborBlock nb, FieldInfo field,
      BoundaryIndices.Range range, int[] box) {
    BoundaryIndices.calc(block, nb, field.metadata().isFine(), range, false, 0, box);
    if (!isCell(field)) {
      BoundaryIndices.forElements(box, block);
    }
  }

  private static boolean isFine(CacheBuildScratch s) {
    return s.field.metadata().isFine();
  }

  private static boolean isCell(FieldInfo field) {
    return field.metadata().elements().get(0) == TopologicalElement.CC;
  }

  /**
   * Which box cells a receiver writes, per element of a face, edge or node field: those the
   * sender owns on a shared face, edge or corner (Parthenon's ownership mask), all others.
   */
  private static int[] ownedByElement(CacheBuildScratch bd) {
    List<TopologicalElement> elements = bd.field.metadata().elements();
    int[] owned = new int[elements.size()];
    int ownership = senderOwnership(bd);
    for (int e = 0; e < owned.length; e++) {
      owned[e] = senderOwns(bd, ownership, elements.get(e))
          & BlockOwnership.withinElement(elements.get(e), active(bd.meshBlock));
    }
    return owned;
  }

  /** The parts of its boundary that the sender of {@code bd}'s current boundary owns. */
  private static int senderOwnership(CacheBuildScratch bd) {
    LogicalLocation sender = bd.nb.loc();
    return BlockOwnership.of(sender, bd.meshBlock.mesh().forest().findNeighbors(sender),
        bd.newlyRefined);
  }

  /**
   * The box cells of element {@code el} whose values the sender of {@code bd}'s current boundary
   * owns, given its {@code ownership} (Parthenon's {@code GetIndexRangeMaskFromOwnership} as
   * {@code CalcIndices} calls it). From a coarser sender the box lies at one corner of the sender's part, never across a whole
   * face or edge: along an axis with no offset, the box's end away from the block's place in its
   * parent is deep in the sender.
   */
  private static int senderOwns(CacheBuildScratch bd, int ownership, TopologicalElement el) {
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

  static int code(TopologicalElement el) {
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

  private static void addSendBoundary(MeshData md, CacheBuildScratch s, int bufferOffset) {
    valueBox(s.meshBlock, s.nb, s.field, BoundaryIndices.Range.SEND, s.box);
    int ndim = s.meshBlock.mesh().ndim();
    int field = s.field.id();
    if (s.nb.isCoarser()) {
      BlockLayout coarse = coarseShape(md, s, field);
      int coarseOffset = coarseOffset(md, field, s.block);
      s.table.add(BoundaryOp.COPY, ndim, coarse, coarseOffset, s.box, bufferOffset);
      int r = s.prores.add(BoundaryOp.RESTRICT, ndim, coarse, coarseOffset, s.box, 0);
      fine(s.prores, r, s, dataShape(md, s, field), dataOffset(md, field, s.block));
      if (!isCell(s.field)) {
        elementRow(s.prores, r, s.field, allOwned(s.field));
      }
      s.subsets[BvarsSubCache.RESTRICTION].add(r);
    } else {
      s.table.add(BoundaryOp.COPY, ndim, dataShape(md, s, field), dataOffset(md, field, s.block),
          s.box, bufferOffset);
    }
  }

  private static void addReceiveBoundary(MeshData md, CacheBuildScratch s, int bufferOffset) {
    MeshBlock block = s.meshBlock;
    int ndim = block.mesh().ndim();
    int field = s.field.id();
    valueBox(block, s.nb, s.field, BoundaryIndices.Range.RECEIVE, s.box);
    BlockLayout data = dataShape(md, s, field);
    int dataOffset = dataOffset(md, field, s.block);
    int row = s.nb.isCoarser()
        ? s.table.add(BoundaryOp.COPY, ndim, coarseShape(md, s, field),
            coarseOffset(md, field, s.block), s.box, bufferOffset)
        : s.table.add(BoundaryOp.COPY, ndim, data, dataOffset, s.box, bufferOffset);
    if (!isCell(s.field)) {
      s.table.elements(row, s.field.numComponents(), ownedByElement(s));
    }
    if (!block.mesh().isMultilevel()) {
      return;
    }
    // The cell box in coarse space, and the box of all elements (the same for a cell field).
    BoundaryIndices.calc(block, s.nb, isFine(s), BoundaryIndices.Range.RECEIVE, true, 0,
        s.cellBox);
    System.arraycopy(s.cellBox, 0, s.coarseBox, 0, 6);
    if (!isCell(s.field)) {
      BoundaryIndices.forElements(s.coarseBox, block);
    }
    BlockLayout coarse = coarseShape(md, s, field);
    int coarseOffset = coarseOffset(md, field, s.block);
    if (s.nb.isCoarser()) {
      int p = s.prores.add(BoundaryOp.PROLONGATE, ndim, coarse, coarseOffset, s.coarseBox, 0);
      fine(s.prores, p, s, data, dataOffset);
      s.prores.slopes(p, s.field.metadata().refinementOps().prolongation().tableSlopes());
      s.subsets[BvarsSubCache.PROLONGATION].add(p);
      if (!isCell(s.field)) {
        elementRow(s.prores, p, s.field, ownedByElement(s));
        addInternalRows(md, s, coarse, coarseOffset, data, dataOffset);
      }
    } else if (hasCoarserNeighbor(block)) {
      int r = s.prores.add(BoundaryOp.RESTRICT, ndim, coarse, coarseOffset, s.coarseBox, 0);
      fine(s.prores, r, s, data, dataOffset);
      if (!isCell(s.field)) {
        elementRow(s.prores, r, s.field, allOwned(s.field));
      }
      s.subsets[BvarsSubCache.RESTRICTION].add(r);
    }
  }

  /**
   * Adds the internal prolongation rows of a face, edge or node field's boundary with a coarser
   * neighbour (the scratch's current one): one per coarse element that has some field element
   * inside it (the cell only, for Toth and Roe's operator), its box the coarse cell box one
   * longer at the top where that element sits on cell boundaries, masked by the sender's
   * ownership of that element.
   */
  private static void addInternalRows(MeshData md, CacheBuildScratch s, BlockLayout coarse,
      int coarseOffset, BlockLayout data, int dataOffset) {
    MeshBlock block = s.meshBlock;
    int ndim = block.mesh().ndim();
    boolean toth = s.field.metadata().refinementOps().internal()
        == RefinementOps.InternalProlongation.TOTH_AND_ROE;
    List<TopologicalElement> elements = s.field.metadata().elements();
    for (TopologicalElement cel : TopologicalElement.FILL_ORDER) {
      if (toth ? cel != TopologicalElement.CC
          : !TopologicalElement.anyLiesIn(elements, cel, ndim)) {
        continue;
      }
      int[] top = {cel.offsetI(), cel.offsetJ(), cel.offsetK()};
      int[] box = s.cellBox.clone();
      for (int axis = 0; axis < 3; axis++) {
        box[2 * axis + 1] += block.region().isSymmetry(axis) ? 0 : top[axis];
      }
      int q = s.prores.add(toth ? BoundaryOp.INTERNAL_TOTH_AND_ROE : BoundaryOp.INTERNAL_AVERAGE,
          ndim, coarse, coarseOffset, box, 0);
      fine(s.prores, q, s, data, dataOffset);
      int[] owned = allOwned(s.field);
      Arrays.fill(owned, senderOwns(s, senderOwnership(s), cel));
      elementRow(s.prores, q, s.field, owned);
      s.prores.innerElement(q, code(cel));
      s.subsets[BvarsSubCache.INTERNAL_PROLONGATION].add(q);
    }
  }

  static boolean[] active(MeshBlock block) {
    boolean[] active = new boolean[3];
    for (int axis = 0; axis < 3; axis++) {
      active[axis] = !block.region().isSymmetry(axis);
    }
    return active;
  }

  private static void addFluxBoundary(MeshData md, CacheBuildScratch s, boolean sender,
      int bufferOffset) {
    int axis = faceAxis(s.nb);
    int ndim = s.meshBlock.mesh().ndim();
    int field = s.field.id();
    BlockLayout flux = fluxShape(md, s, field, axis + 1);
    int fluxOffset = fluxOffset(md, field, axis + 1, s.block);
    if (sender) {
      BoundaryIndices.calc(s.meshBlock, s.nb, isFine(s), BoundaryIndices.Range.SEND, true,
          axis + 1, s.box);
      int b = s.table.add(BoundaryOp.FLUX_X1 + axis, ndim, coarseShape(md, s, field),
          coarseOffset(md, field, s.block), s.box, bufferOffset);
      fine(s.table, b, s, flux, fluxOffset);
    } else {
      BoundaryIndices.calc(s.meshBlock, s.nb, isFine(s), BoundaryIndices.Range.RECEIVE, false,
          axis + 1, s.box);
      s.table.add(BoundaryOp.COPY, ndim, flux, fluxOffset, s.box, bufferOffset);
    }
  }

  /**
   * Sets the fine side of refinement entry {@code r}: the current block's own cells ({@code
   * fine} moved by {@code fineOffset}) and coordinates.
   */
  static void fine(BoundaryTableBuilder t, int r, CacheBuildScratch s, BlockLayout fine,
      int fineOffset) {
    MeshBlock block = s.meshBlock;
    int nghost = block.mesh().nghost();
    UniformCartesian coords = isFine(s) ? block.fineCoords() : block.coords();
    UniformCartesian coarse = isFine(s) ? block.coords() : coords.coarsened(2);
    for (int axis = 0; axis < 3; axis++) {
      boolean active = !block.region().isSymmetry(axis);
      // Parthenon's fine index of coarse index 0: ib.s - 2 * cib.s, both starting at nghost.
      s.fineOrigin[axis] = active ? -nghost : 0;
      s.fineXmin[axis] = coords.xf(axis, 0);
      s.fineDx[axis] = coords.dx(axis);
      s.coarseXmin[axis] = coarse.xf(axis, 0);
      s.coarseDx[axis] = coarse.dx(axis);
    }
    t.fine(r, fine, fineOffset, s.fineOrigin[0], s.fineOrigin[1], s.fineOrigin[2]);
    t.coordinates(r, s.fineXmin, s.fineDx, s.coarseXmin, s.coarseDx);
  }

  private static boolean hasCoarserNeighbor(MeshBlock block) {
    List<NeighborBlock> neighbors = block.neighbors();
    for (int n = 0; n < neighbors.size(); n++) {
      if (neighbors.get(n).isCoarser()) {
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

  /** The shape of a block's data of {@code field} in this partition's container. */
  private static BlockLayout dataShape(MeshData md, CacheBuildScratch s, int field) {
    ArenaLayout layout = md.layout();
    return s.shape(layout, layout.dataInstance(field, md.container()));
  }

  /**
   * Where block {@code block}'s data of {@code field} starts. An unallocated field's rows are
   * skipped by every kernel ({@code allocated[b] == 0}), so they carry offset 0 as a placeholder;
   * the same holds for the coarse buffer and the fluxes below.
   */
  private static int dataOffset(MeshData md, int field, int block) {
    return md.isAllocated(field, block) ? md.dataOffset(field, block) : 0;
  }

  /** The shape of a block's coarse buffer of {@code field}. */
  static BlockLayout coarseShape(MeshData md, CacheBuildScratch s, int field) {
    ArenaLayout layout = md.layout();
    int inst = layout.coarseInstance(field);
    if (inst < 0) {
      throw new IllegalStateException("field has no coarse buffer on a multilevel mesh: field="
          + md.state().field(field).name());
    }
    return s.shape(layout, inst);
  }

  static int coarseOffset(MeshData md, int field, int block) {
    return md.isAllocated(field, block) ? md.coarseOffset(field, block) : 0;
  }

  /** The shape of a block's fluxes of {@code field} through {@code direction} faces. */
  static BlockLayout fluxShape(MeshData md, CacheBuildScratch s, int field,
      int direction) {
    ArenaLayout layout = md.layout();
    int inst = layout.fluxInstance(field, direction);
    if (inst < 0) {
      throw new IllegalStateException("field has no fluxes in direction " + direction + ": field="
          + md.state().field(field).name());
    }
    return s.shape(layout, inst);
  }

  static int fluxOffset(MeshData md, int field, int direction, int block) {
    return md.isAllocated(field, block) ? md.fluxOffset(field, direction, block) : 0;
  }
}
