package org.metope.mesh.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.metope.mesh.view.CoordinateDirection.X1DIR;

import org.junit.jupiter.api.Test;
import org.metope.mesh.field.SetupError;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.BlockShape;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;

class FieldViewTest {

  /** Every index of the view is ArenaLayout's, in 1D, 2D and 3D, both components, in stage1. */
  @Test
  void givenEveryShape_thenViewIndicesAreArenaLayoutIndices() {
    for (BlockShape shape : ViewFixtures.shapes()) {
      FieldStorage storage = ViewFixtures.storage(shape);
      MeshData md = storage.partitions("stage1", 2).get(1);
      ArenaLayout layout = storage.layout();
      int u = storage.state().fieldId("u");
      int data = layout.dataInstance(u, md.container());
      FieldView view = FieldView.withFluxes(md, "u");
      int checked = 0;
      for (int b = 0; b < md.numBlocks(); b++) {
        BlockView block = view.block(b);
        for (int n = 0; n < 2; n++) {
          for (int k = 0; k < shape.nk(); k++) {
            for (int j = 0; j < shape.nj(); j++) {
              for (int i = 0; i < shape.ni(); i++) {
                int expected = layout.index(data, md.blockIndex(b), n, k, j, i);
                assertEquals(expected, view.index(b, n, k, j, i));
                assertEquals(expected, block.index(n, k, j, i));
                for (int d = 1; d <= shape.dimensions(); d++) {
                  int flux = layout.index(layout.fluxInstance(u, d), md.blockIndex(b), n, k, j,
                      i);
                  assertEquals(flux, view.fluxIndex(b, d, n, k, j, i));
                  assertEquals(flux, block.fluxIndex(d, n, k, j, i));
                  assertEquals(flux, view.fluxes(d).index(b, n, k, j, i));
                }
                checked++;
              }
            }
          }
        }
      }
      assertEquals(md.numBlocks() * 2 * shape.cells(), checked);
    }
  }

  /**
   * Every element of a face, edge and node field, over the whole index box of that element (ghosts
   * included, IndexShape's extents), in 1D, 2D and 3D: the view's (and its block view's) index is
   * ArenaLayout's plane {@code elementIndex * ncomp + n}, inside the block, and no two values
   * share one.
   */
  @Test
  void givenNonCellFields_thenElementIndicesCoverTheirBoxesInsideTheBlockWithoutOverlap() {
    for (int s = 0; s < 3; s++) {
      BlockShape shape = ViewFixtures.shapes().get(s);
      IndexShape cells = ViewFixtures.indexShapes().get(s);
      FieldStorage storage = ViewFixtures.nonCellStorage(shape);
      MeshData md = storage.partitions("stage1", 2).get(1);
      ArenaLayout layout = storage.layout();
      for (String name : new String[] {"f", "e", "n"}) {
        FieldView view = FieldView.of(md, name);
        int inst = layout.dataInstance(storage.state().fieldId(name), md.container());
        for (int b = 0; b < md.numBlocks(); b++) {
          boolean[] seen = new boolean[view.blockLength()];
          int count = 0;
          for (TopologicalElement el : storage.state().field(name).metadata().elements()) {
            IndexBox box = IndexBox.of(cells, IndexDomain.ENTIRE, el);
            for (int n = 0; n < view.numComponents(); n++) {
              for (int k = box.k().s(); k <= box.k().e(); k++) {
                for (int j = box.j().s(); j <= box.j().e(); j++) {
                  for (int i = box.i().s(); i <= box.i().e(); i++) {
                    int index = view.index(el, b, n, k, j, i);
                    assertEquals(layout.index(inst, md.blockIndex(b),
                        el.elementIndex() * view.numComponents() + n, k, j, i), index);
                    assertEquals(index, view.block(b).index(el, n, k, j, i));
                    int inBlock = index - view.offset(b);
                    assertFalse(seen[inBlock], name + " " + el + " overlaps at " + inBlock);
                    seen[inBlock] = true;
                    count++;
                  }
                }
              }
            }
          }
          assertEquals(expectedValues(name, shape), count, name + " in " + shape);
        }
      }
    }
  }

  /** Values per block over the element boxes: (n+1) along each face's normal, Parthenon's count. */
  private static long expectedValues(String name, BlockShape shape) {
    long ni = shape.ni();
    long nj = shape.nj();
    long nk = shape.nk();
    long pj = nj > 1 ? nj + 1 : 1;
    long pk = nk > 1 ? nk + 1 : 1;
    return switch (name) {
      case "f" -> 2 * ((ni + 1) * nj * nk + ni * pj * nk + ni * nj * pk);
      case "e" -> ni * pj * pk + (ni + 1) * nj * pk + (ni + 1) * pj * nk;
      default -> (ni + 1) * pj * pk;
    };
  }

  @Test
  void givenAFaceView_thenEachElementIsItsOwnPlaneAndSetGetGoThroughTheArena() {
    FieldStorage storage = ViewFixtures.nonCellStorage(new BlockShape(6, 5, 4));
    MeshData md = storage.partitions("base", -1).get(0);
    FieldView view = FieldView.of(md, "f");
    assertEquals(3, view.numElements());
    view.set(TopologicalElement.F1, 2, 1, 3, 4, 5, 1.0);
    view.set(TopologicalElement.F2, 2, 1, 3, 4, 5, 2.0);
    view.set(TopologicalElement.F3, 2, 1, 3, 4, 5, 3.0);
    assertEquals(1.0, view.get(TopologicalElement.F1, 2, 1, 3, 4, 5));
    assertEquals(2.0, view.get(TopologicalElement.F2, 2, 1, 3, 4, 5));
    assertEquals(3.0, view.get(TopologicalElement.F3, 2, 1, 3, 4, 5));
    assertEquals(1.0, view.get(2, 1, 3, 4, 5), "without an element: the first one");
    assertEquals(view.elementStride(),
        view.index(TopologicalElement.F2, 2, 1, 3, 4, 5) - view.index(2, 1, 3, 4, 5));
    assertEquals(2.0, md.data()[view.index(TopologicalElement.F1, 2, 1, 3, 4, 5)
        + view.elementStride()]);
  }

  @Test
  void givenAView_thenSetWritesTheArenaAndGetReadsIt() {
    FieldStorage storage = ViewFixtures.storage(new BlockShape(6, 5, 4));
    MeshData md = storage.partitions("base", -1).get(0);
    FieldView view = FieldView.withFluxes(md, "u");
    view.set(3, 1, 2, 3, 4, 7.5);
    view.setFlux(3, X1DIR, 1, 2, 3, 4, -2.5);
    int u = storage.state().fieldId("u");
    ArenaLayout layout = storage.layout();
    assertEquals(7.5, storage.data()[layout.index(layout.dataInstance(u, 0), 3, 1, 2, 3, 4)]);
    assertEquals(-2.5, storage.data()[layout.index(layout.fluxInstance(u, 1), 3, 1, 2, 3, 4)]);
    assertEquals(7.5, view.block(3).get(1, 2, 3, 4));
    assertEquals(-2.5, view.fluxes(X1DIR).get(3, 1, 2, 3, 4));
    assertEquals(-2.5, view.block(3).flux(X1DIR, 1, 2, 3, 4));
  }

  @Test
  void givenAFieldWithoutFluxes_thenWithFluxesNamesTheFlagToDeclare() {
    MeshData md = ViewFixtures.storage(new BlockShape(6, 5, 4)).partitions("base", -1).get(0);
    SetupError e = assertThrows(SetupError.class, () -> FieldView.withFluxes(md, "w"));
    assertEquals("field=w has no flux storage: declare it with Metadata.CELL and"
        + " Metadata.WITH_FLUXES in package p", e.getMessage());
    FieldView dataOnly = FieldView.of(md, "w");
    assertThrows(IllegalStateException.class, () -> dataOnly.fluxes(X1DIR));
  }

  @Test
  void givenAnUnknownName_thenTheErrorNamesTheNearestField() {
    MeshData md = ViewFixtures.storage(new BlockShape(6, 5, 4)).partitions("base", -1).get(0);
    SetupError e = assertThrows(SetupError.class, () -> FieldView.of(md, "uu"));
    assertTrue(e.getMessage().startsWith("no package declares field=uu (did you mean u?);"
        + " declare it with StateDescriptor.addField"), e.getMessage());
  }

  @Test
  void givenAMissingDirection_thenFluxesNamesTheMeshDimensions() {
    MeshData md = ViewFixtures.storage(new BlockShape(7, 6, 1)).partitions("base", -1).get(0);
    SetupError e = assertThrows(SetupError.class,
        () -> FieldView.withFluxes(md, "u").fluxes(3));
    assertEquals("field=u has no fluxes through direction=3: the mesh has 2 dimensions"
        + " (directions 1..2)", e.getMessage());
  }

  @Test
  void givenAnUnallocatedSparseField_thenOfNamesTheBlockAndSparseMarksIt() {
    FieldStorage storage = ViewFixtures.storage(new BlockShape(6, 5, 4));
    int s1 = storage.state().fieldId("s_1");
    storage.allocateSparse(s1, 0);
    storage.allocateSparse(s1, 2);
    MeshData md = storage.partitions("base", -1).get(0);
    SetupError e = assertThrows(SetupError.class, () -> FieldView.of(md, "s_1"));
    assertTrue(e.getMessage().startsWith("field=s_1 is not allocated on block=index 1:"),
        e.getMessage());
    FieldView sparse = FieldView.sparse(md, "s_1");
    assertTrue(sparse.isAllocated(0));
    assertFalse(sparse.isAllocated(1));
    assertTrue(sparse.isAllocated(2));
    ArenaLayout layout = storage.layout();
    assertEquals(layout.index(layout.dataInstance(s1, 0), 2, 0, 1, 2, 3),
        sparse.index(2, 0, 1, 2, 3));
    assertThrows(SetupError.class, () -> sparse.block(1));
  }

  @Test
  void givenABlockView_thenItMatchesTheFieldViewAndChecksAtBuildTime() {
    FieldStorage storage = ViewFixtures.storage(new BlockShape(6, 5, 4));
    MeshData md = storage.partitions("stage1", -1).get(0);
    FieldView field = FieldView.withFluxes(md, "u");
    BlockView block = BlockView.withFluxes(md, "u", 3);
    assertEquals(field.index(3, 1, 2, 3, 4), block.index(1, 2, 3, 4));
    assertEquals(field.fluxIndex(3, 2, 1, 2, 3, 4), block.fluxIndex(2, 1, 2, 3, 4));
    assertEquals(field.index(3, 0, 0, 0, 0), BlockView.of(md, "u", 3).index(0, 0, 0, 0));
    SetupError noFluxes = assertThrows(SetupError.class, () -> BlockView.withFluxes(md, "w", 0));
    assertTrue(noFluxes.getMessage().startsWith("field=w has no flux storage"));
    SetupError unallocated = assertThrows(SetupError.class, () -> BlockView.of(md, "s_2", 4));
    assertTrue(unallocated.getMessage().startsWith("field=s_2 is not allocated on block=index 4"),
        unallocated.getMessage());
  }
}
