package org.metope.bvals.channel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;
import org.metope.comm.InProcessRun;
import org.metope.mesh.forest.NeighborIndex;

/**
 * Agreement of tags between the two ranks of a pair, density, and the tag bound. The shared
 * boundaries come from a brute-force neighbour walk over a periodic line of blocks, independent of
 * {@link TagMap}'s sorting.
 */
class TagMapTest {
  /** A boundary seen from one side: my block and element, the other rank, block and element. */
  private record Side(int myGid, int myElement, int otherRank, int otherGid, int otherElement) {}

  /**
   * Every shared x1 face of a periodic 1-D line of {@code blocks} blocks along
   * x1, with block {@code g} on rank {@code g % ranks}, seen from {@code rank}: each block touches
   * its left and right neighbour through its x1 faces.
   */
  private static List<Side> sidesOf(int rank, int ranks, int blocks) {
    int left = NeighborIndex.of(-1, 0, 0).index();
    int right = NeighborIndex.of(1, 0, 0).index();
    List<Side> sides = new ArrayList<>();
    for (int g = rank; g < blocks; g += ranks) {
      int next = (g + 1) % blocks;
      int prev = (g + blocks - 1) % blocks;
      sides.add(new Side(g, right, next % ranks, next, left));
      sides.add(new Side(g, left, prev % ranks, prev, right));
    }
    return sides;
  }

  private static TagMap build(int rank, List<Side> sides) {
    TagMap.Builder b = TagMap.builder(rank);
    for (Side s : sides) {
      b.add(s.myGid, s.myElement, s.otherRank, s.otherGid, s.otherElement);
    }
    return b.build();
  }

  @Test
  void givenTwoRanksAddingInDifferentOrders_thenBothAssignTheSameDenseTagToEachBoundary() {
    int blocks = 12;
    AtomicReferenceArray<int[]> tagsSeen = new AtomicReferenceArray<>(2);
    InProcessRun.run(2, comm -> {
      int me = comm.rank();
      List<Side> sides = sidesOf(me, 2, blocks);
      Collections.shuffle(sides, new Random(me * 31L + 5));
      TagMap tags = build(me, sides);
      assertArrayEquals(new int[] {1 - me}, tags.peers());
      int count = tags.tagCount(1 - me);
      assertEquals(blocks, count, "one tag per shared face of the periodic line");
      // Tags indexed by the lower gid of each face pair, the same numbering on both ranks.
      int[] byFace = new int[blocks];
      Set<Integer> distinct = new HashSet<>();
      for (Side s : sides) {
        int tag = tags.tag(s.myGid, s.myElement, s.otherRank, s.otherGid, s.otherElement);
        int face = s.myElement == NeighborIndex.of(1, 0, 0).index() ? s.myGid : s.otherGid;
        byFace[face] = tag;
        distinct.add(tag);
      }
      assertEquals(count, distinct.size(), "one tag per boundary");
      for (int t : distinct) {
        assertTrue(t >= 0 && t < count, "dense tags: " + t);
      }
      int[] agreed = comm.allgather(byFace);
      for (int f = 0; f < blocks; f++) {
        assertEquals(agreed[f], agreed[blocks + f], "face " + f);
      }
      tagsSeen.set(me, byFace);
    });
    assertArrayEquals(tagsSeen.get(0), tagsSeen.get(1));
  }

  @Test
  void givenBothDirectionsOfOneBoundary_thenTheyShareOneTag() {
    TagMap tags = TagMap.builder(0).add(4, 14, 1, 9, 12).build();
    assertEquals(0, tags.tag(4, 14, 1, 9, 12));
    assertEquals(1, tags.tagCount(1));
  }

  @Test
  void givenSortedPairs_thenTagsFollowTheDocumentedOrder() {
    TagMap tags = TagMap.builder(0)
        .add(7, 4, 1, 2, 22)
        .add(3, 14, 1, 8, 12)
        .add(3, 12, 1, 8, 14)
        .add(5, 22, 2, 1, 4)
        .build();
    // Smaller element first: (2,22)-(7,4), (3,12)-(8,14), (3,14)-(8,12) for rank 1.
    assertEquals(0, tags.tag(7, 4, 1, 2, 22));
    assertEquals(1, tags.tag(3, 12, 1, 8, 14));
    assertEquals(2, tags.tag(3, 14, 1, 8, 12));
    assertEquals(0, tags.tag(5, 22, 2, 1, 4), "each rank pair numbers from 0");
  }

  @Test
  void givenSameRankEntries_thenIgnoredAndTaggedNoTag() {
    TagMap tags = TagMap.builder(3).add(1, 14, 3, 2, 12).build();
    assertEquals(0, tags.peers().length);
    assertEquals(TagMap.NO_TAG, tags.tag(1, 14, 3, 2, 12));
  }

  @Test
  void givenUnknownChannel_whenTagAsked_thenMisuseNamesIt() {
    TagMap tags = TagMap.builder(0).add(1, 14, 1, 2, 12).build();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> tags.tag(1, 14, 1, 3, 12));
    assertTrue(e.getMessage().contains("otherGid=3"), e.getMessage());
  }

  @Test
  void givenPairNeedingTheMaximumTags_thenBuilt_andOneMoreFailsWithAClearSentence() {
    TagMap.Builder ok = TagMap.builder(0);
    addFaces(ok, TagMap.MAX_TAGS_PER_RANK_PAIR);
    assertEquals(32767, ok.build().tagCount(1));

    TagMap.Builder tooMany = TagMap.builder(0);
    addFaces(tooMany, TagMap.MAX_TAGS_PER_RANK_PAIR + 1);
    TagLimitException e = assertThrows(TagLimitException.class, tooMany::build);
    assertEquals("ranks 0 and 1 share 32768 block boundaries, each needing its own message tag,"
        + " but at most 32767 tags are allowed per pair of ranks (MPI's guaranteed tag limit);"
        + " use fewer, larger meshblocks or another number of ranks", e.getMessage());
    assertEquals(32768, e.tagsNeeded());
    assertEquals(1, e.otherRank());
  }

  /** {@code count} distinct boundaries with rank 1: blocks {@code g} and {@code g + 100000}. */
  private static void addFaces(TagMap.Builder b, int count) {
    for (int g = 0; g < count; g++) {
      b.add(g, 14, 1, g + 100000, 12);
    }
  }

  @Test
  void givenElementPair_thenOrderOfConstructionDoesNotMatter() {
    TagMap.BlockElement a = new TagMap.BlockElement(5, 3);
    TagMap.BlockElement b = new TagMap.BlockElement(5, 1);
    assertEquals(TagMap.ElementPair.of(a, b), TagMap.ElementPair.of(b, a));
    assertEquals(b, TagMap.ElementPair.of(a, b).first());
    assertThrows(IllegalArgumentException.class, () -> new TagMap.ElementPair(a, b));
    assertThrows(IllegalArgumentException.class, () -> new TagMap.BlockElement(1, 27));
  }
}
