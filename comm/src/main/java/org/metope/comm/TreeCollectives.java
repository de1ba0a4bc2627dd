package org.metope.comm;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Collectives over point-to-point {@link CollectiveLinks} along binomial trees, so that every rank
 * sends and receives at most about {@code 2 log2(P)} messages per collective, however many ranks
 * there are (MPI libraries use the same trees for short messages; Parthenon leaves them to MPI).
 *
 * <p><b>The trees.</b> {@link BinomialTree}s: a node that appends its children's data after its
 * own, in the order of {@link BinomialTree#children()}, holds its subtree in rank order; data
 * goes down to the children in the reverse order, larger subtrees first.
 *
 * <p><b>Bits.</b> Every reduction gives the bits of folding the ranks' contributions in rank
 * order, {@code op(op(op(v0, v1), v2), ...)}, as {@link Communicator} promises:
 *
 * <ul>
 *   <li>{@code MIN} and {@code MAX} (of doubles and longs) and every {@code long} operation are
 *       exactly associative and commutative, so partial results are combined on the way up the
 *       tree ({@code n} values per message) and give the rank-order fold's bits;
 *   <li>a {@code double} {@code SUM} is not associative, so the contributions are gathered to rank
 *       0 along the tree ({@code n P} values arrive at rank 0 in {@code log2(P)} messages), added
 *       there in rank order, and the {@code n} sums broadcast back.
 * </ul>
 *
 * <p>Results travel down from rank 0 along the tree rooted at 0. Every call allocates its scratch
 * arrays: the collectives of a cycle are few and small.
 */
public final class TreeCollectives {
  private final CollectiveLinks links;
  private final int rank;
  private final int size;
  /** The tree rooted at rank 0, which every reduction and gather climbs. */
  private final BinomialTree toZero;

  /** Collectives over {@code links}. */
  public TreeCollectives(CollectiveLinks links) {
    this.links = links;
    this.rank = links.rank();
    this.size = links.size();
    this.toZero = new BinomialTree(rank, size, 0);
  }

  /** {@link Communicator#allreduce(double[], ReduceOp)}. */
  public void allreduce(double[] values, ReduceOp op) {
    if (size == 1) {
      return;
    }
    int n = values.length;
    if (op == ReduceOp.SUM) {
      double[] all = (double[]) gatherToZero(values);
      if (rank == 0) {
        foldInRankOrder(all, values, op);
      }
    } else {
      double[] received = new double[n];
      for (int child : toZero.children()) {
        links.receive(received, n, child);
        for (int i = 0; i < n; i++) {
          values[i] = op.apply(values[i], received[i]);
        }
      }
      if (toZero.parent() >= 0) {
        links.send(values, n, toZero.parent());
      }
    }
    broadcast(values, n, 0);
  }

  /** {@link Communicator#allreduce(long[], ReduceOp)}. */
  public void allreduce(long[] values, ReduceOp op) {
    ReduceOp[] ops = new ReduceOp[values.length];
    Arrays.fill(ops, op);
    allreduce(values, ops);
  }

  /**
   * Replaces each {@code values[i]} by the reduction with {@code ops[i]} of every rank's {@code
   * values[i]}, in one collective: several reductions of a cycle cost one.
   */
  public void allreduce(long[] values, ReduceOp[] ops) {
    if (size == 1) {
      return;
    }
    int n = values.length;
    long[] received = new long[n];
    for (int child : toZero.children()) {
      links.receive(received, n, child);
      for (int i = 0; i < n; i++) {
        values[i] = ops[i].apply(values[i], received[i]);
      }
    }
    if (toZero.parent() >= 0) {
      links.send(values, n, toZero.parent());
    }
    broadcast(values, n, 0);
  }

  /** {@link Communicator#allgather(int[])} for an {@code int[]} or {@code double[]}. */
  public Object allgather(Object local) {
    if (size == 1) {
      return copy(local);
    }
    Object all = gatherToZero(local);
    if (toZero.parent() >= 0) {
      all = links.receiveNew(local, toZero.parent());
    }
    sendDown(toZero, all, Array.getLength(all));
    return all;
  }

  /**
   * The concatenation in rank order of every rank's {@code local} ({@code int[]} or {@code
   * double[]}, lengths may differ) at {@code root}; an empty array of the same type elsewhere.
   */
  public Object gather(Object local, int root) {
    if (size == 1) {
      return copy(local);
    }
    Object all = gatherToZero(local);
    if (root != 0) {
      if (rank == 0) {
        links.send(all, Array.getLength(all), root);
      } else if (rank == root) {
        all = links.receiveNew(local, 0);
      }
    }
    return rank == root ? all : Array.newInstance(local.getClass().getComponentType(), 0);
  }

  /**
   * Copies {@code root}'s {@code data[0, n)} ({@code int[]}, {@code long[]} or {@code double[]})
   * into every rank's {@code data}, larger subtrees first.
   */
  public void broadcast(Object data, int n, int root) {
    if (size == 1) {
      return;
    }
    BinomialTree tree = root == 0 ? toZero : new BinomialTree(rank, size, root);
    if (tree.parent() >= 0) {
      links.receive(data, n, tree.parent());
    }
    sendDown(tree, data, n);
  }

  /** Sends {@code data[0, n)} to every child of {@code tree}, larger subtrees first. */
  private void sendDown(BinomialTree tree, Object data, int n) {
    int[] children = tree.children();
    for (int c = children.length - 1; c >= 0; c--) {
      links.send(data, n, children[c]);
    }
  }

  /** Returns once every rank has entered: an empty reduction up the tree and back down. */
  public void barrier() {
    allreduce(new long[0], new ReduceOp[0]);
  }

  /**
   * Every rank's {@code local}, concatenated in rank order, at rank 0 (null elsewhere): each rank
   * appends its children's subtrees after its own data and sends the whole to its parent.
   */
  private Object gatherToZero(Object local) {
    List<Object> parts = new ArrayList<>();
    parts.add(local);
    for (int child : toZero.children()) {
      parts.add(links.receiveNew(local, child));
    }
    Object subtree = concatenate(parts, local);
    if (toZero.parent() >= 0) {
      links.send(subtree, Array.getLength(subtree), toZero.parent());
      return null;
    }
    return subtree;
  }

  /** At rank 0: {@code result[i]} = the rank-order fold of element {@code i} of every part. */
  private void foldInRankOrder(double[] all, double[] result, ReduceOp op) {
    int n = result.length;
    if (all.length != n * size) {
      throw new IllegalStateException("ranks passed different lengths to a collective: rank="
          + rank + ", length=" + n + ", received=" + all.length + " values from " + size
          + " ranks");
    }
    for (int i = 0; i < n; i++) {
      double acc = all[i];
      for (int r = 1; r < size; r++) {
        acc = op.apply(acc, all[r * n + i]);
      }
      result[i] = acc;
    }
  }

  private static Object concatenate(List<Object> parts, Object like) {
    if (parts.size() == 1) {
      return parts.get(0);
    }
    int total = 0;
    for (Object part : parts) {
      total += Array.getLength(part);
    }
    Object all = Array.newInstance(like.getClass().getComponentType(), total);
    int at = 0;
    for (Object part : parts) {
      int length = Array.getLength(part);
      System.arraycopy(part, 0, all, at, length);
      at += length;
    }
    return all;
  }

  private static Object copy(Object array) {
    int length = Array.getLength(array);
    Object result = Array.newInstance(array.getClass().getComponentType(), length);
    System.arraycopy(array, 0, result, 0, length);
    return result;
  }
}
