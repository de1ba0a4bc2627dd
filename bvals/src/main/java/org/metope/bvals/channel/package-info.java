/**
 * Channels, buffers and tags of boundary communication (Parthenon's {@code bvals/comms}
 * {@code bnd_info}, {@code tag_map} and the buffer pools): internal to module {@code bvals}, which
 * {@code ArchitectureTest} enforces.
 *
 * <h2>Communication infrastructure</h2>
 *
 * <p>What moves the buffers, independent of what is in them:
 *
 * <ul>
 *   <li>{@link ChannelKey}: a channel's name, (sender gid, receiver gid, field,
 *       sender's element); {@link ChannelKind}: boundary values or flux
 *       corrections, each with its own {@link ChannelMap} in the rank's {@link ChannelRegistry}.
 *   <li>{@link CommBuffer}: one channel's five-state buffer; same-rank channels
 *       are one shared object, used exactly like a cross-rank one.
 *   <li>{@link BufferArena}: the rank's one {@code double[]} of buffers, laid out
 *       by {@link BufferGroup} (peer rank, partition, kind, role); {@link BufferPools}: one {@link
 *       ObjectPool} of {@link BufferSlice}s per group and length.
 *   <li>{@link CoalescedMessage}: the cross-rank channels of one group as one
 *       message per exchange (the default; {@code <parthenon/comm> coalesce = false} sends one
 *       message per channel), laid out by {@link CoalescedMessageBuilder}, with
 *       receiving groups following the sender's partitions ({@code PartitionRule} in {@code
 *       bvals}).
 *   <li>{@link MessageStaging}: where one cross-rank message travels from and lands, the
 *       arena slice itself or, where the communicator prefers message buffers (the MPI device),
 *       a buffer of the message's own that the slice is copied into and out of.
 *   <li>{@link TagMap}: dense tags per rank pair; {@link FieldCommunicators}: one communicator per
 *   field and kind, plus one per
 *       kind for coalesced messages (tagged by sending partition).
 *   <li>{@link ChannelVector} and {@link PostingOrder}: a
 *       cache's send and receive buffers in posting order.
 *   <li>Diagnostics: {@link ChannelRegistry#dump()}, {@link CommTrace} ({@code
 *   METOPE_COMM_TRACE=1}), {@link CommDebug} ({@code -Dmetope.comm.debug=true}).
 * </ul>
 *
 * <h2>Life cycle</h2>
 *
 * <p>Dense fields' slices are created (and their regions grow) only while building: reserve, in
 * each pool, a slice for every channel that uses it ({@link
 * ObjectPool#ensureCapacity}), and freeze the arena after building, so that a
 * missed reservation fails at once instead of moving buffers under messages in flight. Sparse
 * fields' buffers outside coalesced messages follow allocation: their pools ({@link
 * BufferPools#onDemandPool}) take slices from the arena's on-demand region,
 * opened after every other region, which grows at the end of the array only, during steps too
 * ({@link BufferArena}).
 *
 * <pre>{@code
 * // setup, on every rank (collective: duplicates)
 * FieldCommunicators comms = FieldCommunicators.create(world, boundaryFieldIds, fluxFieldIds);
 *
 * // build (setup, remesh): a new arena for the mesh
 * BufferArena arena = new BufferArena();
 * BufferPools pools = new BufferPools(arena);
 * ChannelRegistry channels = new ChannelRegistry(world.rank(), arena);
 * TagMap tags = TagMap.builder(rank).add(...).add(...).build();
 * ChannelSpec spec = new ChannelSpec(key, kind, senderRank, receiverRank,
 *     tags.tag(myGid, myElement, otherRank, otherGid, otherElement), length, sparse);
 * BufferGroup group = new BufferGroup(peer, partition, kind, role);
 * ObjectPool<BufferSlice> pool = sparse ? pools.onDemandPool(group, length)
 *     : pools.pool(group, length);
 * CommBuffer b = new CommBuffer(spec, comms.communicator(kind, fieldId), pool::get);
 * channels.map(kind).put(b);
 * pool.ensureCapacity(channelsUsingThisPool);  // dense: a slice for every user, made now
 * b.allocate();                                // dense: allocate now
 * arena.openOnDemandRegion();
 * arena.freeze();
 *
 * // every stage: see CommBuffer for the calls; sparse senders allocate when their send cache is
 * // built on a block that holds the field, sparse receivers when a non-empty message arrives
 * }</pre>
 */
package org.metope.bvals.channel;
