package org.metope.mesh.reduce;

import java.util.Arrays;
import org.metope.comm.BinomialTree;
import org.metope.comm.Communicator;
import org.metope.comm.ReduceOp;
import org.metope.comm.Request;
import org.metope.tasking.TaskStatus;

/**
 * What {@link AllReduce} and {@link Reduce} share: a reduction started by one task and
 * finished by another that polls, never blocking (Parthenon's {@code StartReduce} /
 * {@code CheckReduce}, there over {@code MPI_Iallreduce}). Entries travel over point-to-point
 * messages of a communicator of its own along the binomial tree rooted at the root ({@link
 * BinomialTree}, the trees of {@code comm.TreeCollectives}): each rank sends its own entries and
 * its subtree's to its parent once its children's have arrived, the root folds every entry in
 * ascending key order (rank, or global block id) and, for an all-reduce, the result goes back
 * down the same tree. The result is therefore the same bits on every rank and independent of
 * message timing; folded by global block id it is also independent of how blocks are spread over
 * ranks. A rank sends and receives at most {@code 2 ceil(log2 P)} messages per reduction.
 *
 * <p>Message layout, {@code double}s: {@code [id, sequence, op, width, entries, key0, v0_0 ..
 * v0_{width-1}, key1, ...]}; the result going down is {@code [id, sequence, op, width, 1, -1,
 * result...]}. Every rank checks that what it receives names the same reduction (its id, from
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
  private final boolean toAll;
  private final int width;
  private final BinomialTree tree;
  /** The entries this rank contributes: keys and values, {@code width} values per key. */
  private double[] keys = new double[1];
  private double[] values;
  private int entries;
  private final double[] result;
  private final double[] contribution;
  private ReduceOp op;
  private long sequence;
  private boolean active;
  /** Per child: its subtree's entries (received), and the request carrying them then the result. */
  private final double[][] fromChildren;
  private final Request[] childReceives;
  private final Request[] childSends;
  /** This rank's and its subtree's entries, sent to the parent. */
  private double[] toParent;
  private final Request parentSend;
  /** The result: received from the parent (or folded, at the root) and sent to the children. */
  private final double[] down;
  private final Request parentReceive;
  private boolean sentUp;
  private boolean resultKnown;
  private boolean sentDown;
  /** The root's fold: (key, position) pairs sorted, and each position's source and entry. */
  private long[] order = new long[0];
  private int[] sourceSlot = new int[0];
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
    this.toAll = toAll;
    this.width = width;
    this.tree = new BinomialTree(comm.rank(), comm.size(), root);
    this.values = new double[width];
    this.result = new double[width];
    this.contribution = new double[width];
    int children = tree.children().length;
    this.fromChildren = new double[children][];
    this.childReceives = new Request[children];
    this.childSends = new Request[children];
    for (int c = 0; c < children; c++) {
      fromChildren[c] = new double[HEADER + tree.subtreeSize(c) * (width + 1)];
      childReceives[c] = comm.newRequest();
      childSends[c] = comm.newRequest();
    }
    this.toParent = new double[HEADER + width + 1];
    this.down = new double[HEADER + 1 + width];
    this.parentSend = comm.newRequest();
    this.parentReceive = comm.newRequest();
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

  /**
   * Starts the reduction of the entries added since {@link #clearEntries}: posts the receives
   * from the children (and, for an all-reduce, of the result from the parent).
   */
  private TaskStatus start(ReduceOp reduceOp) {
    requireIdle();
    op = reduceOp;
    sequence++;
    active = true;
    sentUp = false;
    resultKnown = false;
    sentDown = false;
    int[] children = tree.children();
    for (int c = 0; c < children.length; c++) {
      comm.irecv(childReceives[c], fromChildren[c], 0, fromChildren[c].length, children[c], 0);
    }
    if (toAll && tree.parent() >= 0) {
      comm.irecv(parentReceive, down, 0, down.length, tree.parent(), 0);
    }
    return TaskStatus.COMPLETE;
  }

  /**
   * Polls the reduction: once every child's entries are in, sends them up with this rank's (the
   * root folds them instead); for an all-reduce, once the result is in, sends it down.
   * {@code COMPLETE} once this rank has what it will get and its sends are done.
   */
  private TaskStatus check() {
    if (!active) {
      throw new IllegalStateException("reduction '" + label + "' checked before it was started");
    }
    if (!sentUp && !sendUp()) {
      return TaskStatus.INCOMPLETE;
    }
    if (tree.parent() >= 0 && !parentSend.test()) {
      return TaskStatus.INCOMPLETE;
    }
    if (toAll && !sendDown()) {
      return TaskStatus.INCOMPLETE;
    }
    active = false;
    return TaskStatus.COMPLETE;
  }

  /** The up step: false while a child's entries are missing. */
  private boolean sendUp() {
    int[] children = tree.children();
    for (int c = 0; c < children.length; c++) {
      if (!childReceives[c].test()) {
        return false;
      }
    }
    for (int c = 0; c < children.length; c++) {
      checkHeader(fromChildren[c], children[c]);
    }
    if (tree.parent() >= 0) {
      int length = subtreeMessage();
      comm.isend(parentSend, toParent, 0, length, tree.parent(), 0);
    } else {
      fold();
      resultKnown = true;
      writeHeader(down, 1);
      down[HEADER] = -1;
      System.arraycopy(result, 0, down, HEADER + 1, width);
    }
    sentUp = true;
    return true;
  }

  /** The down step of an all-reduce: false until the result is in and sent to every child. */
  private boolean sendDown() {
    if (!resultKnown) {
      if (!parentReceive.test()) {
        return false;
      }
      checkHeader(down, tree.parent());
      System.arraycopy(down, HEADER + 1, result, 0, width);
      resultKnown = true;
    }
    int[] children = tree.children();
    if (!sentDown) {
      for (int c = 0; c < children.length; c++) {
        comm.isend(childSends[c], down, 0, HEADER + 1 + width, children[c], 0);
      }
      sentDown = true;
    }
    for (int c = 0; c < children.length; c++) {
      if (!childSends[c].test()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Writes this rank's entries, then each child's in the order of {@link BinomialTree#children}
   * (its subtree in rank order), into {@link #toParent}; returns the message's length.
   */
  private int subtreeMessage() {
    int count = entries;
    for (double[] child : fromChildren) {
      count += (int) child[4];
    }
    int length = HEADER + count * (width + 1);
    if (toParent.length < length) {
      toParent = new double[length];
    }
    writeHeader(toParent, count);
    int at = HEADER;
    for (int e = 0; e < entries; e++) {
      toParent[at] = keys[e];
      System.arraycopy(values, e * width, toParent, at + 1, width);
      at += width + 1;
    }
    for (double[] child : fromChildren) {
      int n = (int) child[4] * (width + 1);
      System.arraycopy(child, HEADER, toParent, at, n);
      at += n;
    }
    return length;
  }

  /** At the root: folds its own and every child's entries in ascending key order. */
  private void fold() {
    int total = entries;
    for (double[] child : fromChildren) {
      total += (int) child[4];
    }
    if (total == 0) {
      throw new IllegalStateException("reduction '" + label + "' has no entries on any rank");
    }
    if (order.length < total) {
      order = new long[total];
      sourceSlot = new int[total];
      sourceEntry = new int[total];
    }
    int n = 0;
    for (int slot = 0; slot <= fromChildren.length; slot++) {
      int count = slot == 0 ? entries : (int) fromChildren[slot - 1][4];
      for (int e = 0; e < count; e++) {
        long key = (long) (slot == 0 ? keys[e] : fromChildren[slot - 1][HEADER + e * (width + 1)]);
        sourceSlot[n] = slot;
        sourceEntry[n] = e;
        order[n] = (key << 32) | n;
        n++;
      }
    }
    Arrays.sort(order, 0, total);
    for (int t = 0; t < total; t++) {
      int source = (int) order[t];
      int slot = sourceSlot[source];
      int e = sourceEntry[source];
      for (int k = 0; k < width; k++) {
        double v = slot == 0 ? values[e * width + k]
            : fromChildren[slot - 1][HEADER + e * (width + 1) + 1 + k];
        result[k] = t == 0 ? v : op.apply(result[k], v);
      }
    }
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
   * Makes each child's receive buffer hold {@code entries} entries, the most a subtree can send;
   * a call before {@link #start} for block-order reductions, whose entry count is the blocks'.
   */
  private void reserve(int entries) {
    int length = HEADER + Math.max(1, entries) * (width + 1);
    for (int c = 0; c < fromChildren.length; c++) {
      if (fromChildren[c].length < length) {
        fromChildren[c] = new double[length];
      }
    }
  }

  private void requireIdle() {
    if (active) {
      throw new IllegalStateException("reduction '" + label + "' is still in flight");
    }
  }
}
