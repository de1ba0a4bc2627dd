package org.metope.kernels.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.metope.kernels.body.RefinementKernels;

class BoundaryTableTest {
  private static final BlockLayout BLOCK = new BlockLayout(10, 2, 8, 8, 8);
  private static final BlockLayout COARSE = new BlockLayout(2000, 2, 6, 6, 6);

  @Test
  void givenTwoBoundaries_whenBuilt_thenEachColumnHoldsOneEntryPerBoundary() {
    BoundaryTableBuilder builder = new BoundaryTableBuilder();
    int first = builder.add(BoundaryOp.COPY, 3, BLOCK, new IndexBox(2, 5, 2, 3, 6, 7), 100);
    int second = builder.add(BoundaryOp.COPY, 3, BLOCK, new IndexBox(0, 1, 2, 5, 2, 5), 164);
    builder.defaultValue(second, 4.5).sparseThreshold(second, 1e-3);
    BoundaryTable table = builder.build();

    assertEquals(2, table.size);
    assertEquals(0, first);
    assertEquals(100, table.ints[BoundaryTable.BUFFER_OFFSET * 2]);
    assertEquals(164, table.ints[BoundaryTable.BUFFER_OFFSET * 2 + 1]);
    assertEquals(2 * 4 * 2 * 2, table.bufferLength(0));
    assertEquals(2 * 2 * 4 * 4, table.get(BoundaryTable.CELLS, 1));
    assertEquals(2 * 2 * 2, table.get(BoundaryTable.ROWS, 0));
    assertEquals(2 * 4 * 4, table.maxRows);
    assertEquals(32 + 64, table.totalCells);
    assertEquals(4.5, table.getReal(BoundaryTable.DEFAULT_VALUE, 1));
    assertEquals(1e-3, table.reals[BoundaryTable.SPARSE_THRESHOLD * 2 + 1]);
    assertEquals(BoundaryTable.RECEIVE_COPY, table.receiveMode[1]);
    assertEquals(1, table.allocated[0]);
    assertEquals(1, table.all[1]);
  }

  @Test
  void givenARefinementBoundaryWithoutCoordinates_whenBuilt_thenUnitCoordinatesAlignTheChildren() {
    BoundaryTable table = oneProlongation();
    double coarseCentre = RefinementKernels.center(table.getReal(BoundaryTable.COARSE_XMIN1, 0),
        table.getReal(BoundaryTable.COARSE_DX1, 0), 3);
    double firstChild = RefinementKernels.center(table.getReal(BoundaryTable.FINE_XMIN1, 0),
        table.getReal(BoundaryTable.FINE_DX1, 0), -2 + 2 * 3);
    assertEquals(coarseCentre - 0.25, firstChild, 0.0);
  }

  @Test
  void givenRowsOfAnEarlierTable_whenCopied_thenOnlyTheirThreeOffsetsChange() {
    BoundaryTable before = copyAndProlongation();
    BoundaryTableBuilder again = new BoundaryTableBuilder(1); // grows while copying
    assertEquals(0, again.addCopies(before, 0, 2));
    again.moveCopy(0, 540, 123, 77).moveCopy(1, 500, 600, 0);
    BoundaryTable after = again.build();
    // Row 0 is a copy, without a fine side: the fine offset 123 given for it is not taken.
    for (int c = 0; c < BoundaryTable.INT_COLUMNS; c++) {
      for (int b = 0; b < 2; b++) {
        int expected = before.get(c, b);
        if (c == BoundaryTable.VAR_OFFSET) {
          expected = b == 0 ? 540 : 500;
        } else if (c == BoundaryTable.BUFFER_OFFSET) {
          expected = b == 0 ? 77 : 0;
        } else if (c == BoundaryTable.FINE_OFFSET && b == 1) {
          expected = 600;
        }
        assertEquals(expected, after.get(c, b), "column " + c + " row " + b);
      }
    }
    for (int c = 0; c < BoundaryTable.REAL_COLUMNS; c++) {
      for (int b = 0; b < 2; b++) {
        assertEquals(before.getReal(c, b), after.getReal(c, b), 0.0, "real " + c + " row " + b);
      }
    }
  }

  /**
   * Offsets moved to another instance: var offsets of every row, fine offsets of refinement rows
   * only (a copy row's 0 stays), the rest as it was; the reals are shared, the allocation flags
   * copied.
   */
  @Test
  void givenATable_whenItsOffsetsMove_thenOnlyVarAndRefinementFineOffsetsChange() {
    BoundaryTable before = copyAndProlongation();
    before.allocated[1] = 0;
    BoundaryTable moved = before.withOffsets(offset -> offset + 1000);
    for (int c = 0; c < BoundaryTable.INT_COLUMNS; c++) {
      for (int b = 0; b < 2; b++) {
        boolean moves = c == BoundaryTable.VAR_OFFSET || c == BoundaryTable.FINE_OFFSET && b == 1;
        assertEquals(before.get(c, b) + (moves ? 1000 : 0), moved.get(c, b),
            "column " + c + " row " + b);
      }
    }
    assertSame(before.reals, moved.reals);
    assertNotSame(before.ints, moved.ints);
    assertEquals(1, moved.allocated[0]);
    assertEquals(0, moved.allocated[1]);
  }

  /** A copy row (var at 40, buffer at 7), then {@link #oneProlongation}'s row. */
  private static BoundaryTable copyAndProlongation() {
    BoundaryTableBuilder builder = new BoundaryTableBuilder();
    builder.add(BoundaryOp.COPY, 2, new BlockLayout(40, 1, 1, 6, 6), new IndexBox(1, 4, 0, 0, 0,
        0), 7);
    return withProlongation(builder);
  }

  /**
   * A copied refinement row is not checked again at build, unless it changed after the copy: a
   * fine layout too small for its children is refused then (without the reset of the copy's mark
   * it would be built).
   */
  @Test
  void givenACopiedRowChangedAfterTheCopy_whenBuilt_thenItIsCheckedAgain() {
    BoundaryTable before = oneProlongation();
    BoundaryTableBuilder again = new BoundaryTableBuilder();
    int b = again.addCopies(before, 0, 1);
    assertEquals(1, again.build().size, "a copy as it was builds");
    again.fine(b, new BlockLayout(100, 1, 1, 4, 4), -2, -2, 0);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, again::build);
    assertTrue(e.getMessage().startsWith("refinement boundary reaches outside its block"),
        e.getMessage());
  }

  /** A table of one 2D prolongation, 4 x 4 coarse cells into a fine block of 8 x 8 with ghosts. */
  private static BoundaryTable oneProlongation() {
    return withProlongation(new BoundaryTableBuilder());
  }

  /** {@code builder}'s rows and then {@link #oneProlongation}'s, built. */
  private static BoundaryTable withProlongation(BoundaryTableBuilder builder) {
    int b = builder.add(BoundaryOp.PROLONGATE, 2, new BlockLayout(0, 1, 1, 6, 6),
        new IndexBox(1, 4, 1, 4, 0, 0), 0);
    builder.fine(b, new BlockLayout(100, 1, 1, 8, 8), -2, -2, 0);
    return builder.build();
  }

  @Test
  void givenABoxOutsideItsBlock_whenAdded_thenTheMessageNamesBoxAndVar() {
    BoundaryTableBuilder builder = new BoundaryTableBuilder();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> builder.add(BoundaryOp.COPY, 3, BLOCK, new IndexBox(0, 8, 0, 0, 0, 0), 0));
    assertTrue(e.getMessage().startsWith("box outside var"), e.getMessage());
  }

  @Test
  void givenARestrictionWhoseChildrenLeaveTheFineBlock_whenBuilt_thenItIsRefused() {
    BoundaryTableBuilder builder = new BoundaryTableBuilder();
    int b = builder.add(BoundaryOp.RESTRICT, 3, COARSE, new IndexBox(2, 5, 2, 3, 2, 3), 0);
    builder.fine(b, BLOCK, -2, -2, -2);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, builder::build);
    assertTrue(e.getMessage().contains("b=0 fine children along i span 2..9"), e.getMessage());
  }

  @Test
  void givenAProlongationWithoutAStencilCell_whenBuilt_thenItIsRefused() {
    BoundaryTableBuilder builder = new BoundaryTableBuilder();
    int b = builder.add(BoundaryOp.PROLONGATE, 1, new BlockLayout(0, 1, 1, 1, 6),
        new IndexBox(0, 1, 0, 0, 0, 0), 0);
    builder.fine(b, new BlockLayout(10, 1, 1, 1, 8), 0, 0, 0);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, builder::build);
    assertTrue(e.getMessage().contains("stencil along i"), e.getMessage());
  }

  @Test
  void givenARefinementBoundaryWithoutFineLayout_whenBuilt_thenItIsRefused() {
    BoundaryTableBuilder builder = new BoundaryTableBuilder();
    builder.add(BoundaryOp.RESTRICT, 3, COARSE, new IndexBox(2, 3, 2, 3, 2, 3), 0);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, builder::build);
    assertEquals("refinement boundary without fine layout: b=0 op=RESTRICT", e.getMessage());
  }

  @Test
  void givenSmallArenas_whenChecked_thenTheFirstBoundaryReachingOutIsNamed() {
    BoundaryTableBuilder builder = new BoundaryTableBuilder();
    builder.add(BoundaryOp.COPY, 3, BLOCK, new IndexBox(2, 5, 2, 5, 2, 5), 50);
    BoundaryTable table = builder.build();
    table.checkArenas(BLOCK.end(), 50 + 128);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> table.checkArenas(BLOCK.end(), 50 + 127));
    assertEquals("buffer slice outside buffer arena: b=0 end=178 bufferLength=177",
        e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> table.checkArenas(BLOCK.end() - 1, 1000));
  }

  @Test
  void givenManyBoundaries_whenBuilt_thenTheBuilderGrowsAndKeepsOrder() {
    BoundaryTableBuilder builder = new BoundaryTableBuilder();
    for (int b = 0; b < 100; b++) {
      builder.add(BoundaryOp.COPY, 3, BLOCK, new IndexBox(2, 2, 2, 2, 2, 2), b);
    }
    BoundaryTable table = builder.build();
    for (int b = 0; b < 100; b++) {
      assertEquals(b, table.get(BoundaryTable.BUFFER_OFFSET, b));
    }
  }

  @Test
  void givenAFullBuilder_whenBuiltThenChanged_thenTheFirstTableKeepsItsValues() {
    // Filled to its capacity, the builder hands its arrays to the table without a copy; a later
    // change or boundary must not reach that table.
    BoundaryTableBuilder builder = new BoundaryTableBuilder(2);
    builder.add(BoundaryOp.COPY, 3, BLOCK, new IndexBox(2, 2, 2, 2, 2, 2), 7);
    int second = builder.add(BoundaryOp.COPY, 3, BLOCK, new IndexBox(2, 3, 2, 2, 2, 2), 9);
    builder.defaultValue(second, 1.5);
    BoundaryTable first = builder.build();
    builder.defaultValue(second, -2.0);
    builder.add(BoundaryOp.COPY, 3, BLOCK, new IndexBox(2, 2, 2, 2, 2, 2), 11);
    BoundaryTable later = builder.build();

    assertEquals(2, first.size);
    assertEquals(1.5, first.getReal(BoundaryTable.DEFAULT_VALUE, 1));
    assertEquals(9, first.get(BoundaryTable.BUFFER_OFFSET, 1));
    assertEquals(3, later.size);
    assertEquals(-2.0, later.getReal(BoundaryTable.DEFAULT_VALUE, 1));
    assertEquals(11, later.get(BoundaryTable.BUFFER_OFFSET, 2));
    assertEquals(7, later.get(BoundaryTable.BUFFER_OFFSET, 0));
  }

  @Test
  void givenBadArguments_whenAdded_thenMessagesNameTheValue() {
    BoundaryTableBuilder builder = new BoundaryTableBuilder();
    IndexBox box = new IndexBox(2, 2, 2, 2, 2, 2);
    assertEquals("unknown operation: op=9", assertThrows(IllegalArgumentException.class,
        () -> builder.add(9, 3, BLOCK, box, 0)).getMessage());
    assertEquals("ndim must be 1, 2 or 3: ndim=4", assertThrows(IllegalArgumentException.class,
        () -> builder.add(BoundaryOp.COPY, 4, BLOCK, box, 0)).getMessage());
    assertEquals("no such boundary: b=0 size=0", assertThrows(IllegalArgumentException.class,
        () -> builder.defaultValue(0, 1.0)).getMessage());
    int b = builder.add(BoundaryOp.COPY, 3, BLOCK, box, 0);
    assertEquals("axis must be 0, 1 or 2: axis=3 b=0", assertThrows(
        IllegalArgumentException.class,
        () -> builder.coordinates(b, 3, 0.0, 1.0, 0.0, 2.0)).getMessage());
  }

  @Test
  void givenCoordinatesAxisByAxis_whenBuilt_thenTheyEqualTheArrayForm() {
    BoundaryTableBuilder byArrays = new BoundaryTableBuilder();
    BoundaryTableBuilder byAxis = new BoundaryTableBuilder();
    for (BoundaryTableBuilder builder : new BoundaryTableBuilder[] {byArrays, byAxis}) {
      int b = builder.add(BoundaryOp.PROLONGATE, 2, new BlockLayout(0, 1, 1, 6, 6),
          new IndexBox(1, 4, 1, 4, 0, 0), 0);
      builder.fine(b, new BlockLayout(100, 1, 1, 8, 8), -2, -2, 0);
    }
    byArrays.coordinates(0, new double[] {0.1, 0.2, 0.3}, new double[] {0.5, 0.25, 0.125},
        new double[] {0.4, 0.5, 0.6}, new double[] {1.0, 0.5, 0.25});
    byAxis.coordinates(0, 0, 0.1, 0.5, 0.4, 1.0).coordinates(0, 1, 0.2, 0.25, 0.5, 0.5)
        .coordinates(0, 2, 0.3, 0.125, 0.6, 0.25);
    BoundaryTable a = byArrays.build();
    BoundaryTable b = byAxis.build();
    assertArrayEquals(a.reals, b.reals);
    assertEquals(0.125, b.getReal(BoundaryTable.FINE_DX1 + 2 * 2, 0));
  }

  @Test
  void givenAClearedBuilder_whenBuiltOverATableOfTheSameSize_thenThatTableHoldsTheNewRows() {
    BoundaryTableBuilder builder = new BoundaryTableBuilder();
    int r = builder.add(BoundaryOp.RESTRICT, 3, COARSE, new IndexBox(2, 3, 2, 3, 2, 3), 0);
    builder.fine(r, BLOCK, -2, -2, -2);
    builder.add(BoundaryOp.COPY, 3, BLOCK, new IndexBox(2, 5, 2, 5, 2, 5), 40);
    BoundaryTable first = builder.build(null);
    first.receiveMode[1] = BoundaryTable.RECEIVE_SKIP;
    first.allocated[0] = 0;
    first.nonzero[1] = 1;
    int version = first.columnsVersion();

    builder.clear();
    builder.add(BoundaryOp.COPY, 3, BLOCK, new IndexBox(2, 2, 2, 2, 2, 2), 7);
    builder.add(BoundaryOp.COPY, 3, BLOCK, new IndexBox(2, 3, 2, 2, 2, 2), 9);
    BoundaryTable second = builder.build(first);

    assertSame(first, second);
    assertEquals(BoundaryOp.COPY, second.get(BoundaryTable.OP, 0));
    assertEquals(9, second.get(BoundaryTable.BUFFER_OFFSET, 1));
    // The first table's refinement row left no fine side in the builder's row 0.
    assertEquals(0, second.get(BoundaryTable.FINE_OFFSET, 0));
    assertEquals(0.0, second.getReal(BoundaryTable.FINE_DX1, 0));
    assertEquals(2, second.maxRows); // the first table had 2 x 4 x 4
    assertEquals(2 * 1 + 2 * 2, second.totalCells);
    assertEquals(BoundaryTable.RECEIVE_COPY, second.receiveMode[1]);
    assertEquals(1, second.allocated[0]);
    assertEquals(0, second.nonzero[1]);
    assertTrue(second.columnsVersion() != version, "a device copy of the columns is stale");
  }

  /**
   * A row of a cleared builder starts without the fine side an earlier table's row had there: a
   * refinement row given none is refused (it would be built with the old flag kept).
   */
  @Test
  void givenAClearedBuildersRefinementRowWithoutFineSide_whenBuilt_thenItIsRefused() {
    BoundaryTableBuilder builder = new BoundaryTableBuilder();
    IndexBox box = new IndexBox(2, 3, 2, 3, 2, 3);
    builder.fine(builder.add(BoundaryOp.RESTRICT, 3, COARSE, box, 0), BLOCK, -2, -2, -2);
    builder.build(null);
    builder.clear();
    builder.add(BoundaryOp.RESTRICT, 3, COARSE, box, 0);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> builder.build(null));
    assertTrue(e.getMessage().startsWith("refinement boundary without fine layout"),
        e.getMessage());
  }

  @Test
  void givenATableOfAnotherSize_whenBuiltOverIt_thenANewTableIsMadeAndTheOldKeepsItsRows() {
    BoundaryTableBuilder builder = new BoundaryTableBuilder();
    builder.add(BoundaryOp.COPY, 3, BLOCK, new IndexBox(2, 2, 2, 2, 2, 2), 7);
    BoundaryTable first = builder.build(null);
    builder.clear();
    builder.add(BoundaryOp.COPY, 3, BLOCK, new IndexBox(2, 2, 2, 2, 2, 2), 11);
    builder.add(BoundaryOp.COPY, 3, BLOCK, new IndexBox(2, 2, 2, 2, 2, 2), 13);
    BoundaryTable second = builder.build(first);

    assertNotSame(first, second);
    assertEquals(2, second.size);
    assertEquals(7, first.get(BoundaryTable.BUFFER_OFFSET, 0));
    assertEquals(13, second.get(BoundaryTable.BUFFER_OFFSET, 1));
  }
}
