package org.metope.mesh.reduce;

import java.util.Arrays;
import org.metope.comm.Communicator;
import org.metope.comm.ReduceOp;
import org.metope.comm.Request;
import org.metope.tasking.TaskStatus;

/**
 * What {@link AllReduce} and {@link Reduce} share: a reduction started by one task and
 * finished by another that polls, never blocking (Parthenon's {@code StartReduce} /
 * {@code CheckReduce}, there over {@code MPI_Iallreduce}). Every rank sends its entries to the
 * root over point-to-point messages of a communicator of its own; the root folds every entry in
 * ascending key order (rank, or global block id) and, for an all-reduce, sends the result back.
 * The result is therefore the same bits on every rank and independent of message timing; folded
 * by global block id it is also independent of how blocks are spread over ranks.
 *
 * <p>Message layout, {@code double}s: {@code [id, sequence, op, width, entries, key0, v0_0 ..
 * v0_{width-1}, key1, ...]}; the root's reply is {@code [id, sequence, op, width, 1, -1,
 * result...]}. The root checks that every rank's header names the same reduction (its id, from
 * the label) and the same sequence number, op and width, and stops with one line naming the
 * mismatch otherwise: collectives in task lists must be issued in the same order on every rank.
 *
 * <p>Nothing is allocated per reduction once the buffers have grown to the largest entry count.
 */
public abstract class TaskReduction {
  private static final int HEADER = 5;

  private final String label;
  private final double id;
  private final Communicator comm;
  private final int root;
  private final boolean toAll;
  private final int width;
  /** The entries this rank contributes: keys and values, {@code width} values per key. */
  private double[] keys = new double[1];
  private double[] values;
  private int entries;
  private final double[] result;
  private final double[] contribution;
  private ReduceOp op;
  private long sequence;
  private boolean active;
  /** On the root: one receive buffer and request per rank; elsewhere, slot 0 sends, 1 receives. */
  private double[][] buffers;
  private final Request[] requests;
  private boolean resultSent;
  /** The root's fold: (key, position) pairs sorted, and each position's rank and entry. */
  private long[] order = new long[0];
  private int[] sourceRank = new int[0];
  private int[] sourceEntry = new int[0];

  TaskReduction(Communicator world, String label, int width, int root, boolean toAll) {
    if (width < 1) {
      throw new IllegalArgumentException("width must be positive: reduction=" + label
          + " width=" + width);
    }
    if (root < 0 || root >= world.size()) {
      throw new IllegalArgumentException("root must be a rank: reduction=" + label + " root="
          + root + " ranks=" + world.size());
    }
    this.label = label;
    this.id = label.hashCode();
    this.comm = world.duplicate();
    this.root = root;
    this.toAll = toAll;
    this.width = width;
    this.values = new double[width];
    this.result = new double[width];
    this.contribution = new double[width];
    int slots = Math.max(2, comm.size());
    this.buffers = new double[slots][HEADER + width + 1];
    this.requests = new Request[slots];
    for (int r = 0; r < slots; r++) {
      requests[r] = comm.newRequest();
    }
  }

  /** The label given at construction, as errors name it. */
  public String label() {
    return label;
  }

  /**
   * This rank's contribution to the next {@link #startReduce} (Parthenon's {@code val}): tasks
   * write or add into it before the reduction starts; it is read, not cleared, by the start.
   */
  public final double[] contribution() {
    return contribution;
  }

  /**
   * The result of the last completed reduction: {@code op(op(e0, e1), e2) ...} over every
   * entry in ascending key order, component by component; on every rank for an all-reduce, on
   * the root only for a reduce. Read it after {@link #checkReduce} returned {@code COMPLETE}.
   */
  public final double[] result() {
    return result;
  }

  /** Component 0 of {@link #result()}. */
  public final double value() {
    return result[0];
  }

  /**
   * Starts reducing every rank's {@link #contribution()}, folded in rank order (Parthenon's
   * {@code StartReduce}); a task body, always {@code COMPLETE}. Collective: every rank starts
   * the same reductions in the same order.
   */
  public final TaskStatus startReduce(ReduceOp reduceOp) {
    clearEntries();
    addEntry(comm.rank(), contribution, 0);
    return start(reduceOp);
  }

  /**
   * Starts reducing per-block values folded in ascending global block id, whatever rank holds
   * each block: for a sum, the same bits on any number of ranks as one rank adding every block
   * in gid order ({@code comm.GlobalOrderSum}'s order). Block {@code b} of this rank has gid
   * {@code gids[b]} and values {@code perBlock[b * width .. b * width + width)}.
   *
   * @param totalBlocks the number of blocks over all ranks (the most one rank can send)
   */
  public final TaskStatus startInBlockOrder(ReduceOp reduceOp, int[] gids, double[] perBlock,
      int totalBlocks) {
    clearEntries();
    if (perBlock.length < gids.length * width) {
      throw new IllegalArgumentException("perBlock must hold width values per block: reduction="
          + label + " blocks=" + gids.length + " width=" + width + " length=" + perBlock.length);
    }
    for (int b = 0; b < gids.length; b++) {
      addEntry(gids[b], perBlock, b * width);
    }
    reserve(totalBlocks);
    return start(reduceOp);
  }

  /**
   * Polls the reduction started last (Parthenon's {@code CheckReduce}): {@code COMPLETE} once
   * this rank has its result, {@code INCOMPLETE} until then; never blocks.
   *
   * @throws IllegalStateException when another rank issued a different collective here
   */
  public final TaskStatus checkReduce() {
    return check();
  }

  /** Whether a reduction has been started and not yet seen complete. */
  public boolean active() {
    return active;
  }

  /** Clears this rank's entries before {@link #addEntry} calls. */
  private void clearEntries() {
    requireIdle();
    entries = 0;
  }

  /** Adds one entry under {@code key} (its rank, or a block's gid), width values from {@code v}. */
  private void addEntry(long key, double[] v, int offset) {
    requireIdle();
    if (entries == keys.length) {
      keys = Arrays.copyOf(keys, 2 * entries);
      values = Arrays.copyOf(values, 2 * entries * width);
    }
    keys[entries] = key;
    System.arraycopy(v, offset, values, entries * width, width);
    entries++;
  }

  /** Starts the reduction of the entries added since {@link #clearEntries}. */
  private TaskStatus start(ReduceOp reduceOp) {
    requireIdle();
    op = reduceOp;
    sequence++;
    active = true;
    resultSent = false;
    if (comm.rank() == root) {
      for (int r = 0; r < comm.size(); r++) {
        if (r != root) {
          comm.irecv(requests[r], buffers[r], 0, buffers[r].length, r, 0);
        }
      }
    } else {
      double[] out = message(buffers[0], entries);
      buffers[0] = out;
      comm.isend(requests[0], out, 0, HEADER + entries * (width + 1), root, 0);
      if (toAll) {
        comm.irecv(requests[1], buffers[1], 0, buffers[1].length, root, 0);
      }
    }
    return TaskStatus.COMPLETE;
  }

  /** Polls the reduction: {@code COMPLETE} once this rank has what it will get. */
  private TaskStatus check() {
    if (!active) {
      throw new IllegalStateException("reduction '" + label + "' checked before it was started");
    }
    boolean done = comm.rank() == root ? checkRoot() : checkOther();
    if (done) {
      active = false;
      return TaskStatus.COMPLETE;
    }
    return TaskStatus.INCOMPLETE;
  }

  private boolean checkRoot() {
    if (!resultSent) {
      for (int r = 0; r < comm.size(); r++) {
        if (r != root && !requests[r].test()) {
          return false;
        }
      }
      fold();
      resultSent = true;
      if (toAll) {
        double[] reply = buffers[root];
        writeHeader(reply, 1);
        reply[HEADER] = -1;
        System.arraycopy(result, 0, reply, HEADER + 1, width);
        for (int r = 0; r < comm.size(); r++) {
          if (r != root) {
            comm.isend(requests[r], reply, 0, HEADER + 1 + width, r, 0);
          }
        }
      }
    }
    if (toAll) {
      for (int r = 0; r < comm.size(); r++) {
        if (r != root && !requests[r].test()) {
          return false;
        }
      }
    }
    return true;
  }

  private boolean checkOther() {
    if (!requests[0].test()) {
      return false;
    }
    if (!toAll) {
      return true;
    }
    if (!requests[1].test()) {
      return false;
    }
    double[] reply = buffers[1];
    checkHeader(reply, root);
    System.arraycopy(reply, HEADER + 1, result, 0, width);
    return true;
  }

  /** Folds every rank's entries in ascending key order into {@link #result}. */
  private void fold() {
    int total = entries;
    for (int r = 0; r < comm.size(); r++) {
      if (r != root) {
        checkHeader(buffers[r], r);
        total += (int) buffers[r][4];
      }
    }
    if (total == 0) {
      throw new IllegalStateException("reduction '" + label + "' has no entries on any rank");
    }
    if (order.length < total) {
      order = new long[total];
      sourceRank = new int[total];
      sourceEntry = new int[total];
    }
    int n = 0;
    for (int r = 0; r < comm.size(); r++) {
      int count = r == root ? entries : (int) buffers[r][4];
      for (int e = 0; e < count; e++) {
        long key = (long) (r == root ? keys[e] : buffers[r][HEADER + e * (width + 1)]);
        sourceRank[n] = r;
        sourceEntry[n] = e;
        order[n] = (key << 32) | n;
        n++;
      }
    }
    Arrays.sort(order, 0, total);
    for (int t = 0; t < total; t++) {
      int source = (int) order[t];
      int r = sourceRank[source];
      int e = sourceEntry[source];
      for (int k = 0; k < width; k++) {
        double v = r == root ? values[e * width + k] : buffers[r][HEADER + e * (width + 1) + 1 + k];
        result[k] = t == 0 ? v : op.apply(result[k], v);
      }
    }
  }

  private double[] message(double[] buffer, int count) {
    int length = HEADER + count * (width + 1);
    double[] out = buffer.length >= length ? buffer : new double[length];
    writeHeader(out, count);
    for (int e = 0; e < count; e++) {
      out[HEADER + e * (width + 1)] = keys[e];
      System.arraycopy(values, e * width, out, HEADER + e * (width + 1) + 1, width);
    }
    return out;
  }

  private void writeHeader(double[] out, int count) {
    out[0] = id;
    out[1] = sequence;
    out[2] = op.ordinal();
    out[3] = width;
    out[4] = count;
  }

  private void checkHeader(double[] in, int rank) {
    if (in[0] != id || in[1] != sequence || in[2] != op.ordinal() || in[3] != width) {
      throw new IllegalStateException("reduction '" + label + "' (call " + sequence + ", " + op
          + " of " + width + ") on rank " + comm.rank() + " met another collective from rank "
          + rank + " (call " + (long) in[1] + ", id " + (long) in[0] + "): collectives in task "
          + "lists must be issued in the same order on every rank");
    }
  }

  /**
   * Makes the root's receive buffers hold {@code entriesPerRank} entries per rank; a call before
   * {@link #start} on the root for block-order reductions, whose entry count is the blocks'.
   */
  private void reserve(int entriesPerRank) {
    int length = HEADER + Math.max(1, entriesPerRank) * (width + 1);
    for (int r = 0; r < buffers.length; r++) {
      if (buffers[r].length < length) {
        buffers[r] = new double[length];
      }
    }
  }

  private void requireIdle() {
    if (active) {
      throw new IllegalStateException("reduction '" + label + "' is still in flight");
    }
  }
}
