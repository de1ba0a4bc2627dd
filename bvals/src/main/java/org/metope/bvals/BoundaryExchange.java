package org.metope.bvals;

import org.metope.bvals.channel.BoundaryType;
import org.metope.bvals.channel.BufferSlice;
import org.metope.bvals.channel.BufferState;
import org.metope.bvals.channel.ChannelVector;
import org.metope.comm.Communicator;
import org.metope.kernels.KernelBackend;
import org.metope.kernels.table.BoundaryTable;
import org.metope.mesh.DriverError;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.field.MeshData;
import org.metope.tasking.Task;
import org.metope.tasking.TaskAdder;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskRegion;
import org.metope.tasking.TaskStatus;
import org.metope.tasking.TaskThreadPool;

/**
 * The per-step boundary tasks of a partition (Parthenon's {@code boundary_communication.cpp} and
 * {@code flux_correction.cpp}): post receives, load and send, receive, set; and the same four for
 * flux corrections. Each returns {@link TaskStatus}: a message that has not arrived is {@code
 * INCOMPLETE}, never a wait.
 *
 * <p>Per partition and exchange there is exactly one load launch and one unload launch over every
 * boundary of the partition; refinement adds one restriction launch on each side and one
 * prolongation launch on a multilevel mesh. Nothing here allocates in steady state.
 */
public final class BoundaryExchange {
  private final InOneBoundaryCommunication comm;

  BoundaryExchange(InOneBoundaryCommunication comm) {
    this.comm = comm;
  }

  /**
   * Adds send, receive, set, (coarse physical boundaries and prolongation on a multilevel mesh)
   * and physical boundaries after {@code dependency}; returns the last task. Receives must have
   * been posted earlier in the stage ({@link #startReceiveBoundBufs}).
   */
  public TaskId addBoundaryExchangeTasks(TaskId dependency, TaskAdder tl, MeshData md) {
    return addExchange(dependency, tl, md, true, true).last();
  }

  /**
   * {@link #addBoundaryExchangeTasks} without the prolongation (and the coarse boundary conditions
   * it needs): Parthenon's burgers benchmark's exchange, whose fine ghosts facing coarser blocks
   * keep their values; returns the last task.
   */
  public TaskId addExchangeWithoutProlongationTasks(TaskId dependency, TaskAdder tl,
      MeshData md) {
    return addExchange(dependency, tl, md, false, true).last();
  }

  /**
   * The exchange of {@link #addBoundaryExchangeTasks} for a group that repeats it: posts the
   * receives first, applies the physical boundary conditions only if {@code physicalBounds}, and
   * returns the last task together with the send, because the task that follows may change
   * interior cells the send still has to read (an in-place sweep).
   */
  public TaskId addRepeatedBoundaryExchangeTasks(TaskId dependency, TaskAdder tl, MeshData md,
      boolean physicalBounds) {
    TaskId posted = tl.addTask(dependency, "start_receive_bound_bufs",
        () -> startReceiveBoundBufs(md));
    ExchangeTasks tasks = addExchange(posted, tl, md, true, physicalBounds);
    return tasks.send().and(tasks.last());
  }

  /** The send task and the task after which the ghosts are filled. */
  private record ExchangeTasks(TaskId send, TaskId last) {}

  private ExchangeTasks addExchange(TaskId dependency, TaskAdder tl, MeshData md,
      boolean prolongate, boolean physicalBounds) {
    TaskId send = tl.addTask(dependency, "send_bound_bufs", () -> sendBoundBufs(md));
    TaskId receive = tl.addTask(dependency, "receive_bound_bufs",
        receiveTask(md, BoundaryType.ANY));
    TaskId set = tl.addTask(receive, "set_bounds", () -> setBounds(md));
    TaskId prolongated = set;
    if (prolongate && md.block(0).mesh().isMultilevel()) {
      TaskId coarseBounds = tl.addTask(set, "apply_coarse_boundary_conditions",
          comm.boundaryConditions().task(md, true, comm.backend()));
      prolongated = tl.addTask(coarseBounds, "prolongate_bounds", () -> prolongateBounds(md));
    }
    if (!physicalBounds) {
      return new ExchangeTasks(send, prolongated);
    }
    return new ExchangeTasks(send, tl.addTask(prolongated, "apply_boundary_conditions",
        comm.boundaryConditions().task(md, false, comm.backend())));
  }

  /** Adds the flux-correction exchange (nothing on a single-level mesh); returns the last task. */
  public TaskId addFluxCorrectionTasks(TaskId dependency, TaskAdder tl, MeshData md) {
    if (!md.block(0).mesh().isMultilevel()) {
      return dependency;
    }
    TaskId send = tl.addTask(dependency, "load_and_send_flux_corrections",
        () -> loadAndSendFluxCorrections(md));
    TaskId receive = tl.addTask(dependency, "receive_flux_corrections",
        receiveTask(md, BoundaryType.FLXCOR_RECV));
    // After the send too: edge fluxes are restricted through the coarse buffers, which the
    // ghost exchange after the update writes.
    return tl.addTask(receive.and(send), "set_flux_corrections", () -> setFluxCorrections(md));
  }

  /** Posts the receives of every boundary of the partition (or probes, for sparse channels). */
  public TaskStatus startReceiveBoundBufs(MeshData md) {
    comm.subCache(md, BoundaryType.ANY, false).channels.startReceives();
    return TaskStatus.COMPLETE;
  }

  /**
   * Restricts where the receiver is coarser, loads every boundary of the partition in one launch,
   * and sends each channel, null where a sparse sender has nothing above threshold.
   */
  public TaskStatus sendBoundBufs(MeshData md) {
    return loadAndSend(md, BoundaryType.ANY);
  }

  /**
   * Unloads every received buffer of the partition in one launch (default values for null
   * channels), marks the channels stale, and on a multilevel mesh restricts ghosts that feed
   * prolongation into the coarse buffers.
   */
  public TaskStatus setBounds(MeshData md) {
    BvarsSubCache sub = comm.subCache(md, BoundaryType.ANY, false);
    unload(md, sub, false);
    if (md.block(0).mesh().isMultilevel()) {
      int row = BvarsSubCache.RESTRICTION;
      comm.backend().restrictBlocks(sub.prores, sub.bufferSubsets[row],
          sub.bufferSubsetSizes[row], md.data());
    }
    return TaskStatus.COMPLETE;
  }

  /**
   * Prolongates coarse-buffer data into the ghosts that face coarser neighbours; then, for face,
   * edge and node fields, the fine values inside coarse elements, which read the first pass's.
   */
  public TaskStatus prolongateBounds(MeshData md) {
    if (!md.block(0).mesh().isMultilevel()) {
      return TaskStatus.COMPLETE;
    }
    BvarsSubCache sub = comm.subCache(md, BoundaryType.ANY, false);
    int row = BvarsSubCache.PROLONGATION;
    comm.backend().prolongate(sub.prores, sub.bufferSubsets[row], sub.bufferSubsetSizes[row],
        md.data());
    int internal = BvarsSubCache.INTERNAL_PROLONGATION;
    if (sub.bufferSubsetSizes[internal] > 0) {
      comm.backend().prolongate(sub.prores, sub.bufferSubsets[internal],
          sub.bufferSubsetSizes[internal], md.data());
    }
    return TaskStatus.COMPLETE;
  }

  /** Posts the flux-correction receives of the partition. */
  public TaskStatus startReceiveFluxCorrections(MeshData md) {
    if (md.block(0).mesh().isMultilevel()) {
      comm.subCache(md, BoundaryType.FLXCOR_RECV, false).channels.startReceives();
    }
    return TaskStatus.COMPLETE;
  }

  /**
   * Loads the restricted face fluxes of every coarser face neighbour (and the restricted edge
   * fluxes of face fields for every coarser face and edge neighbour) and sends them.
   */
  public TaskStatus loadAndSendFluxCorrections(MeshData md) {
    return loadAndSend(md, BoundaryType.FLXCOR_SEND);
  }

  /** Overwrites the coarse face fluxes with the received fine averages. */
  public TaskStatus setFluxCorrections(MeshData md) {
    unload(md, comm.subCache(md, BoundaryType.FLXCOR_RECV, false), true);
    return TaskStatus.COMPLETE;
  }

  private TaskStatus loadAndSend(MeshData md, BoundaryType type) {
    BvarsSubCache sub = comm.subCache(md, type, true);
    ChannelVector channels = sub.channels;
    if (!channels.allAvailableForWrite()) {
      return TaskStatus.INCOMPLETE;
    }
    KernelBackend backend = comm.backend();
    double[] data = md.data();
    int row = BvarsSubCache.RESTRICTION;
    if (md.block(0).mesh().isMultilevel()
        && (!type.isFluxCorrection() || sub.bufferSubsetSizes[row] > 0)) {
      // Flux corrections restrict here only a face field's edge fluxes (EdgeFluxBoxes).
      backend.restrictBlocks(sub.prores, sub.bufferSubsets[row], sub.bufferSubsetSizes[row], data);
    }
    backend.load(sub.table, data, comm.arena().array());
    BoundaryTable table = sub.table;
    boolean nullWhereZero = comm.sparse().enabled() && !type.isFluxCorrection();
    channels.sendAll(table.allocated, table.nonzero, nullWhereZero);
    return TaskStatus.COMPLETE;
  }

  /**
   * The receive task of partition {@code md}: polls its buffers of {@code type}, and a stall
   * report names the buffers that have not arrived ({@link ChannelVector#describeMissing}).
   */
  private Task receiveTask(MeshData md, BoundaryType type) {
    return new Task() {
      @Override
      public TaskStatus run() {
        return receive(md, type);
      }

      @Override
      public String waitingFor() {
        return comm.subCache(md, type, false).channels.describeMissing();
      }
    };
  }

  /**
   * Polls every receive of {@code type} of the partition; after a boundary exchange (not a flux
   * correction) allocates the sparse fields that received data.
   */
  private TaskStatus receive(MeshData md, BoundaryType type) {
    BvarsSubCache sub = comm.subCache(md, type, false);
    if (!sub.channels.receiveAll()) {
      return TaskStatus.INCOMPLETE;
    }
    if (!type.isFluxCorrection() && comm.sparse().enabled()) {
      allocateOnReceive(md, sub);
    }
    return TaskStatus.COMPLETE;
  }

  /**
   * A receiver whose field is unallocated allocates it when any neighbour sent real data. Only
   * sparse fields are ever unallocated, so only their boundaries are looked at.
   */
  private static void allocateOnReceive(MeshData md, BvarsSubCache sub) {
    FieldStorage storage = md.storage();
    for (int b : sub.sparseBoundaries) {
      if (sub.table.allocated[b] == 0
          && sub.channels.inCacheOrder(b).state() == BufferState.RECEIVED) {
        storage.allocateSparse(sub.field[b], md.blockIndex(sub.block[b]));
      }
    }
  }

  private void unload(MeshData md, BvarsSubCache sub, boolean fluxCorrection) {
    BoundaryTable table = sub.table;
    ChannelVector channels = sub.channels;
    for (int b = 0; b < table.size; b++) {
      BufferState state = channels.inCacheOrder(b).state();
      if (table.allocated[b] == 0) {
        table.receiveMode[b] = BoundaryTable.RECEIVE_SKIP;
      } else if (state == BufferState.RECEIVED) {
        table.receiveMode[b] = BoundaryTable.RECEIVE_COPY;
      } else {
        table.receiveMode[b] = fluxCorrection ? BoundaryTable.RECEIVE_SKIP
            : BoundaryTable.RECEIVE_DEFAULT;
      }
    }
    refreshSparseOffsets(sub);
    comm.backend().unload(table, md.data(), comm.arena().array());
    channels.staleAll();
  }

  /**
   * Sparse buffers are taken and given back as allocation changes (receivers when data arrive,
   * same-rank channels by the sending partition), so their offsets are read each step; a changed
   * offset bumps the table's columns version, which tells a device backend to upload the columns
   * again.
   */
  private static void refreshSparseOffsets(BvarsSubCache sub) {
    for (int s : sub.sparseBoundaries) {
      BufferSlice slice = sub.channels.inCacheOrder(s).sliceOrNull();
      if (slice != null) {
        sub.table.setBufferOffset(s, slice.offset());
      }
    }
  }

  /**
   * Fills every ghost cell of {@code container} on every partition: posts receives, then runs the
   * exchange of all partitions in one region, on {@code pool}'s threads (null: the calling
   * thread), as a stage's exchange (Parthenon's ghost fill at initialisation and after a remesh).
   * It waits for other ranks as long as a driver's stage would ({@link
   * Communicator#stallTimeout}): a rank or link lost during set-up ends the run with a {@link
   * DriverError}, as it does during a step.
   */
  void fillGhosts(Mesh mesh, String container, TaskThreadPool pool) {
    TaskCollection tc = new TaskCollection().stallTimeout(mesh.communicator().stallTimeout());
    var partitions = mesh.meshData(container);
    if (partitions.isEmpty()) {
      return;
    }
    TaskRegion region = tc.addRegion(partitions.size());
    for (int i = 0; i < partitions.size(); i++) {
      MeshData md = partitions.get(i);
      TaskList tl = region.get(i);
      TaskId start = tl.addTask(TaskId.NONE, "start_receive_bound_bufs",
          () -> startReceiveBoundBufs(md));
      addBoundaryExchangeTasks(start, tl, md);
    }
    DriverError.execute(tc, pool, "the ghost fill of container " + container, () -> "");
  }
}
