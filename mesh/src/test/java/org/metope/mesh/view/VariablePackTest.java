package org.metope.mesh.view;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.mesh.field.SetupError;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.BlockShape;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.geometry.TopologicalElement;

class VariablePackTest {

  /** Pack component v of field f is component v - lowerBound(f), at ArenaLayout's index. */
  @Test
  void givenAPackByNameWithASparsePool_thenComponentsMapToArenaLayout() {
    for (BlockShape shape : ViewFixtures.shapes()) {
      FieldStorage storage = ViewFixtures.storage(shape);
      int s2 = storage.state().fieldId("s_2");
      storage.allocateSparse(s2, 3);
      MeshData md = storage.partitions("stage1", -1).get(0);
      PackDescriptor desc = PackDescriptor.of(storage.state(), "u", "s").withFluxes();
      VariablePack pack = desc.pack(md);
      assertEquals(3, pack.numFields());
      assertEquals(4, pack.numVars());
      assertArrayEquals(new int[] {storage.state().fieldId("u"), storage.state().fieldId("s_1"),
          s2}, desc.fieldIds());
      assertEquals(0, pack.lowerBound(0));
      assertEquals(1, pack.upperBound(0));
      assertEquals(3, pack.lowerBound(2));
      ArenaLayout layout = storage.layout();
      for (int b = 0; b < md.numBlocks(); b++) {
        for (int f = 0; f < pack.numFields(); f++) {
          int field = pack.fieldId(f);
          for (int v = pack.lowerBound(f); v <= pack.upperBound(f); v++) {
            boolean allocated = layout.isAllocated(field, b);
            assertEquals(allocated, pack.isAllocated(b, v));
            if (!allocated) {
              continue;
            }
            int n = v - pack.lowerBound(f);
            int k = shape.nk() - 1;
            int j = shape.nj() - 1;
            assertEquals(layout.index(layout.dataInstance(field, 1), b, n, k, j, 2),
                pack.index(b, v, k, j, 2));
            for (int d = 1; d <= shape.dimensions(); d++) {
              assertEquals(layout.index(layout.fluxInstance(field, d), b, n, k, j, 2),
                  pack.fluxIndex(b, d, v, k, j, 2));
            }
          }
        }
      }
      assertTrue(pack.isAllocated(3, 3));
      assertFalse(pack.isAllocated(2, 3));
    }
  }

  /** The partition keeps its pack until an allocation change makes the offsets stale. */
  @Test
  void givenASparseAllocationBetweenTwoCalls_thenTheKeptPackIsReplaced() {
    FieldStorage storage = ViewFixtures.storage(new BlockShape(6, 5, 4));
    int s2 = storage.state().fieldId("s_2");
    MeshData md = storage.partitions("base", -1).get(0);
    PackDescriptor desc = PackDescriptor.of(storage.state(), "u", "s");
    VariablePack first = desc.pack(md);
    assertSame(first, desc.pack(md), "nothing changed: the same pack, nothing built");
    assertFalse(first.isAllocated(1, 3));

    storage.allocateSparse(s2, 1);
    VariablePack second = desc.pack(md);
    assertNotSame(first, second);
    assertTrue(second.isAllocated(1, 3));
    assertEquals(storage.layout().index(storage.layout().dataInstance(s2, 0), 1, 0, 1, 1, 1),
        second.index(1, 3, 1, 1, 1));
    assertSame(second, desc.pack(md));

    storage.deallocateSparse(s2, 1);
    assertFalse(desc.pack(md).isAllocated(1, 3));
    VariablePack other = PackDescriptor.of(storage.state(), "u").pack(md);
    assertNotSame(other, desc.pack(md), "each descriptor keeps its own pack");
    assertEquals(2, other.numVars());
  }

  @Test
  void givenAPackByFlag_thenItHoldsTheFlaggedFieldsInIdOrder() {
    FieldStorage storage = ViewFixtures.storage(new BlockShape(6, 5, 4));
    PackDescriptor desc = PackDescriptor.withFlags(storage.state(), MetadataFlag.WITH_FLUXES);
    assertEquals(3, desc.fields().size());
    assertEquals("u", desc.fields().get(0).name());
    VariablePack pack = desc.withFluxes().pack(storage.partitions("base", -1).get(0));
    assertEquals(4, pack.numVars());
  }

  @Test
  void givenAFieldWithoutFluxes_thenTheDescriptorFailsAtSetUp() {
    FieldStorage storage = ViewFixtures.storage(new BlockShape(6, 5, 4));
    SetupError e = assertThrows(SetupError.class,
        () -> PackDescriptor.of(storage.state(), "u", "w").withFluxes());
    assertEquals("field=w has no flux storage: declare it with Metadata.CELL and"
        + " Metadata.WITH_FLUXES in package p", e.getMessage());
    SetupError unknown = assertThrows(SetupError.class,
        () -> PackDescriptor.of(storage.state(), "v"));
    assertTrue(unknown.getMessage().startsWith("no package declares field=v"), unknown.getMessage());
  }

  @Test
  void givenFieldsOfTwoTopologies_thenPackingThemFails() {
    FieldStorage storage = ViewFixtures.storage(new BlockShape(6, 5, 4));
    PackDescriptor desc = PackDescriptor.of(storage.state(), "u", "g");
    SetupError e = assertThrows(SetupError.class,
        () -> desc.pack(storage.partitions("base", -1).get(0)));
    assertTrue(e.getMessage().startsWith("field=g has extents 1x1x1 and field=u 4x5x6"),
        e.getMessage());
  }

  @Test
  void givenFaceAndNodeFieldsInOnePack_thenPackingThemFails() {
    FieldStorage storage = ViewFixtures.nonCellStorage(new BlockShape(6, 5, 4));
    PackDescriptor desc = PackDescriptor.of(storage.state(), "f", "n");
    SetupError e = assertThrows(SetupError.class,
        () -> desc.pack(storage.partitions("base", -1).get(0)));
    assertEquals("field=n lives on [NN] and field=f on [F1, F2, F3]: one pack holds fields of"
        + " one topology", e.getMessage());
  }

  /** Pack component v of a face pack on element el is ArenaLayout's plane elementIndex*ncomp+n. */
  @Test
  void givenAPackOfFaceFields_thenElementIndicesAreArenaLayoutPlanes() {
    FieldStorage storage = ViewFixtures.nonCellStorage(new BlockShape(7, 6, 1));
    storage.allocateSparse(storage.state().fieldId("t_2"), 1);
    MeshData md = storage.partitions("stage1", -1).get(0);
    VariablePack pack = PackDescriptor.of(storage.state(), "f", "m", "t").pack(md);
    assertEquals(3, pack.numElements());
    assertEquals(5, pack.numVars());
    ArenaLayout layout = storage.layout();
    int checked = 0;
    for (int b = 0; b < md.numBlocks(); b++) {
      for (int f = 0; f < pack.numFields(); f++) {
        int inst = layout.dataInstance(pack.fieldId(f), md.container());
        for (int v = pack.lowerBound(f); v <= pack.upperBound(f); v++) {
          if (!pack.isAllocated(b, v)) {
            continue;
          }
          int ncomp = layout.numComponents(inst);
          for (TopologicalElement el : List.of(TopologicalElement.F1, TopologicalElement.F2,
              TopologicalElement.F3)) {
            int n = v - pack.lowerBound(f);
            assertEquals(layout.index(inst, md.blockIndex(b), el.elementIndex() * ncomp + n, 0,
                5, 7), pack.index(el, b, v, 0, 5, 7));
            checked++;
          }
        }
      }
    }
    assertEquals(3 * 4 * 3 + 3, checked, "f (2) and m on 4 blocks, t_2 on one, t_1 nowhere");
    pack.set(TopologicalElement.F2, 1, 2, 0, 3, 4, 9.0);
    assertEquals(9.0, FieldView.of(md, "m").get(TopologicalElement.F2, 1, 0, 0, 3, 4));
  }

  @Test
  void givenAPack_thenSetAndGetGoThroughTheArena() {
    FieldStorage storage = ViewFixtures.storage(new BlockShape(6, 5, 4));
    MeshData md = storage.partitions("base", -1).get(0);
    VariablePack pack = PackDescriptor.of(storage.state(), "w", "u").pack(md);
    pack.set(4, 2, 3, 4, 5, 1.25);
    assertEquals(1.25, FieldView.of(md, "u").get(4, 1, 3, 4, 5));
    VariablePack fluxes = PackDescriptor.of(storage.state(), "u").withFluxes().pack(md);
    fluxes.setFlux(4, 2, 1, 3, 4, 5, 0.5);
    assertEquals(0.5, FieldView.withFluxes(md, "u").flux(4, 2, 1, 3, 4, 5));
  }
}
