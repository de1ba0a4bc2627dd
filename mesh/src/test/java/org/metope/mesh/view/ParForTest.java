package org.metope.mesh.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexRange;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;

class ParForTest {

  @Test
  void givenABox_thenEveryCellIsVisitedOnceWithIFastest() {
    IndexBox box = new IndexBox(new IndexRange(2, 3), new IndexRange(0, 1), new IndexRange(5, 7));
    List<String> visits = new ArrayList<>();
    ParFor.cells(1, 2, box, (b, k, j, i) -> visits.add(b + "," + k + "," + j + "," + i));
    assertEquals(2 * 2 * 2 * 3, visits.size());
    assertEquals("1,2,0,5", visits.get(0));
    assertEquals("1,2,0,6", visits.get(1));
    assertEquals("1,2,1,5", visits.get(3));
    assertEquals("2,3,1,7", visits.get(visits.size() - 1));
    assertEquals(visits.size(), visits.stream().distinct().count());
  }

  /** Two kernel classes get two loop copies, and both still run: the copies are independent. */
  @Test
  void givenTwoKernelClasses_thenEachRunsItsOwnCopyOfTheLoop() {
    IndexBox box = new IndexBox(new IndexRange(0, 0), new IndexRange(0, 0), new IndexRange(0, 3));
    long[] sums = new long[2];
    ParFor.cells(0, 0, box, (b, k, j, i) -> sums[0] += i);
    ParFor.cells(0, 0, box, (b, k, j, i) -> sums[1] += 10 * i);
    assertEquals(6, sums[0]);
    assertEquals(60, sums[1]);
  }

  /** Each kernel class has its own loop class (its own profile), reused on later calls. */
  @Test
  void givenKernelClasses_thenLoopCopiesAreDistinctPerClassAndCached() {
    CellKernel first = (b, k, j, i) -> { };
    CellKernel second = (b, k, j, i) -> { };
    CellLoop a = ParFor.loopFor(first.getClass());
    assertSame(a, ParFor.loopFor(first.getClass()));
    CellLoop b = ParFor.loopFor(second.getClass());
    assertNotSame(a.getClass(), b.getClass());
    assertTrue(a.getClass().isHidden());
    assertNotSame(CellLoopTemplate.class, a.getClass());
  }

  @Test
  void givenAShape_thenBoxesFollowItsDomainsAndExpand() {
    IndexShape shape = new IndexShape(16, 8, 0, 2);
    IndexBox interior = IndexBox.of(shape, IndexDomain.INTERIOR);
    assertEquals(new IndexRange(2, 17), interior.i());
    assertEquals(new IndexRange(2, 9), interior.j());
    assertEquals(new IndexRange(0, 0), interior.k());
    assertEquals(new IndexRange(2, 18),
        IndexBox.of(shape, IndexDomain.INTERIOR, TopologicalElement.F1).i());
    assertEquals(new IndexRange(1, 18), interior.expand(CoordinateDirection.X1DIR, 1, 1).i());
    assertEquals(new IndexRange(2, 10), interior.expand(CoordinateDirection.X2DIR, 0, 1).j());
    assertEquals(new IndexRange(0, 19), IndexBox.of(shape, IndexDomain.ENTIRE).i());
    assertEquals(16L * 8, interior.size());
  }
}
