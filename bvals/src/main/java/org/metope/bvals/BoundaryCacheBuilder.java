package org.metope.bvals;

import static org.metope.bvals.BoundaryRows.addFluxBoundary;
import static org.metope.bvals.BoundaryRows.addReceiveBoundary;
import static org.metope.bvals.BoundaryRows.addSendBoundary;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.Arrays;
import java.util.List;
import org.metope.bvals.channel.BoundaryType;
import org.metope.bvals.channel.ChannelKey;
import org.metope.bvals.channel.ChannelVector;
import org.metope.bvals.channel.CommBuffer;
import org.metope.kernels.table.BoundaryTable;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.NeighborBlock;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;

/**
 * Builds the {@link BvarsSubCache} of one partition, boundary type and direction: the only place
 * that walks blocks, fields and neighbours (Parthenon's {@code RebuildBufferCache} with {@code
 * BndInfo::GetSendBndInfo}/{@code GetSetBndInfo} and the {@code ProResInfo} creators, with
 * {@link BoundaryRows}).
 *
 * <p>Boundaries are enumerated like Parthenon's {@code ForEachBoundary}: blocks of the partition in
 * order, then fields in id order, then each block's neighbours in order.
 *
 * <p>What each boundary adds to the tables is {@link BoundaryRows}; this class walks the
 * boundaries, assembles the plan and keeps, on a rebuild, the channels and arrays that come out
 * the same.
 */
final class BoundaryCacheBuilder {
  private final InOneBoundaryCommunication comm;
  /** The plans this builds for: the previous ones to take rows from, the counts. */
  private final BoundaryCaches caches;
  /** Partitions on different task threads build their caches at the same time. */
  private final ThreadLocal<CacheBuildScratch> scratch =
      ThreadLocal.withInitial(CacheBuildScratch::new);

  BoundaryCacheBuilder(InOneBoundaryCommunication comm, BoundaryCaches caches) {
    this.comm = comm;
    this.caches = caches;
  }

  /** Called with the scratch's current boundary set, once per boundary in cache order. */
  interface BoundaryVisitor {
    void visit(int index, CacheBuildScratch s);
  }

  /**
   * Visits the boundaries of {@code md} of the given type in cache order, with the current
   * boundary in {@code s}; returns how many there were. Indexed loops: no iterator per block.
   */
  private int forEachBoundary(MeshData md, BoundaryType type, CacheBuildScratch s,
      BoundaryVisitor visitor) {
    int index = 0;
    for (int b = 0; b < md.numBlocks(); b++) {
      index = forEachBoundaryOf(md, b, type, s, visitor, index);
    }
    return index;
  }

  /**
   * Visits partition block {@code b}'s boundaries as {@link #forEachBoundary} does, the first
   * with index {@code index}; returns the index after the last.
   */
  private int forEachBoundaryOf(MeshData md, int b, BoundaryType type, CacheBuildScratch s,
      BoundaryVisitor visitor, int index) {
    int myRank = comm.myRank();
    List<FieldInfo> fields = type.isFluxCorrection() ? comm.fluxFields() : comm.ghostFields();
    MeshBlock block = md.block(b);
    List<NeighborBlock> neighbors = block.neighbors();
    for (int f = 0; f < fields.size(); f++) {
      boolean edgeFluxes = type.isFluxCorrection()
          && EdgeFluxBoxes.hasEdgeFluxes(fields.get(f));
      for (int n = 0; n < neighbors.size(); n++) {
        NeighborBlock nb = neighbors.get(n);
        if (type.covers(nb, myRank, edgeFluxes)) {
          s.atBoundary(b, block, fields.get(f), f, n, nb);
          visitor.visit(index++, s);
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
    if (!anySparse(type.isFluxCorrection() ? comm.fluxFields() : comm.ghostFields())) {
      return; // no sparse buffer to walk to (a remesh's plans for dense fields)
    }
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

  /** Whether a field of {@code fields} has sparse channels: those flagged SPARSE have. */
  private static boolean anySparse(List<FieldInfo> fields) {
    for (int f = 0; f < fields.size(); f++) {
      if (fields.get(f).metadata().isSet(MetadataFlag.SPARSE)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Builds the send ({@code sender}) or receive plan of {@code type} for {@code md}. {@code old}
   * is the plan it replaces (or null): built on the same channels, as between two remeshes, its
   * channel vector and arrays are kept where they come out the same, and its tables are written
   * over when their sizes match, so that a rebuild after an allocation change allocates nothing
   * per boundary.
   */
  BvarsSubCache build(MeshData md, BoundaryType type, boolean sender, BvarsSubCache old) {
    return build(md, type, sender, old,
        type == BoundaryType.ANY ? caches.previousPlans() : null);
  }

  /**
   * {@link #build(MeshData, BoundaryType, boolean, BvarsSubCache)} taking the rows of blocks that
   * kept their neighbours, or some, since the last remesh from {@code previous} (ghost-exchange
   * plans only; null: build every row).
   */
  BvarsSubCache build(MeshData md, BoundaryType type, boolean sender, BvarsSubCache old,
      PreviousPlans previous) {
    CacheBuildScratch s = scratch.get();
    s.clear();
    s.newlyRefined = comm.newlyRefined();
    BoundaryVisitor visitor = (i, row) -> addBoundary(md, type, sender, old, i, row);
    int n;
    PreviousPlans.Rows rows = previous == null || type != BoundaryType.ANY ? null
        : previous.rowsFor(md, sender, comm.ghostFields());
    if (rows != null) {
      n = 0;
      for (int b = 0; b < md.numBlocks(); b++) {
        int copied = rows.copyBlock(md, b, s, n, comm, visitor);
        n = copied >= 0 ? copied : forEachBoundaryOf(md, b, type, s, visitor, n);
      }
      caches.countRelocated(s.relocated);
    } else {
      n = forEachBoundary(md, type, s, visitor);
    }
    BvarsSubCache same = sameChannels(old, s.buffers, n);
    BoundaryTable built = s.table.build(same == null ? null : same.table);
    BoundaryTable proresTable = s.prores.build(same == null ? null : same.prores);
    int[] allocated = s.allocated.elements();
    System.arraycopy(allocated, 0, built.allocated, 0, n);
    // A refinement row works on its boundary's field: skipped, like the boundary, while the
    // field is unallocated on that block (its offsets are placeholders then).
    int[] owner = s.proresOwner.elements();
    for (int r = 0; r < proresTable.size; r++) {
      proresTable.allocated[r] = allocated[owner[r]];
    }
    ChannelVector channels = same != null ? same.channels : new ChannelVector(s.buffers,
        comm.postingOrder(), ((long) md.partition() << 8) ^ (type.ordinal() << 1)
            ^ (sender ? 1 : 0));
    int[][] subsets = keptSubsets(s.subsets, same == null ? null : same.bufferSubsets);
    BvarsSubCache sub = new BvarsSubCache(type, sender, built, channels, comm.registry(),
        kept(s.blocks, same == null ? null : same.block),
        kept(s.fields, same == null ? null : same.field),
        kept(s.sparse, same == null ? null : same.sparseBoundaries), proresTable,
        kept(s.proresOwner, same == null ? null : same.proresOwner), subsets,
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
   * The channel of the scratch's current boundary: a boundary-value channel from {@link
   * ValueChannels}; a flux correction's is channel {@code i} of {@code old} when {@code old} was
   * built on the current channels and that one has the boundary's key (no key object), else the
   * registry's.
   */
  private CommBuffer channel(CacheBuildScratch s, BoundaryType type, boolean sender,
      BvarsSubCache old, int i) {
    if (!type.isFluxCorrection()) {
      return comm.valueChannels().channel(s.meshBlock, s.fieldIndex, s.neighborIndex, sender);
    }
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
}
