package org.metope.mesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.SetupError;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexRange;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.view.FieldView;
import org.metope.mesh.view.IndexBox;
import org.metope.mesh.view.PackDescriptor;

/**
 * {@code FINE} fields (Parthenon's {@code Metadata::Fine}): their index space, storage, fluxes,
 * coarse buffer, coordinates and views, against Parthenon's {@code f_cellbounds} (twice the
 * interior cells of every active axis, the block's ghost width).
 */
class FineFieldTest {
  /** 2D, blocks of 8 x 4 interior cells, two ghosts, two levels. */
  private static final String DECK = "<parthenon/mesh>\nrefinement = adaptive\nnumlevel = 2\n"
      + "nx1 = 16\nx1min = 0\nx1max = 1\nix1_bc = periodic\nox1_bc = periodic\n"
      + "nx2 = 8\nx2min = 0\nx2max = 0.5\nix2_bc = periodic\nox2_bc = periodic\n"
      + "nx3 = 1\nx3min = 0\nx3max = 1\n"
      + "<parthenon/meshblock>\nnx1 = 8\nnx2 = 4\nnx3 = 1\n";

  private static Mesh mesh() {
    return TestMeshes.mesh(TestMeshes.pin(DECK), TestMeshes.packages(
        FinePackages.cellAndFine(Metadata.WITH_FLUXES)), List.of("base", "stage1"));
  }

  @Test
  void givenABlock_thenItsFineBoundsHaveTwiceTheInteriorAndTheSameGhosts() {
    MeshBlock b = mesh().block(0);
    IndexShape fine = b.fineCellBounds();
    assertEquals(new IndexRange(2, 17), fine.boundsI(IndexDomain.INTERIOR));
    assertEquals(new IndexRange(0, 19), fine.boundsI(IndexDomain.ENTIRE));
    assertEquals(new IndexRange(2, 9), fine.boundsJ(IndexDomain.INTERIOR));
    assertEquals(new IndexRange(0, 0), fine.boundsK(IndexDomain.ENTIRE));
    assertTrue(b.bounds(true, false) == fine && b.bounds(true, true) == b.cellBounds());
    assertTrue(b.bounds(false, false) == b.cellBounds()
        && b.bounds(false, true) == b.coarseCellBounds());
  }

  @Test
  void givenAFineField_thenItsCellCentresHalveTheBlocksCells() {
    MeshBlock b = mesh().block(1); // x1 in [0.5, 1], x2 in [0, 0.25]
    double dx = 1.0 / 16;
    assertEquals(dx / 2, b.fineCoords().dx(0), 1e-16);
    assertEquals(0.5 + dx / 4, b.fineCoords().x1c(2), 1e-15);
    assertEquals(1.0 - dx / 4, b.fineCoords().x1c(17), 1e-15);
    assertEquals(0.25 - (0.5 / 8) / 4, b.fineCoords().x2c(9), 1e-15);
    assertEquals(1.0, b.fineCoords().dx(2), 1e-16); // the inactive axis keeps its one cell
  }

  @Test
  void givenAFineField_thenDataAndFluxesHaveFineExtentsAndTheCoarseBufferTheBlocks() {
    Mesh mesh = mesh();
    ArenaLayout layout = mesh.fields().layout();
    int fine = mesh.fields().state().fieldId("phi_fine");
    int cell = mesh.fields().state().fieldId("phi");
    for (int container = 0; container < 2; container++) {
      int inst = layout.dataInstance(fine, container);
      assertEquals(List.of(20, 12, 1), extents(layout, inst));
    }
    for (int d = 1; d <= 2; d++) {
      assertEquals(List.of(20, 12, 1), extents(layout, layout.fluxInstance(fine, d)));
      assertEquals(List.of(12, 8, 1), extents(layout, layout.fluxInstance(cell, d)));
    }
    assertEquals(List.of(12, 8, 1), extents(layout, layout.coarseInstance(fine)));
    assertEquals(List.of(8, 6, 1), extents(layout, layout.coarseInstance(cell)));
  }

  private static List<Integer> extents(ArenaLayout layout, int inst) {
    return List.of(layout.ni(inst), layout.nj(inst), layout.nk(inst));
  }

  /**
   * A view of the fine field reaches every fine index of every block (ghosts included) at a
   * distinct arena index inside that block's instance; the cell field's values are untouched.
   */
  @Test
  void givenAFineView_thenEveryFineIndexHasItsOwnSlotInsideTheBlock() {
    Mesh mesh = mesh();
    MeshData md = mesh.fields().partitions("base", 1).get(0);
    FieldView phiFine = FieldView.withFluxes(md, "phi_fine");
    BitSet seen = new BitSet();
    int count = 0;
    for (int b = 0; b < md.numBlocks(); b++) {
      IndexBox box = IndexBox.of(md.block(b).fineCellBounds(), IndexDomain.ENTIRE);
      int start = phiFine.offset(b);
      for (int j = box.j().s(); j <= box.j().e(); j++) {
        for (int i = box.i().s(); i <= box.i().e(); i++) {
          int index = phiFine.index(b, 0, 0, j, i);
          assertTrue(index >= start && index < start + phiFine.blockLength());
          assertTrue(!seen.get(index));
          seen.set(index);
          phiFine.set(b, 0, 0, j, i, 1.0 + i + 100 * j);
          count++;
        }
      }
    }
    assertEquals(md.numBlocks() * 20 * 12, count);
    FieldView phi = FieldView.of(md, "phi");
    for (int b = 0; b < md.numBlocks(); b++) {
      assertEquals(1.0 + 17 + 100 * 9, phiFine.get(b, 0, 0, 9, 17));
      assertEquals(0.0, phi.get(b, 0, 0, 5, 9));
    }
  }

  @Test
  void givenAPackOfAFineAndACellField_thenItIsRefusedNamingBothExtents() {
    Mesh mesh = mesh();
    MeshData md = mesh.fields().partitions("base", 1).get(0);
    String message = assertThrows(SetupError.class,
        () -> PackDescriptor.of(md.state(), "phi", "phi_fine").pack(md)).getMessage();
    assertTrue(message.contains("phi_fine") && message.contains("20"), message);
  }

  @Test
  void givenFineOnANonCellField_thenMisuseIsReported() {
    String message = assertThrows(IllegalArgumentException.class,
        () -> Metadata.of(Metadata.FACE, Metadata.FINE)).getMessage();
    assertTrue(message.contains("FINE needs CELL topology"), message);
    assertTrue(Metadata.of(Metadata.CELL, Metadata.FINE).isFine());
  }
}
