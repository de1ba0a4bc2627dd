package org.metope.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The binomial trees of the collectives and task reductions, on rank counts that are and are not powers of two and
 * every root: one tree (each rank but the root is the child of its parent, once), at most
 * ceil(log2 P) children, and a rank followed by its children's subtrees in order is its subtree
 * in virtual rank order, which the subtree sizes must describe.
 */
class BinomialTreeTest {

  @ParameterizedTest(name = "{0} ranks")
  @ValueSource(ints = {1, 2, 3, 4, 5, 7, 8, 13, 64})
  void givenRanksAndARoot_thenTheTreeSpansThemInVirtualRankOrder(int p) {
    int maxChildren = 32 - Integer.numberOfLeadingZeros(p - 1);
    for (int root = 0; root < p; root++) {
      BinomialTree[] trees = new BinomialTree[p];
      for (int r = 0; r < p; r++) {
        trees[r] = new BinomialTree(r, p, root);
      }
      assertEquals(-1, trees[root].parent(), "the root has no parent");
      int[] childOf = new int[p];
      java.util.Arrays.fill(childOf, -1);
      for (int r = 0; r < p; r++) {
        assertTrue(trees[r].children().length <= maxChildren, "rank " + r + " has "
            + trees[r].children().length + " children, p=" + p);
        for (int child : trees[r].children()) {
          assertEquals(-1, childOf[child], "rank " + child + " has two parents");
          childOf[child] = r;
          assertEquals(r, trees[child].parent(), "parent of " + child);
        }
      }
      for (int r = 0; r < p; r++) {
        assertEquals(r == root ? -1 : trees[r].parent(), childOf[r], "rank " + r);
      }
      List<Integer> order = subtree(trees, root);
      for (int v = 0; v < p; v++) {
        assertEquals((root + v) % p, order.get(v), "virtual rank " + v + ", root " + root);
      }
    }
  }

  /** The subtree of {@code r}: itself, then its children's subtrees, checked against sizes. */
  private static List<Integer> subtree(BinomialTree[] trees, int r) {
    List<Integer> ranks = new ArrayList<>(List.of(r));
    int[] children = trees[r].children();
    for (int c = 0; c < children.length; c++) {
      List<Integer> below = subtree(trees, children[c]);
      assertEquals(trees[r].subtreeSize(c), below.size(), "subtree of " + children[c]);
      ranks.addAll(below);
    }
    return ranks;
  }
}
