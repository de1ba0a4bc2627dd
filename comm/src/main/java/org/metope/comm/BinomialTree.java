package org.metope.comm;

import java.util.Arrays;

/**
 * One rank's place in the binomial tree rooted at {@code root} along which {@link
 * TreeCollectives} and the task reductions of {@code mesh.reduce} send. Rank {@code r} has the
 * virtual rank {@code v = (r - root) mod P}; the parent of {@code v > 0} is {@code v} with its
 * lowest set bit cleared, and its children are {@code v + 2^k} for every {@code 2^k} below that
 * bit (every {@code 2^k < P} at the root). Child {@code v + 2^k} heads the virtual ranks {@code
 * [v + 2^k, v + 2^(k+1))}, so a rank's data followed by its children's subtrees, in the order of
 * {@link #children()}, is its subtree in virtual rank order. A rank has at most {@code
 * ceil(log2 P)} children.
 */
public final class BinomialTree {
  private final int parent;
  private final int[] children;
  private final int[] subtreeSizes;

  /** The tree of {@code size} ranks rooted at {@code root}, as rank {@code rank} sees it. */
  public BinomialTree(int rank, int size, int root) {
    int v = rank - root < 0 ? rank - root + size : rank - root;
    int up = -1;
    int[] kids = new int[32];
    int[] sizes = new int[32];
    int n = 0;
    for (int mask = 1; mask < size; mask <<= 1) {
      if ((v & mask) != 0) {
        up = real(v - mask, root, size);
        break;
      }
      if (v + mask < size) {
        kids[n] = real(v + mask, root, size);
        sizes[n] = Math.min(mask, size - (v + mask));
        n++;
      }
    }
    this.parent = up;
    this.children = Arrays.copyOf(kids, n);
    this.subtreeSizes = Arrays.copyOf(sizes, n);
  }

  /** The parent's rank, or -1 at the root. */
  public int parent() {
    return parent;
  }

  /** The children's ranks, heads of ever larger subtrees; do not modify. */
  public int[] children() {
    return children;
  }

  /** How many ranks the subtree of child {@code c} (an index into {@link #children()}) holds. */
  public int subtreeSize(int c) {
    return subtreeSizes[c];
  }

  private static int real(int virtual, int root, int size) {
    int r = virtual + root;
    return r >= size ? r - size : r;
  }
}
