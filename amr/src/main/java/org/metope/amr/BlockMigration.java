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
 *
 * <p>The message arrays (one per destination, and one per source) are kept from one remesh to
 * the next and reused where long enough, with an eighth to spare when one is replaced: a remesh
 * then writes memory the process already has instead of asking the system for fresh pages, which
 * cost more than the copy itself on the project's VM.
 */
final class BlockMigration {
  /** The one tag of remesh messages, on the remesh's own communicator. */
  static final int TAG = 0;

  private final Communicator comm;
  private final KernelBackend backend;
  private final BlockRecords records;
  private final int ndim;
  private final int nghost;
  /** Packed records by destination rank, kept across remeshes; see {@link #pack}. */
  private double[][] outboxes = new double[0][];
  /** The length of each destination's message in the last {@link #pack}; -1 where none. */
  private int[] outLengths = new int[0];
  /** Receive arrays by source rank, kept across remeshes. */
  private double[][] inboxes = new double[0][];

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
   * <p>The messages stay in this migration's own arrays until {@link #deliver} sends them.
   *
   * @param oldDerefineCounts derefinement counters of the old blocks, by old local id
   */
  void pack(RemeshPlan plan, FieldStorage from, int[] oldDerefineCounts) {
    int me = comm.rank();
    int nranks = comm.size();
    int oldFirst = plan.oldDistribution().firstGid(me);
    restrictMergingBlocks(plan, from, oldFirst);
    List<List<RemeshPlan.Transfer>> outgoing = byPeer(plan, nranks, true);
    if (outboxes.length != nranks) {
      outboxes = new double[nranks][];
      inboxes = new double[nranks][];
      outLengths = new int[nranks];
    }
    for (int peer = 0; peer < nranks; peer++) {
      outLengths[peer] = -1;
      if (!outgoing.get(peer).isEmpty()) {
        outLengths[peer] = pack(outgoing.get(peer), from, oldFirst, oldDerefineCounts, peer);
      }
    }
  }

  /**
   * The second half, on the new blocks: sends the messages of {@link #pack}, receives this rank's,
   * unpacks every record in plan order into {@code to} and prolongates the new fine blocks.
   *
   * @return derefinement counters of the new blocks, by new local id (0 for refined and merged
   *     blocks)
   */
  int[] deliver(RemeshPlan plan, FieldStorage to) {
    int me = comm.rank();
    int nranks = comm.size();
    BlockDistribution newDist = plan.newDistribution();
    int newFirst = newDist.firstGid(me);
    List<List<RemeshPlan.Transfer>> incoming = byPeer(plan, nranks, false);
    List<Request> requests = new ArrayList<>();
    for (int peer = 0; peer < nranks; peer++) {
      if (peer != me && !incoming.get(peer).isEmpty()) {
        int capacity = 0;
        for (RemeshPlan.Transfer t : incoming.get(peer)) {
          capacity += records.maxLength(to.layout(), t.kind());
        }
        inboxes[peer] = reuse(inboxes[peer], capacity);
        requests.add(comm.irecv(inboxes[peer], 0, capacity, peer, TAG));
      }
    }
    // Every receive is posted before any send, so no message waits in a buffer of its own.
    comm.barrier();
    for (int peer = 0; peer < nranks; peer++) {
      if (peer != me && outLengths[peer] >= 0) {
        requests.add(comm.isend(outboxes[peer], 0, outLengths[peer], peer, TAG));
      }
    }
    int[] newCounts = new int[newDist.blockCount(me)];
    if (outLengths[me] >= 0) {
      unpack(incoming.get(me), outboxes[me], to, newFirst, newCounts);
    }
    for (Request r : requests) {
      r.waitFor();
    }
    for (int peer = 0; peer < nranks; peer++) {
      if (peer != me && !incoming.get(peer).isEmpty()) {
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
    for (RemeshPlan.Transfer t : plan.transfers(comm.rank())) {
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
    for (RemeshPlan.Transfer t : plan.transfers(comm.rank())) {
      if (t.kind() == RemeshPlan.Kind.DEREFINED && t.fromRank() == comm.rank()) {
        addRefinedFields(restriction, from, t.oldGid() - oldFirst);
      }
    }
    restriction.run(backend);
  }

  /**
   * Fills the fine values inside the coarse elements of this rank's new fine blocks again from
   * their shared values (face, edge and node fields), after an exchange has brought older fine
   * neighbours' shared values in (Parthenon's second {@code ProlongateInternal} of a remesh).
   */
  void refillInsides(RemeshPlan plan, FieldStorage to) {
    BlockDistribution newDist = plan.newDistribution();
    int newFirst = newDist.firstGid(comm.rank());
    WholeBlockRefinement inside = WholeBlockRefinement.insides(to, ndim, nghost);
    for (int lid = 0; lid < newDist.blockCount(comm.rank()); lid++) {
      if (plan.kind(newFirst + lid) == RemeshPlan.Kind.REFINED) {
        addRefinedFields(inside, to, lid);
      }
    }
    inside.run(backend);
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

  /** Packs {@code list} into the outbox of {@code peer}; returns the message's length. */
  private int pack(List<RemeshPlan.Transfer> list, FieldStorage from, int oldFirst,
      int[] oldDerefineCounts, int peer) {
    int length = 0;
    for (RemeshPlan.Transfer t : list) {
      length += records.length(from, t.oldGid() - oldFirst, t.kind());
    }
    double[] out = reuse(outboxes[peer], length);
    outboxes[peer] = out;
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
    return length;
  }

  /**
   * {@code kept} when it holds {@code length} values, else a new array with an eighth to spare
   * (every record is written before it is read, so what a kept array held does not matter).
   */
  private static double[] reuse(double[] kept, int length) {
    if (kept != null && kept.length >= length) {
      return kept;
    }
    return new double[(int) Math.min(length + length / 8L, Integer.MAX_VALUE - 8)];
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
