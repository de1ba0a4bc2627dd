package org.metope.bvals.channel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Cache order, seeded random permutations, and parsing of the deck value. */
class PostingOrderTest {
  @Test
  void givenCacheOrder_thenIdentity() {
    assertArrayEquals(new int[] {0, 1, 2, 3}, PostingOrder.cacheOrder().permutation(4, 99));
  }

  @Test
  void givenRandomOrder_thenAPermutationThatDependsOnlyOnSeedAndSalt() {
    int[] p = PostingOrder.random(42).permutation(20, 3);
    int[] sorted = p.clone();
    Arrays.sort(sorted);
    assertArrayEquals(PostingOrder.cacheOrder().permutation(20, 0), sorted);
    assertArrayEquals(p, PostingOrder.random(42).permutation(20, 3), "reproducible");
    assertFalse(Arrays.equals(p, PostingOrder.random(42).permutation(20, 4)), "salt matters");
    assertFalse(Arrays.equals(p, PostingOrder.random(43).permutation(20, 3)), "seed matters");
    assertFalse(Arrays.equals(sorted, p), "shuffled");
  }

  @Test
  void givenDeckNames_thenParsedCaseInsensitively_andUnknownNamesListTheAccepted() {
    assertEquals(PostingOrder.cacheOrder(), PostingOrder.parse("Cache", 5));
    assertEquals(PostingOrder.random(5), PostingOrder.parse(" random ", 5));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PostingOrder.parse("sorted", 5));
    assertEquals("unknown posting order 'sorted', expected cache or random", e.getMessage());
  }

  @Test
  void givenNoChannels_thenEmptyPermutation() {
    assertEquals(0, PostingOrder.random(1).permutation(0, 0).length);
    assertThrows(IllegalArgumentException.class, () -> PostingOrder.random(1).permutation(-1, 0));
  }
}
