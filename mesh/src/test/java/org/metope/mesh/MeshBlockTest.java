package org.metope.mesh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexRange;

class MeshBlockTest {

  @Test
  void givenABlock_thenItsIndexShapeHasGhostsOnActiveAxesOnly() {
    Mesh mesh = Mesh.build(Decks.config(Decks.deck(64, 32, 1, 16, 8, 1, "nghost = 3\n", "")), 1,
        0);
    MeshBlock b = mesh.block(5);
    assertEquals(new IndexRange(3, 18), b.cellBounds().boundsI(IndexDomain.INTERIOR));
    assertEquals(new IndexRange(0, 13), b.cellBounds().boundsJ(IndexDomain.ENTIRE));
    assertEquals(new IndexRange(0, 0), b.cellBounds().boundsK(IndexDomain.ENTIRE));
    assertEquals(new LogicalLocation(2, 3, 0, 0), b.loc()); // gid 5 = Z-order (3, 0)
    assertEquals(0, b.physicalLevel());
    assertEquals(1.0, b.cost());
  }

  @Test
  void givenABlock_thenCellCentresSitHalfACellInsideItsBounds() {
    Mesh mesh = Mesh.build(Decks.config(Decks.deck(64, 32, 1, 16, 8, 1, "", "")), 1, 0);
    MeshBlock b = mesh.block(5); // x1 in [0.75, 1], x2 in [0, 0.25]
    assertEquals(0.75, b.region().xmin(0), 1e-15);
    assertEquals(0.25, b.region().xmax(1), 1e-15);
    int is = b.cellBounds().boundsI(IndexDomain.INTERIOR).s();
    int ie = b.cellBounds().boundsI(IndexDomain.INTERIOR).e();
    assertEquals(0.75 + 0.5 / 64, b.coords().x1c(is), 1e-15);
    assertEquals(1.0 - 0.5 / 64, b.coords().x1c(ie), 1e-15);
    assertEquals(1.0 / 32, b.coords().dx(1), 1e-15);
    assertEquals(0.5, b.coords().x3c(0), 1e-15); // one cell spanning [0, 1]
    assertEquals(1.0 / 64 / 32, b.coords().cellVolume(), 1e-18);
  }

  @Test
  void givenAMultilevelMesh_thenTheCoarseBufferHasHalfTheCellsAndTheSameGhosts() {
    Mesh mesh = Mesh.build(Decks.config(Decks.deck(64, 32, 1, 16, 8, 1,
        "refinement = adaptive\nnumlevel = 2\n", "")), 1, 0);
    MeshBlock b = mesh.block(0);
    assertEquals(new IndexRange(2, 9), b.coarseCellBounds().boundsI(IndexDomain.INTERIOR));
    assertEquals(new IndexRange(2, 5), b.coarseCellBounds().boundsJ(IndexDomain.INTERIOR));
    assertEquals(new IndexRange(0, 0), b.coarseCellBounds().boundsK(IndexDomain.ENTIRE));
  }
}
