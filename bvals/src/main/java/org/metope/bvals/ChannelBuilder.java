package org.metope.bvals;

import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.metope.bvals.channel.BoundaryType;
import org.metope.bvals.channel.BufferGroup;
import org.metope.bvals.channel.BufferSlice;
import org.metope.bvals.channel.ChannelKey;
import org.metope.bvals.channel.ChannelKind;
import org.metope.bvals.channel.ChannelMap;
import org.metope.bvals.channel.ChannelRole;
import org.metope.bvals.channel.ChannelSpec;
import org.metope.bvals.channel.CoalescedMessage;
import org.metope.bvals.channel.CoalescedMessageBuilder;
import org.metope.bvals.channel.CommBuffer;
import org.metope.bvals.channel.ObjectPool;
import org.metope.bvals.channel.TagMap;
import org.metope.comm.Communicator;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.NeighborBlock;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MetadataFlag;

/**
 * Creates every channel of a rank (Parthenon's {@code BuildBoundaryBufferSubset} for the boundary
 * and both flux-correction types): for each local block, field and neighbour, the send channel,
 * and the receive channel when the neighbour is on another rank (a same-rank channel is one
 * buffer shared by both sides). Buffers come from pools grouped by peer rank, partition, kind and
 * role; dense fields' buffers are allocated now, so no step allocates them. Sparse fields' buffers
 * follow allocation: a sender's (or same-rank channel's) is taken when the send cache is built on
 * a block where the field is allocated, a receiver's when data arrive, both from the arena's
 * on-demand region ({@link BufferPools#onDemandPool}).
 *
 * <p>With coalescing on, cross-rank channels are grouped by peer rank, <em>sending</em> partition
 * (the receiver's groups follow the sender's partitioning, {@link PartitionRule}), kind and role,
 * and each group becomes one {@link CoalescedMessage} whose slice holds its members' buffers; all
 * of them are allocated, sparse receivers included (only the traffic follows allocation).
 */
final class ChannelBuilder {
  private final InOneBoundaryCommunication comm;
  /** Dense slices wanted per group and length, each count an array its {@link PoolUse} holds. */
  private final Map<BufferGroupLength, int[]> demand = new HashMap<>();
  /**
   * Per buffer group, the pool, lease and demand counter of each slice length ({@code -length}
   * for sparse channels), so that a channel finds its pool without a key object; channels of one
   * group mostly come together, so the last group of each kind is kept at hand (a block's
   * boundary values and flux corrections alternate).
   */
  private final Map<BufferGroup, Int2ObjectOpenHashMap<PoolUse>> uses = new HashMap<>();
  private final BufferGroup[] lastGroup = new BufferGroup[ChannelKind.values().length];
  @SuppressWarnings("unchecked")
  private final Int2ObjectOpenHashMap<PoolUse>[] lastUses =
      new Int2ObjectOpenHashMap[ChannelKind.values().length];
  private final List<CommBuffer> toAllocate = new ArrayList<>();
  private final CoalescedMessageBuilder messages = new CoalescedMessageBuilder();
  /** The box of the flux-correction boundary at hand, {@code is, ie, js, je, ks, ke}. */
  private final int[] box = new int[6];
  /** Boundary-value buffers' cell counts, worked out once per kind of contact. */
  private final BufferLengths lengths = new BufferLengths();

  /** A hash key; equals and hashCode written out as in {@link BufferGroup}. */
  private record BufferGroupLength(BufferGroup group, int length) {
    @Override
    public boolean equals(Object o) {
      return o instanceof BufferGroupLength k && length == k.length && group.equals(k.group);
    }

    @Override
    public int hashCode() {
      return group.hashCode() * 31 + length;
    }
  }

  /**
   * The order in which each group's dense slices are laid out: by group, then length. One
   * comparator for every build, so that the JIT compiles its calls after a few remeshes.
   */
  private static final Comparator<Map.Entry<BufferGroupLength, int[]>> DEMAND_ORDER =
      Map.Entry.comparingByKey(Comparator.comparing(BufferGroupLength::group,
          CoalescedMessageBuilder.GROUP_ORDER).thenComparingInt(BufferGroupLength::length));

  ChannelBuilder(InOneBoundaryCommunication comm) {
    this.comm = comm;
  }

  /**
   * Creates every channel of {@code mesh} and, with coalescing on, their messages; returns the
   * boundary-value channels in the order cache builds walk them.
   */
  ValueChannels build(Mesh mesh) {
    int me = mesh.myRank();
    List<FieldInfo> ghostFields = comm.ghostFields();
    FieldUse[] valueFields = uses(ghostFields, ChannelKind.BOUNDARY_VALUES);
    FieldUse[] fluxFields = uses(comm.fluxFields(), ChannelKind.FLUX_CORRECTION);
    ValueChannels values = new ValueChannels(mesh.blocks(), ghostFields.size());
    List<MeshBlock> blocks = mesh.blocks();
    for (int lid = 0; lid < blocks.size(); lid++) {
      addBlockChannels(mesh, blocks.get(lid), me, valueFields, fluxFields, values);
    }
    // One array for every dense slice and message, each group's slices one after the other (its
    // region last while it fills, so it grows in place): the arena ends at the total, no copy.
    long total = messages.totalLength();
    for (Map.Entry<BufferGroupLength, int[]> e : demand.entrySet()) {
      total += (long) e.getKey().length * e.getValue()[0];
    }
    comm.arena().reserve((int) Math.min(total, Integer.MAX_VALUE - 8));
    List<Map.Entry<BufferGroupLength, int[]>> entries = new ArrayList<>(demand.entrySet());
    entries.sort(DEMAND_ORDER);
    for (Map.Entry<BufferGroupLength, int[]> e : entries) {
      comm.pools().pool(e.getKey().group, e.getKey().length).ensureCapacity(e.getValue()[0]);
    }
    for (int i = 0; i < toAllocate.size(); i += ALLOCATE_RUN) {
      allocate(i, Math.min(toAllocate.size(), i + ALLOCATE_RUN));
    }
    for (CoalescedMessage m : messages.build(comm.pools(), comm.fieldCommunicators())) {
      comm.registry().add(m);
    }
    values.resolveLocal(mesh.blocks(), ghostFields.size(), ids(ghostFields),
        comm.registry().boundaryValues());
    return values;
  }

  /** Buffers {@link #allocate} takes slices for per call. */
  private static final int ALLOCATE_RUN = 64;

  /**
   * Slices for buffers {@code from} to {@code to - 1} of {@link #toAllocate}: a method per run of
   * buffers, compiled within the first remeshes, where a loop over all of them in {@link #build}
   * would stay interpreted.
   */
  private void allocate(int from, int to) {
    for (int i = from; i < to; i++) {
      toAllocate.get(i).allocate();
    }
  }

  /**
   * The channels of one block. A method per block, not a loop body in {@link #build}: build runs
   * once per remesh, too rarely for the JIT to compile it, so its own loops stay interpreted,
   * while a method called for every block of every remesh is compiled within a few remeshes.
   */
  private void addBlockChannels(Mesh mesh, MeshBlock block, int me, FieldUse[] valueFields,
      FieldUse[] fluxFields, ValueChannels values) {
    int partition = PartitionRule.partitionOf(mesh, block.gid());
    List<NeighborBlock> neighbors = block.neighbors();
    int count = neighbors.size();
    for (int f = 0; f < valueFields.length; f++) {
      for (int n = 0; n < count; n++) {
        addValueChannels(block, partition, valueFields[f], neighbors.get(n), me, values, f, n);
      }
    }
    for (FieldUse field : fluxFields) {
      for (int n = 0; n < count; n++) {
        addFluxChannels(block, partition, field, neighbors.get(n), me);
      }
    }
  }

  /**
   * What a channel of one field needs of it, read once per build rather than at every boundary.
   *
   * @param planes values per cell of a boundary-value buffer: elements times components
   * @param cell whether it is a cell field (else a face, edge or node field, one box for all)
   * @param edgeFluxes whether its flux corrections are a face field's edge fluxes
   * @param communicator the field's communicator for the channels' kind
   */
  private record FieldUse(FieldInfo field, int planes, boolean fine, boolean cell,
      boolean edgeFluxes, boolean sparse, Communicator communicator) {
  }

  private FieldUse[] uses(List<FieldInfo> fields, ChannelKind kind) {
    FieldUse[] out = new FieldUse[fields.size()];
    for (int f = 0; f < out.length; f++) {
      FieldInfo field = fields.get(f);
      out[f] = new FieldUse(field,
          field.metadata().elements().size() * field.numComponents(),
          field.metadata().isFine(), BoundaryRows.isCell(field),
          EdgeFluxBoxes.hasEdgeFluxes(field), field.metadata().isSet(MetadataFlag.SPARSE),
          comm.fieldCommunicators().communicator(kind, field.id()));
    }
    return out;
  }

  private static int[] ids(List<FieldInfo> fields) {
    int[] out = new int[fields.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = fields.get(i).id();
    }
    return out;
  }

  /**
   * The channels of {@code block}'s boundary with neighbour {@code n} for field {@code f}, put in
   * {@code values} (a same-rank channel's receiving side is filled in once all exist).
   */
  private void addValueChannels(MeshBlock block, int partition, FieldUse field,
      NeighborBlock nb, int me, ValueChannels values, int f, int n) {
    int fieldId = field.field().id();
    ChannelKey send = new ChannelKey(block.gid(), nb.gid(), fieldId, nb.element().index());
    int sendCells = lengths.cells(block, nb, field.fine(), field.cell(),
        BoundaryIndices.Range.SEND);
    CommBuffer sending = create(send, ChannelKind.BOUNDARY_VALUES, me, nb.rank(), block, nb,
        field, field.planes() * sendCells, partition);
    CommBuffer receiving = null;
    if (nb.rank() != me) {
      ChannelKey receive = new ChannelKey(nb.gid(), block.gid(), fieldId,
          nb.element().reverse().index());
      int receiveCells = lengths.cells(block, nb, field.fine(), field.cell(),
          BoundaryIndices.Range.RECEIVE);
      receiving = create(receive, ChannelKind.BOUNDARY_VALUES, nb.rank(), me, block, nb, field,
          field.planes() * receiveCells, partition);
    }
    values.put(block, f, n, sending, receiving);
  }

  private void addFluxChannels(MeshBlock block, int partition, FieldUse use, NeighborBlock nb,
      int me) {
    FieldInfo field = use.field();
    if (use.edgeFluxes()) {
      addEdgeFluxChannels(block, partition, use, nb, me);
      return;
    }
    int ncomp = field.numComponents();
    int axis = faceAxis(nb);
    if (axis < 0) {
      return;
    }
    if (BoundaryType.FLXCOR_SEND.covers(nb, me)) {
      BoundaryIndices.calc(block, nb, use.fine(), BoundaryIndices.Range.SEND, true, axis + 1,
          box);
      create(new ChannelKey(block.gid(), nb.gid(), field.id(), nb.element().index()),
          ChannelKind.FLUX_CORRECTION, me, nb.rank(), block, nb, use,
          ncomp * BufferLengths.cells(box), partition);
    }
    if (BoundaryType.FLXCOR_RECV.covers(nb, me) && nb.rank() != me) {
      BoundaryIndices.calc(block, nb, use.fine(), BoundaryIndices.Range.RECEIVE, false,
          axis + 1, box);
      create(new ChannelKey(nb.gid(), block.gid(), field.id(), nb.element().reverse().index()),
          ChannelKind.FLUX_CORRECTION, nb.rank(), me, block, nb, use,
          ncomp * BufferLengths.cells(box), partition);
    }
  }

  /** The flux-correction channels of a face field's edge fluxes with {@code nb}. */
  private void addEdgeFluxChannels(MeshBlock block, int partition, FieldUse use,
      NeighborBlock nb, int me) {
    FieldInfo field = use.field();
    int planes = 3 * field.numComponents();
    if (BoundaryType.FLXCOR_SEND.covers(nb, me, true)) {
      EdgeFluxBoxes.box(block, nb, BoundaryIndices.Range.SEND, box);
      create(new ChannelKey(block.gid(), nb.gid(), field.id(), nb.element().index()),
          ChannelKind.FLUX_CORRECTION, me, nb.rank(), block, nb, use,
          planes * BufferLengths.cells(box), partition);
    }
    if (BoundaryType.FLXCOR_RECV.covers(nb, me, true) && nb.rank() != me) {
      EdgeFluxBoxes.box(block, nb, BoundaryIndices.Range.RECEIVE, box);
      create(new ChannelKey(nb.gid(), block.gid(), field.id(), nb.element().reverse().index()),
          ChannelKind.FLUX_CORRECTION, nb.rank(), me, block, nb, use,
          planes * BufferLengths.cells(box), partition);
    }
  }

  /** The channel named {@code key}: made now unless an earlier boundary made it. */
  private CommBuffer create(ChannelKey key, ChannelKind kind, int senderRank, int receiverRank,
      MeshBlock block, NeighborBlock nb, FieldUse field, int length, int partition) {
    ChannelMap map = comm.registry().map(kind);
    CommBuffer existing = map.get(key);
    if (existing != null) {
      return existing;
    }
    int me = comm.myRank();
    boolean local = senderRank == receiverRank;
    boolean sparse = field.sparse();
    ChannelRole role = local ? ChannelRole.LOCAL
        : senderRank == me ? ChannelRole.SENDER : ChannelRole.RECEIVER;
    Communicator fieldComm = field.communicator();
    if (!local && comm.coalesce()) {
      // The message's tag (the sending partition) names the channel in dumps; no TagMap needed.
      int sendingPartition = PartitionRule.partitionOf(comm.mesh(), key.senderGid());
      ChannelSpec spec = new ChannelSpec(key, kind, senderRank, receiverRank, sendingPartition,
          length, sparse);
      CoalescedMessageBuilder.MessagePart part = messages.newPart();
      CommBuffer buffer = new CommBuffer(spec, fieldComm, part);
      map.put(buffer);
      messages.add(new BufferGroup(nb.rank(), sendingPartition, kind, role), buffer, part);
      return buffer;
    }
    int tag = local ? TagMap.NO_TAG
        : comm.tags().tag(block.gid(), nb.element().index(), nb.rank(), nb.gid(),
            nb.element().reverse().index());
    ChannelSpec spec = new ChannelSpec(key, kind, senderRank, receiverRank, tag, length, sparse);
    PoolUse use = poolUse(local ? me : nb.rank(), partition, kind, role, length, sparse);
    CommBuffer buffer = new CommBuffer(spec, fieldComm, use.lease);
    map.put(buffer);
    if (!sparse) {
      use.demand[0]++;
      toAllocate.add(buffer);
    }
    return buffer;
  }

  /** The pool of a buffer group and slice length, with its lease and (dense) demand counter. */
  private PoolUse poolUse(int peer, int partition, ChannelKind kind, ChannelRole role, int length,
      boolean sparse) {
    int k = kind.ordinal();
    BufferGroup last = lastGroup[k];
    if (last == null || last.peerRank() != peer || last.partition() != partition
        || last.role() != role) {
      lastGroup[k] = new BufferGroup(peer, partition, kind, role);
      lastUses[k] = uses.computeIfAbsent(lastGroup[k], g -> new Int2ObjectOpenHashMap<>());
    }
    int key = sparse ? -length : length;
    PoolUse use = lastUses[k].get(key);
    if (use == null) {
      BufferGroup group = lastGroup[k];
      ObjectPool<BufferSlice> pool = sparse ? comm.pools().onDemandPool(group, length)
          : comm.pools().pool(group, length);
      int[] count = sparse ? null
          : demand.computeIfAbsent(new BufferGroupLength(group, length), g -> new int[1]);
      use = new PoolUse(pool::get, count);
      lastUses[k].put(key, use);
    }
    return use;
  }

  /** A pool as {@link #create} uses it; {@code demand} is null for sparse channels. */
  private record PoolUse(Supplier<ObjectPool.Owner<BufferSlice>> lease, int[] demand) {
  }

  private static int faceAxis(NeighborBlock nb) {
    if (!nb.element().isFace()) {
      return -1;
    }
    for (int axis = 0; axis < 3; axis++) {
      if (nb.element().offset(axis) != 0) {
        return axis;
      }
    }
    return -1;
  }
}
