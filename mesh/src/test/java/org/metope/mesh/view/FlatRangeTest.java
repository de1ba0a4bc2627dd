package org.metope.mesh.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.BlockShape;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexRange;

/** Flat ranges, {@link ParFor#flat} and the views' access by cell number. */
class FlatRangeTest {
  private static final IndexBox BOX =
      new IndexBox(new IndexRange(1, 2), new IndexRange(1, 3), new IndexRange(2, 4));

  /**
   * In a 6 x 5 x 4 block (ni x nj x nk) the range of the box visits, per plane, every number from
   * its first cell to its last: each cell of the box once, plus the cells between its rows, and
   * nothing before or after.
   */
  @Test
  void givenABox_thenTheRangeCoversItsCellsAndTheCellsBetweenItsRows() {
    FieldStorage storage = ViewFixtures.storage(new BlockShape(6, 5, 4));
    MeshData md = storage.partitions("base", -1).get(0);
    VariablePack pack = PackDescriptor.of(storage.state(), "u").pack(md);
    FlatRange range = pack.flatRange(BOX);
    List<Integer> visits = new ArrayList<>();
    ParFor.flat(2, 2, range, (b, c) -> visits.add(c));
    assertEquals(range.count(), visits.size());
    Set<Integer> visited = new HashSet<>(visits);
    assertEquals(visits.size(), visited.size());
    int inBox = 0;
    for (int k = 0; k < 4; k++) {
      for (int j = 0; j < 5; j++) {
        for (int i = 0; i < 6; i++) {
          int c = (k * 5 + j) * 6 + i;
          boolean inside = k >= 1 && k <= 2 && j >= 1 && j <= 3 && i >= 2 && i <= 4;
          boolean between =
              k >= 1 && k <= 2 && c >= (k * 5 + 1) * 6 + 2 && c <= (k * 5 + 3) * 6 + 4;
          assertEquals(between, visited.contains(c), "(k, j, i)=(" + k + "," + j + "," + i + ")");
          inBox += inside && visited.contains(c) ? 1 : 0;
        }
      }
    }
    assertEquals(BOX.size(), inBox);
    assertEquals((1 * 5 + 1) * 6 + 2, visits.get(0));
  }

  /** The value at cell number {@code c} is the value at {@code (k, j, i)}, in every view. */
  @Test
  void givenCellNumbers_thenFlatAccessesMatchTheCellAccesses() {
    for (BlockShape shape : ViewFixtures.shapes()) {
      FieldStorage storage = ViewFixtures.storage(shape);
      MeshData md = storage.partitions("stage1", -1).get(0);
      VariablePack pack = PackDescriptor.of(storage.state(), "u").withFluxes().pack(md);
      FieldView view = FieldView.withFluxes(md, "u");
      ArenaLayout layout = storage.layout();
      int k = shape.nk() - 1;
      int j = shape.nj() - 1;
      int c = (k * shape.nj() + j) * shape.ni() + 1;
      for (int b = 0; b < md.numBlocks(); b++) {
        for (int n = 0; n < 2; n++) {
          pack.setFlat(b, n, c, 100.0 * b + n);
          assertEquals(100.0 * b + n, md.data()[pack.index(b, n, k, j, 1)]);
          assertEquals(100.0 * b + n, view.getFlat(b, n, c));
          view.setFlat(b, n, c, -1.0);
          assertEquals(-1.0, pack.getFlat(b, n, c));
          for (int d = 1; d <= shape.dimensions(); d++) {
            pack.setFluxFlat(b, d, n, c, 10.0 * d);
            assertEquals(10.0 * d, md.data()[layout.index(layout.fluxInstance(
                storage.state().fieldId("u"), d), b, n, k, j, 1)]);
            assertEquals(10.0 * d, pack.fluxFlat(b, d, n, c));
          }
        }
      }
      assertEquals(1, pack.stride(CoordinateDirection.X1DIR));
      assertEquals(shape.ni(), view.stride(CoordinateDirection.X2DIR));
      assertEquals(shape.ni() * shape.nj(), pack.stride(CoordinateDirection.X3DIR));
    }
  }

  @Test
  void givenABoxOutsideTheBlock_thenTheRangeIsRefusedAndAnEmptyBoxIsEmpty() {
    FieldStorage storage = ViewFixtures.storage(new BlockShape(6, 5, 4));
    FieldView view = FieldView.of(storage.partitions("base", -1).get(0), "u");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> view.flatRange(BOX.expand(CoordinateDirection.X1DIR, 0, 2)));
    assertEquals("box i=2..6 leaves the block's [0, 6)", e.getMessage());
    IndexBox empty = BOX.expand(CoordinateDirection.X2DIR, 0, -3);
    int[] calls = {0};
    ParFor.flat(0, 4, view.flatRange(empty), (b, c) -> calls[0]++);
    assertEquals(0, calls[0]);
    ParFor.flat(0, 4, view.flatRange(BOX), (b, c) -> calls[0]++);
    assertEquals(5 * view.flatRange(BOX).count(), calls[0]);
  }

  /** Each kernel class gets its own flat loop class, reused on later calls. */
  @Test
  void givenKernelClasses_thenFlatLoopCopiesAreDistinctPerClassAndCached() {
    FlatKernel first = (b, c) -> { };
    FlatKernel second = (b, c) -> { };
    FlatLoop a = ParFor.flatLoopFor(first.getClass());
    assertSame(a, ParFor.flatLoopFor(first.getClass()));
    assertNotSame(a.getClass(), ParFor.flatLoopFor(second.getClass()).getClass());
    assertTrue(a.getClass().isHidden());
  }
}
