package org.metope.bvals.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Placement by group, growth that keeps contents, and the rules on when data may move. */
class BufferArenaTest {
  private static BufferGroup toRank(int peer) {
    return new BufferGroup(peer, 0, ChannelKind.BOUNDARY_VALUES, ChannelRole.SENDER);
  }

  private static void fill(BufferSlice s, double base) {
    for (int i = 0; i < s.length(); i++) {
      s.array()[s.offset() + i] = base + i;
    }
  }

  private static int mismatches(BufferSlice s, double base) {
    int wrong = 0;
    for (int i = 0; i < s.length(); i++) {
      if (s.array()[s.offset() + i] != base + i) {
        wrong++;
      }
    }
    return wrong;
  }

  @Test
  void givenSlicesForInterleavedPeers_thenEachPeersSlicesAreContiguousAndDisjoint() {
    BufferArena arena = new BufferArena(0);
    List<BufferSlice> slices = new ArrayList<>();
    int[] peers = {3, 1, 3, 2, 1, 3, 2, 2, 1, 3};
    for (int i = 0; i < peers.length; i++) {
      slices.add(arena.allocate(toRank(peers[i]), 5 + i));
    }
    for (int peer : new int[] {1, 2, 3}) {
      int start = arena.groupStart(toRank(peer));
      int expectedNext = start;
      for (int i = 0; i < peers.length; i++) {
        if (peers[i] == peer) {
          assertEquals(expectedNext, slices.get(i).offset(), "slice " + i + " of peer " + peer);
          expectedNext += slices.get(i).length();
        }
      }
      assertEquals(expectedNext - start, arena.groupUsed(toRank(peer)));
    }
    boolean[] taken = new boolean[arena.array().length];
    for (BufferSlice s : slices) {
      for (int i = s.offset(); i < s.offset() + s.length(); i++) {
        assertTrue(!taken[i], "element " + i + " in two slices");
        taken[i] = true;
      }
    }
    assertEquals(List.of(toRank(3), toRank(1), toRank(2)), arena.groups());
  }

  @Test
  void givenGrowthThatMovesRegions_thenEverySliceKeepsItsContentsAndTheVersionChanges() {
    BufferArena arena = new BufferArena(0);
    List<BufferSlice> slices = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      BufferSlice s = arena.allocate(toRank(i % 4), 7);
      fill(s, 100.0 * i);
      slices.add(s);
      for (int j = 0; j <= i; j++) {
        assertEquals(0, mismatches(slices.get(j), 100.0 * j), "slice " + j + " after " + i);
      }
    }
    assertTrue(arena.layoutVersion() > 0, "interleaved groups forced regions to move");
    assertEquals(60, arena.sliceCount());
    assertEquals(60 * 7, arena.used());
  }

  @Test
  void givenReservedTotal_whenGroupsFillOneAfterAnother_thenTheArrayIsNeverReplaced() {
    BufferArena arena = new BufferArena();
    arena.reserve(3 * 17 * 9);
    double[] array = arena.array();
    assertEquals(3 * 17 * 9, array.length);
    for (int peer = 1; peer <= 3; peer++) {
      for (int i = 0; i < 17; i++) {
        arena.allocate(toRank(peer), 9);
      }
    }
    assertSame(array, arena.array(), "the last region grew in place up to the reserved total");
    assertEquals(3 * 17 * 9, arena.used());
    arena.allocate(toRank(3), 9);
    assertTrue(arena.array().length > array.length, "past the total the array grows");
  }

  @Test
  void givenASlice_whenReserving_thenNothingChanges() {
    BufferArena arena = new BufferArena(4);
    arena.allocate(toRank(1), 4);
    double[] array = arena.array();
    arena.reserve(1000);
    assertSame(array, arena.array());
  }

  @Test
  void givenLastRegionWithSpareCapacity_whenAllocating_thenNothingMoves() {
    BufferArena arena = new BufferArena(1000);
    arena.allocate(toRank(1), 10);
    arena.freeze();
    long version = arena.layoutVersion();
    double[] array = arena.array();
    arena.allocate(toRank(1), 10);
    arena.allocate(toRank(2), 30);
    assertEquals(version, arena.layoutVersion());
    assertSame(array, arena.array());
  }

  @Test
  void givenFrozenArena_whenARegionMustMove_thenRefusedWithTheReason() {
    BufferArena arena = new BufferArena(0);
    arena.allocate(toRank(1), 4);
    arena.allocate(toRank(2), 4);
    arena.freeze();
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> arena.allocate(toRank(1), 4));
    assertTrue(e.getMessage().startsWith("buffer arena is frozen"), e.getMessage());
    arena.thaw();
    arena.allocate(toRank(1), 4);
    assertEquals(8, arena.groupUsed(toRank(1)));
  }

  @Test
  void givenMessageInFlight_whenTheArrayMustGrow_thenRefused() {
    BufferArena arena = new BufferArena(0);
    arena.allocate(toRank(1), 4);
    arena.beginFlight();
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> arena.allocate(toRank(1), 1000));
    assertTrue(e.getMessage().contains("slicesInFlight=1"), e.getMessage());
    arena.endFlight();
    double[] before = arena.array();
    arena.allocate(toRank(1), 1000);
    assertNotSame(before, arena.array());
  }

  @Test
  void givenFrozenArenaWithAMessageInFlight_whenTheOnDemandRegionOutgrowsTheArray_thenNoSliceMoves() {
    BufferArena arena = new BufferArena(0);
    BufferSlice dense = arena.allocate(toRank(1), 4);
    arena.openOnDemandRegion();
    BufferSlice first = arena.allocateOnDemand(3);
    fill(dense, 10);
    fill(first, 20);
    int denseOffset = dense.offset();
    int firstOffset = first.offset();
    arena.freeze();
    arena.beginFlight();
    double[] before = arena.array();
    long version = arena.layoutVersion();
    BufferSlice big = arena.allocateOnDemand(1000);
    assertNotSame(before, arena.array(), "a longer copy");
    assertTrue(arena.layoutVersion() > version, "caches must prepare their launches again");
    assertEquals(denseOffset, dense.offset());
    assertEquals(firstOffset, first.offset());
    assertEquals(firstOffset + 3, big.offset(), "appended after the last on-demand slice");
    assertEquals(0, mismatches(dense, 10));
    assertEquals(0, mismatches(first, 20));
    assertEquals(List.of(toRank(1)), arena.groups(), "the on-demand region is no group's");
    assertEquals(null, big.group());
  }

  @Test
  void givenTheOnDemandRegionOpen_thenNoGroupMayTakeARegionAfterIt() {
    BufferArena arena = new BufferArena();
    assertThrows(IllegalStateException.class, () -> arena.allocateOnDemand(2), "not open yet");
    arena.allocate(toRank(1), 4);
    arena.openOnDemandRegion();
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> arena.allocate(toRank(2), 4));
    assertTrue(e.getMessage().startsWith("a group's region after the on-demand region"),
        e.getMessage());
    assertThrows(IllegalStateException.class, arena::openOnDemandRegion);
  }

  @Test
  void givenBadArguments_thenRejected() {
    BufferArena arena = new BufferArena();
    assertThrows(IllegalArgumentException.class, () -> arena.allocate(toRank(1), 0));
    assertThrows(IllegalArgumentException.class, () -> arena.allocate(null, 3));
    assertThrows(IllegalArgumentException.class, () -> arena.groupStart(toRank(9)));
    assertThrows(IllegalArgumentException.class, () -> new BufferArena(-1));
  }
}
