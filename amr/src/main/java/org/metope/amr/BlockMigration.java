package org.metope.amr;

import java.util.ArrayList;
import java.util.List;
import org.metope.kernels.KernelBackend;
import org.metope.mesh.BlockDistribution;
import org.metope.comm.Communicator;
import org.metope.comm.Request;
import org.metope.mesh.field.FieldStorage;

/**
 * Moves block data from the storage before a remesh to the storage after it, following a {@link
 * RemeshPlan} (the data part of Parthenon's {@code RedistributeAndRefineMeshBlocks}):
 *
 * <ol>
 *   <li>{@link #pack}, on the old storage: blocks about to merge restrict their interiors into
 *       their coarse buffers, in one launch; then each rank packs, per destination rank, the
 *       {@link BlockRecords} of every transfer from it to that rank, in plan order (its own
 *       transfers too). The old storage can be dropped after this, before the new one exists.
 *   <li>{@link #deliver}, on the new storage: each rank sends one message per destination on the
 *       remesh communicator (one tag), receives one per source, and unpacks the records in plan
 *       order; its own are unpacked without a message. New fine blocks then prolongate their
 *       coarse buffers, which now hold their parents' cells, in one launch.
 * </ol>
 *
 * Every rank derives the same plan, so a receiver knows which records arrive, in which order;
 * only their lengths (sparse fields that are unallocated send no cells) are learnt while reading.
 * Messages between two ranks on one tag arrive in the order sent, and there is one per pair and
 * remesh. The result does not depend on the number of ranks: every record is copied, never
 * combined, and both refinement launches are per-block computations.
 */
final class BlockMigration {
  /** The one tag of remesh messages, on the remesh's own communicator. */
  static final int TAG = 0;

  private final Communicator comm;
  private final KernelBackend backend;
  private final BlockRecords records;
  private final int ndim;
  private final int nghost;

  /**
   * @param comm a communicator of its own for remesh messages (a duplicate of the mesh's)
   * @param backend the kernels that restrict and prolongate whole blocks
   */
  BlockMigration(Communicator comm, KernelBackend backend, BlockRecords records, int ndim,
      int nghost) {
    this.comm = comm;
    this.backend = backend;
    this.records = records;
    this.ndim = ndim;
    this.nghost = nghost;
  }

  /**
   * The first half of a migration, on the old blocks: restricts the blocks about to merge and
   * packs every transfer leaving this rank, one message per destination rank (this rank's own
   * included), so that the old storage is no longer needed afterwards.
   *
   * @param oldDerefineCounts derefinement counters of the old blocks, by old local id
   * @return the messages by destination rank; null where there is none
   */
  double[][] pack(RemeshPlan plan, FieldStorage from, int[] oldDerefineCounts) {
    int me = comm.rank();
    int oldFirst = plan.oldDistribution().firstGid(me);
    restrictMergingBlocks(plan, from, oldFirst);
    List<List<RemeshPlan.Transfer>> outgoing = byPeer(plan, comm.size(), true);
    double[][] messages = new double[comm.size()][];
    for (int peer = 0; peer < comm.size(); peer++) {
      if (!outgoing.get(peer).isEmpty()) {
        messages[peer] = pack(outgoing.get(peer), from, oldFirst, oldDerefineCounts);
      }
    }
    return messages;
  }

  /**
   * The second half, on the new blocks: sends the messages of {@link #pack}, receives this rank's,
   * unpacks every record in plan order into {@code to} and prolongates the new fine blocks.
   *
   * @return derefinement counters of the new blocks, by new local id (0 for refined and merged
   *     blocks)
   */
  int[] deliver(RemeshPlan plan, double[][] messages, FieldStorage to) {
    int me = comm.rank();
    int nranks = comm.size();
    BlockDistribution newDist = plan.newDistribution();
    int newFirst = newDist.firstGid(me);
    List<List<RemeshPlan.Transfer>> incoming = byPeer(plan, nranks, false);
    double[][] inboxes = new double[nranks][];
    List<Request> requests = new ArrayList<>();
    for (int peer = 0; peer < nranks; peer++) {
      if (peer != me && !incoming.get(peer).isEmpty()) {
        int capacity = 0;
        for (RemeshPlan.Transfer t : incoming.get(peer)) {
          capacity += records.maxLength(to.layout(), t.kind());
        }
        inboxes[peer] = new double[capacity];
        requests.add(comm.irecv(inboxes[peer], 0, capacity, peer, TAG));
      }
    }
    // Every receive is posted before any send, so no message waits in a buffer of its own.
    comm.barrier();
    for (int peer = 0; peer < nranks; peer++) {
      if (peer != me && messages[peer] != null) {
        requests.add(comm.isend(messages[peer], 0, messages[peer].length, peer, TAG));
      }
    }
    int[] newCounts = new int[newDist.blockCount(me)];
    if (messages[me] != null) {
      unpack(incoming.get(me), messages[me], to, newFirst, newCounts);
    }
    for (Request r : requests) {
      r.waitFor();
    }
    for (int peer = 0; peer < nranks; peer++) {
      if (inboxes[peer] != null) {
        unpack(incoming.get(peer), inboxes[peer], to, newFirst, newCounts);
      }
    }
    prolongateNewFineBlocks(plan, to, newFirst, newDist.blockCount(me));
    return newCounts;
  }

  /** The transfers from this rank to each peer ({@code outgoing}), or from each peer to it. */
  private List<List<RemeshPlan.Transfer>> byPeer(RemeshPlan plan, int nranks, boolean outgoing) {
    int me = comm.rank();
    List<List<RemeshPlan.Transfer>> out = new ArrayList<>(nranks);
    for (int r = 0; r < nranks; r++) {
      out.add(new ArrayList<>());
    }
    for (RemeshPlan.Transfer t : plan.transfers()) {
      if (outgoing && t.fromRank() == me) {
        out.get(t.toRank()).add(t);
      } else if (!outgoing && t.toRank() == me) {
        out.get(t.fromRank()).add(t);
      }
    }
    return out;
  }

  private void restrictMergingBlocks(RemeshPlan plan, FieldStorage from, int oldFirst) {
    WholeBlockRefinement restriction = WholeBlockRefinement.restriction(from, ndim, nghost);
    for (RemeshPlan.Transfer t : plan.transfers()) {
      if (t.kind() == RemeshPlan.Kind.DEREFINED && t.fromRank() == comm.rank()) {
        addRefinedFields(restriction, from, t.oldGid() - oldFirst);
      }
    }
    restriction.run(backend);
  }

  private void prolongateNewFineBlocks(RemeshPlan plan, FieldStorage to, int newFirst,
      int count) {
    WholeBlockRefinement prolongation = WholeBlockRefinement.prolongation(to, ndim, nghost);
    for (int lid = 0; lid < count; lid++) {
      if (plan.kind(newFirst + lid) == RemeshPlan.Kind.REFINED) {
        addRefinedFields(prolongation, to, lid);
      }
    }
    prolongation.run(backend);
  }

  private static void addRefinedFields(WholeBlockRefinement op, FieldStorage storage, int block) {
    for (int f = 0; f < storage.layout().numFields(); f++) {
      if (storage.layout().coarseInstance(f) >= 0 && storage.isAllocated(f, block)) {
        op.add(block, f);
      }
    }
  }

  private double[] pack(List<RemeshPlan.Transfer> list, FieldStorage from, int oldFirst,
      int[] oldDerefineCounts) {
    int length = 0;
    for (RemeshPlan.Transfer t : list) {
      length += records.length(from, t.oldGid() - oldFirst, t.kind());
    }
    double[] out = new double[length];
    int pos = 0;
    for (RemeshPlan.Transfer t : list) {
      int block = t.oldGid() - oldFirst;
      pos = switch (t.kind()) {
        case SAME -> records.packSame(from, block, oldDerefineCounts[block], out, pos);
        case REFINED -> records.packRefined(from, block, t.child(), out, pos);
        case DEREFINED -> records.packDerefined(from, block, out, pos);
      };
    }
    if (pos != length) {
      throw new IllegalStateException("packed records disagree with their length: packed=" + pos
          + " length=" + length);
    }
    return out;
  }

  private void unpack(List<RemeshPlan.Transfer> list, double[] in, FieldStorage to, int newFirst,
      int[] newCounts) {
    int pos = 0;
    for (RemeshPlan.Transfer t : list) {
      int block = t.newGid() - newFirst;
      pos = switch (t.kind()) {
        case SAME -> records.unpackSame(to, block, newCounts, in, pos);
        case REFINED -> records.unpackRefined(to, block, in, pos);
        case DEREFINED -> records.unpackDerefined(to, block, t.child(), in, pos);
      };
    }
  }
}
