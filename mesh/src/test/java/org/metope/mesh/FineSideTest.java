package org.metope.mesh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.metope.kernels.table.BlockLayout;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;
import org.metope.kernels.table.BoundaryTableBuilder;
import org.metope.kernels.table.IndexBox;

class FineSideTest {
  /** Block 5 of a 64 x 32 mesh on the unit square in 16 x 8 blocks: x1 in [0.75, 1], 2 ghosts. */
  private static MeshBlock block() {
    return Mesh.build(Decks.config(Decks.deck(64, 32, 1, 16, 8, 1, "", "")), 1, 0).block(5);
  }

  /** A 2D prolongation row given {@code block}'s fine side, built. */
  private static BoundaryTable row(MeshBlock block, boolean fineField) {
    BoundaryTableBuilder t = new BoundaryTableBuilder();
    int b = t.add(BoundaryOp.PROLONGATE, 2, new BlockLayout(0, 1, 1, 6, 6),
        new IndexBox(1, 4, 1, 4, 0, 0), 0);
    FineSide.place(t, b, block, fineField, 2, new BlockLayout(100, 1, 1, 8, 8), 7);
    return t.build();
  }

  @Test
  void givenACellField_thenCoarseCellsAreTwiceTheBlocksAndBothGridsStartTwoGhostsLower() {
    BoundaryTable t = row(block(), false);
    assertEquals(107, t.get(BoundaryTable.FINE_OFFSET, 0));
    assertEquals(-2, t.get(BoundaryTable.FINE_ORIGIN_I, 0));
    assertEquals(-2, t.get(BoundaryTable.FINE_ORIGIN_J, 0));
    assertEquals(0, t.get(BoundaryTable.FINE_ORIGIN_K, 0)); // x3 has no ghosts
    assertEquals(1.0 / 64, t.getReal(BoundaryTable.FINE_DX1, 0), 1e-15);
    assertEquals(2.0 / 64, t.getReal(BoundaryTable.COARSE_DX1, 0), 1e-15);
    assertEquals(0.75 - 2.0 / 64, t.getReal(BoundaryTable.FINE_XMIN1, 0), 1e-15);
    assertEquals(0.75 - 4.0 / 64, t.getReal(BoundaryTable.COARSE_XMIN1, 0), 1e-15);
    assertEquals(2.0 / 32, t.getReal(BoundaryTable.COARSE_DX1 + 2, 0), 1e-15);
    assertEquals(-4.0 / 32, t.getReal(BoundaryTable.COARSE_XMIN1 + 2, 0), 1e-15);
  }

  @Test
  void givenAFineField_thenItsFineCellsAreHalfTheBlocksAndItsCoarseCellsTheBlocksOwn() {
    BoundaryTable t = row(block(), true);
    assertEquals(1.0 / 128, t.getReal(BoundaryTable.FINE_DX1, 0), 1e-15);
    assertEquals(0.75 - 2.0 / 128, t.getReal(BoundaryTable.FINE_XMIN1, 0), 1e-15);
    assertEquals(1.0 / 64, t.getReal(BoundaryTable.COARSE_DX1, 0), 1e-15);
    assertEquals(0.75 - 2.0 / 64, t.getReal(BoundaryTable.COARSE_XMIN1, 0), 1e-15);
  }
}
