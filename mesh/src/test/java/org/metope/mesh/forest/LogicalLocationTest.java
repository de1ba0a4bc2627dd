package org.metope.mesh.forest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LogicalLocationTest {

  /** Interleaves the bits of the indices scaled to level {@code finest}: x3 high, x1 low. */
  private static BigInteger naiveMortonKey(LogicalLocation loc, int finest) {
    int shift = finest - loc.level();
    long[] l = {loc.lx1() << shift, loc.lx2() << shift, loc.lx3() << shift};
    BigInteger key = BigInteger.ZERO;
    for (int bit = finest; bit >= 0; bit--) {
      for (int axis = 2; axis >= 0; axis--) {
        key = key.shiftLeft(1);
        if (((l[axis] >> bit) & 1L) != 0) {
          key = key.setBit(0);
        }
      }
    }
    return key;
  }

  @Test
  void givenRandomLocationsAtMixedLevels_thenTheOrderIsTheInterleavedBitKeyThenTheLevel() {
    Random rnd = new Random(5);
    int finest = 40;
    List<LogicalLocation> locs = new ArrayList<>();
    for (int n = 0; n < 3000; n++) {
      int level = rnd.nextInt(finest + 1);
      long range = 1L << level;
      // Few distinct values at each level so that ties and parent/child pairs occur.
      long bound = Math.min(range, 1 + rnd.nextInt(6));
      locs.add(new LogicalLocation(level, Math.floorMod(rnd.nextLong(), bound),
          Math.floorMod(rnd.nextLong(), bound), Math.floorMod(rnd.nextLong(), bound)));
    }
    List<LogicalLocation> byCompareTo = new ArrayList<>(locs);
    byCompareTo.sort(null);
    List<LogicalLocation> byKey = new ArrayList<>(locs);
    byKey.sort(Comparator.comparing((LogicalLocation l) -> naiveMortonKey(l, finest))
        .thenComparingInt(LogicalLocation::level));
    assertEquals(byKey, byCompareTo);
  }

  @Test
  void givenAParent_thenItSortsJustBeforeItsFirstChildAndAfterItsPredecessor() {
    LogicalLocation parent = new LogicalLocation(1, 1, 0, 0);
    assertTrue(parent.compareTo(parent.child(0, 0, 0)) < 0);
    assertTrue(new LogicalLocation(2, 1, 1, 1).compareTo(parent) < 0);
    assertTrue(parent.child(1, 1, 1).compareTo(new LogicalLocation(1, 0, 1, 0)) < 0);
    assertEquals(0, parent.compareTo(new LogicalLocation(1, 1, 0, 0)));
  }

  @Test
  void givenChildren_thenTheyAreInZOrderAndTheirParentIsTheOrigin() {
    LogicalLocation loc = new LogicalLocation(3, 5, 2, 7);
    LogicalLocation[] children = loc.children(3);
    assertEquals(8, children.length);
    for (int c = 0; c < 8; c++) {
      assertEquals(loc, children[c].parent());
      assertEquals(c & 1, children[c].childIndex(0));
      assertEquals((c >> 1) & 1, children[c].childIndex(1));
      assertEquals(c >> 2, children[c].childIndex(2));
      assertTrue(loc.contains(children[c]));
      if (c > 0) {
        assertTrue(children[c - 1].compareTo(children[c]) < 0);
      }
    }
    assertEquals(2, loc.children(1).length);
    assertEquals(4, loc.children(2).length);
    assertEquals(0, loc.children(2)[3].childIndex(2));
  }

  @Test
  void givenContainment_thenOnlyDescendantsAreContained() {
    LogicalLocation loc = new LogicalLocation(2, 1, 2, 3);
    assertTrue(loc.contains(loc));
    assertTrue(loc.contains(new LogicalLocation(4, 7, 8, 15)));
    assertFalse(loc.contains(new LogicalLocation(4, 8, 8, 15)));
    assertFalse(loc.contains(loc.parent()));
    assertEquals(loc, new LogicalLocation(4, 7, 8, 15).ancestor(2));
  }

  @Test
  void givenNeighboursAtOtherLevels_thenSameLevelOffsetsAreTakenAtTheCoarserLevel() {
    LogicalLocation fine = new LogicalLocation(3, 4, 4, 0); // inside (2: 2, 2, 0)
    assertArrayEquals(new int[] {-1, 0, 0}, fine.sameLevelOffsets(new LogicalLocation(2, 1, 2, 0)));
    assertArrayEquals(new int[] {0, -1, 0}, fine.sameLevelOffsets(new LogicalLocation(4, 9, 7, 0)));
    assertArrayEquals(new int[] {1, 1, 0}, new LogicalLocation(2, 1, 1, 0)
        .sameLevelOffsets(new LogicalLocation(3, 4, 4, 0)));
  }

  @Test
  void givenSymmetrizedCoordinates_thenEdgesSpanMinusHalfToHalfAndMirrorExactly() {
    for (long n = 1; n <= 9; n++) {
      assertEquals(-0.5, LogicalLocation.indexToSymmetrizedCoordinate(0, 0, n));
      assertEquals(0.5, LogicalLocation.indexToSymmetrizedCoordinate(n - 1, 2, n));
      for (long i = 0; i < n; i++) {
        double left = LogicalLocation.indexToSymmetrizedCoordinate(i, 0, n);
        double right = LogicalLocation.indexToSymmetrizedCoordinate(n - 1 - i, 2, n);
        assertEquals(-left, right, 0.0); // exact, up to the sign of zero
        assertEquals(-0.5 + (double) i / n, left, 1e-15);
        if (i + 1 < n) {
          assertEquals(LogicalLocation.indexToSymmetrizedCoordinate(i, 2, n),
              LogicalLocation.indexToSymmetrizedCoordinate(i + 1, 0, n));
        }
      }
    }
  }

  @Test
  void givenALevelOutsideTheSupportedRange_thenConstructionIsMisuse() {
    assertThrows(IllegalArgumentException.class, () -> new LogicalLocation(-1, 0, 0, 0));
    assertThrows(IllegalArgumentException.class,
        () -> new LogicalLocation(LogicalLocation.MAX_LEVEL + 1, 0, 0, 0));
  }

  /** The same components in a record whose equals and hashCode the JDK generates. */
  private record Generated(int level, long lx1, long lx2, long lx3) {}

  @Test
  void givenRandomLocations_thenHashCodeIsTheGeneratedRecordsAndEqualsComparesEveryComponent() {
    Random rnd = new Random(11);
    for (int n = 0; n < 20_000; n++) {
      int level = rnd.nextInt(LogicalLocation.MAX_LEVEL + 1);
      long[] l = {rnd.nextLong() >> rnd.nextInt(64), rnd.nextLong() >> rnd.nextInt(64),
          rnd.nextLong() >> rnd.nextInt(64)};
      LogicalLocation loc = new LogicalLocation(level, l[0], l[1], l[2]);
      assertEquals(new Generated(level, l[0], l[1], l[2]).hashCode(), loc.hashCode());
      assertEquals(loc, new LogicalLocation(level, l[0], l[1], l[2]));
      assertFalse(loc.equals(new LogicalLocation(level == 0 ? 1 : level - 1, l[0], l[1], l[2])));
      assertFalse(loc.equals(new LogicalLocation(level, l[0] + 1, l[1], l[2])));
      assertFalse(loc.equals(new LogicalLocation(level, l[0], l[1] + 1, l[2])));
      assertFalse(loc.equals(new LogicalLocation(level, l[0], l[1], l[2] + 1)));
      assertFalse(loc.equals(new Generated(level, l[0], l[1], l[2])));
    }
  }
}
