package org.metope.mesh.field;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ArenaLayoutTest {
  private static final BlockShape CELLS = new BlockShape(6, 5, 4);
  private static final BlockShape COARSE = new BlockShape(5, 4, 3);

  /** u: evolved vector with fluxes; w: one-copy; d: derived; g: no topology; s: sparse pool. */
  static ResolvedState state() {
    StateDescriptor pkg = new StateDescriptor("p");
    pkg.addField("u", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT, Metadata.WITH_FLUXES,
        Metadata.FILL_GHOST).shape(2).build());
    pkg.addField("w", Metadata.of(Metadata.CELL, Metadata.INDEPENDENT, Metadata.ONE_COPY));
    pkg.addField("d", Metadata.of(Metadata.CELL, Metadata.DERIVED));
    pkg.addField("g", Metadata.builder(Metadata.NONE).shape(3).build());
    SparsePool pool = new SparsePool("s", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT,
        Metadata.SPARSE, Metadata.WITH_FLUXES).sparseThresholds(1e-6, 1e-7, -1.5).build());
    pool.add(1);
    pool.add(2, 3);
    pkg.addSparsePool(pool);
    Packages packages = new Packages();
    packages.add(pkg);
    return packages.resolve();
  }

  private static ArenaLayout layout(BlockShape cells, BlockShape coarse, int blocks) {
    return new ArenaLayout(state(), cells, coarse, null, blocks, 2);
  }

  /** Marks every index of every allocated block of every instance; fails on overlap. */
  static int checkDistinctAndInBounds(ArenaLayout layout) {
    boolean[] used = new boolean[layout.end()];
    int count = 0;
    for (int inst = 0; inst < layout.numInstances(); inst++) {
      for (int b = 0; b < layout.numBlocks(); b++) {
        if (layout.offset(inst, b) < 0) {
          assertFalse(layout.isAllocated(layout.instanceField(inst), b));
          continue;
        }
        for (int c = 0; c < layout.numElements(inst) * layout.numComponents(inst); c++) {
          for (int k = 0; k < layout.nk(inst); k++) {
            for (int j = 0; j < layout.nj(inst); j++) {
              for (int i = 0; i < layout.ni(inst); i++) {
                int index = layout.index(inst, b, c, k, j, i);
                assertTrue(index >= 0 && index < used.length, "index " + index);
                assertFalse(used[index], "overlap at " + index + " inst " + inst + " block " + b);
                used[index] = true;
                count++;
              }
            }
          }
        }
      }
    }
    return count;
  }

  @Test
  void givenDenseFields_thenEveryValueHasADistinctInBoundsIndexAndTheRegionIsFull() {
    ArenaLayout layout = layout(CELLS, COARSE, 3);
    int count = checkDistinctAndInBounds(layout);
    assertEquals(layout.denseEnd(), count);
    assertEquals(layout.denseEnd(), layout.end());
  }

  @Test
  void givenDenseInstance_thenBlocksAreBackToBackWithIFastest() {
    ArenaLayout layout = layout(CELLS, COARSE, 3);
    ResolvedState state = state();
    int u = layout.dataInstance(state.fieldId("u"), 0);
    assertEquals(2 * 6 * 5 * 4, layout.blockLength(u));
    for (int b = 0; b + 1 < 3; b++) {
      assertEquals(layout.offset(u, b) + layout.blockLength(u), layout.offset(u, b + 1));
    }
    int base = layout.index(u, 1, 1, 2, 3, 4);
    assertEquals(base + 1, layout.index(u, 1, 1, 2, 3, 5));
    assertEquals(base + layout.jStride(u), layout.index(u, 1, 1, 2, 4, 4));
    assertEquals(base + layout.kStride(u), layout.index(u, 1, 1, 3, 3, 4));
    assertEquals(layout.index(u, 1, 0, 2, 3, 4) + layout.componentStride(u), base);
    assertEquals(layout.offset(u, 1) + ((1 * 4 + 2) * 5 + 3) * 6 + 4, base);
  }

  @Test
  void givenStageContainers_thenOnlyIndependentNonOneCopyFieldsAreCopied() {
    ArenaLayout layout = layout(CELLS, null, 2);
    ResolvedState state = state();
    int u = state.fieldId("u");
    assertNotEquals(layout.dataInstance(u, 0), layout.dataInstance(u, 1));
    assertEquals(0, layout.instanceContainer(layout.dataInstance(u, 0)));
    assertEquals(1, layout.instanceContainer(layout.dataInstance(u, 1)));
    for (String shared : new String[] {"w", "d", "g"}) {
      int f = state.fieldId(shared);
      assertEquals(layout.dataInstance(f, 0), layout.dataInstance(f, 1), shared);
      assertEquals(-1, layout.instanceContainer(layout.dataInstance(f, 0)), shared);
    }
    int s1 = state.fieldId("s_1");
    assertNotEquals(layout.dataInstance(s1, 0), layout.dataInstance(s1, 1));
    assertEquals(ArenaLayout.DATA, layout.instanceKind(layout.dataInstance(u, 1)));
  }

  @Test
  void givenFluxesOnMeshesOfEachDimension_thenOneCellAlignedArrayPerDirectionInUse() {
    ResolvedState state = state();
    int u = state.fieldId("u");
    BlockShape[] shapes = {new BlockShape(8, 1, 1), new BlockShape(8, 7, 1), CELLS};
    for (int dims = 1; dims <= 3; dims++) {
      ArenaLayout layout = layout(shapes[dims - 1], null, 2);
      assertEquals(dims, layout.fluxDirections());
      for (int d = 1; d <= 3; d++) {
        int flux = layout.fluxInstance(u, d);
        if (d > dims) {
          assertEquals(-1, flux);
          continue;
        }
        assertEquals(d, layout.instanceKind(flux));
        assertEquals(shapes[dims - 1].ni(), layout.ni(flux));
        assertEquals(shapes[dims - 1].nj(), layout.nj(flux));
        assertEquals(shapes[dims - 1].nk(), layout.nk(flux));
        assertEquals(2, layout.numComponents(flux));
      }
      assertEquals(-1, layout.fluxInstance(state.fieldId("w"), 1));
    }
  }

  @Test
  void givenMultilevelMesh_thenRefinedMeshFieldsGetSharedCoarseBuffers() {
    ResolvedState state = state();
    ArenaLayout multi = layout(CELLS, COARSE, 2);
    int coarseU = multi.coarseInstance(state.fieldId("u"));
    assertEquals(ArenaLayout.COARSE, multi.instanceKind(coarseU));
    assertEquals(5, multi.ni(coarseU));
    assertEquals(4, multi.nj(coarseU));
    assertEquals(3, multi.nk(coarseU));
    assertNotEquals(-1, multi.coarseInstance(state.fieldId("w")));
    assertEquals(-1, multi.coarseInstance(state.fieldId("d")));
    assertEquals(-1, multi.coarseInstance(state.fieldId("g")));
    ArenaLayout single = layout(CELLS, null, 2);
    assertEquals(-1, single.coarseInstance(state.fieldId("u")));
  }

  @Test
  void givenFieldWithoutTopology_thenOneValuePerComponentPerBlock() {
    ArenaLayout layout = layout(CELLS, null, 4);
    int g = layout.dataInstance(state().fieldId("g"), 0);
    assertEquals(3, layout.blockLength(g));
    assertEquals(layout.offset(g, 0) + 2, layout.index(g, 0, 2, 0, 0, 0));
  }

  /**
   * f: face vector (2 components) filled in ghosts; e: edge scalar; n: node scalar; t: sparse
   * face pool (ids 1, 2).
   */
  static ResolvedState nonCellState() {
    StateDescriptor pkg = new StateDescriptor("p");
    pkg.addField("f", Metadata.builder(Metadata.FACE, Metadata.INDEPENDENT, Metadata.FILL_GHOST)
        .shape(2).build());
    pkg.addField("e", Metadata.of(Metadata.EDGE, Metadata.DERIVED));
    pkg.addField("n", Metadata.of(Metadata.NODE, Metadata.INDEPENDENT, Metadata.ONE_COPY));
    SparsePool pool = new SparsePool("t", Metadata.builder(Metadata.FACE, Metadata.INDEPENDENT,
        Metadata.SPARSE).build());
    pool.add(1);
    pool.add(2);
    pkg.addSparsePool(pool);
    Packages packages = new Packages();
    packages.add(pkg);
    return packages.resolve();
  }

  /** Parthenon's GetArrayDims: 3 elements for faces and edges, 1 for nodes, n+1 where active. */
  @Test
  void givenFaceEdgeAndNodeFieldsIn3D_thenEachElementHasOneMoreIndexAlongEveryAxis() {
    ResolvedState state = nonCellState();
    ArenaLayout layout = new ArenaLayout(state, CELLS, COARSE, null, 3, 2);
    int f = layout.dataInstance(state.fieldId("f"), 1);
    assertEquals(3, layout.numElements(f));
    assertEquals(2, layout.numComponents(f));
    assertEquals(7, layout.ni(f));
    assertEquals(6, layout.nj(f));
    assertEquals(5, layout.nk(f));
    assertEquals(3 * 2 * 7 * 6 * 5, layout.blockLength(f));
    assertEquals(2 * 7 * 6 * 5, layout.elementStride(f));
    int e = layout.dataInstance(state.fieldId("e"), 0);
    assertEquals(3 * 7 * 6 * 5, layout.blockLength(e));
    int n = layout.dataInstance(state.fieldId("n"), 0);
    assertEquals(1, layout.numElements(n));
    assertEquals(7 * 6 * 5, layout.blockLength(n));
    int coarse = layout.coarseInstance(state.fieldId("f"));
    assertEquals(3 * 2 * 6 * 5 * 4, layout.blockLength(coarse));
    assertEquals(-1, layout.coarseInstance(state.fieldId("e")));
    // Plane F2 of component 1 is plane 1 * 2 + 1 of the block.
    assertEquals(layout.offset(f, 2) + layout.elementStride(f) + layout.componentStride(f)
        + (4 * 6 + 3) * 7 + 2, layout.index(f, 2, 3, 4, 3, 2));
  }

  @Test
  void givenFaceFieldsIn2DAnd1D_thenOnlyTheDirectionsInUseGrow() {
    ResolvedState state = nonCellState();
    ArenaLayout flat = new ArenaLayout(state, new BlockShape(6, 5, 1), null, null, 1, 1);
    int f = flat.dataInstance(state.fieldId("f"), 0);
    assertEquals(7, flat.ni(f));
    assertEquals(6, flat.nj(f));
    assertEquals(1, flat.nk(f));
    ArenaLayout line = new ArenaLayout(state, new BlockShape(6, 1, 1), null, null, 1, 1);
    int n = line.dataInstance(state.fieldId("n"), 0);
    assertEquals(7, line.blockLength(n));
  }

  @Test
  void givenNonCellFieldsDenseAndSparse_thenEveryValueHasADistinctInBoundsIndex() {
    ResolvedState state = nonCellState();
    ArenaLayout layout = new ArenaLayout(state, CELLS, COARSE, null, 3, 2);
    assertEquals(layout.denseEnd(), checkDistinctAndInBounds(layout));
    int t2 = state.fieldId("t_2");
    assertTrue(layout.allocate(t2, 1));
    for (int inst : layout.instancesOf(t2)) {
      assertEquals(layout.numElements(inst) * layout.componentStride(inst),
          layout.blockLength(inst));
    }
    assertEquals(layout.end(), checkDistinctAndInBounds(layout));
    // Two stage copies (INDEPENDENT) and a coarse buffer, each of three elements.
    assertEquals(layout.denseEnd() + 2 * 3 * 7 * 6 * 5 + 3 * 6 * 5 * 4, layout.end());
  }

  @Test
  void givenSparseAllocations_thenChunksAppearAndAreReusedAfterRelease() {
    ArenaLayout layout = layout(CELLS, COARSE, 3);
    int s2 = state().fieldId("s_2");
    int[] instances = layout.instancesOf(s2);
    assertEquals(2 + 3 + 1, instances.length);
    for (int inst : instances) {
      assertEquals(-1, layout.offset(inst, 1));
    }
    int before = layout.end();
    assertTrue(layout.allocate(s2, 1));
    assertFalse(layout.allocate(s2, 1));
    assertTrue(layout.isAllocated(s2, 1));
    int grown = 0;
    Set<Integer> chunks = new HashSet<>();
    for (int inst : instances) {
      assertTrue(layout.offset(inst, 1) >= before);
      chunks.add(layout.offset(inst, 1));
      grown += layout.blockLength(inst);
    }
    assertEquals(before + grown, layout.end());
    assertTrue(layout.deallocate(s2, 1));
    assertFalse(layout.deallocate(s2, 1));
    assertFalse(layout.isAllocated(s2, 1));
    assertTrue(layout.allocate(s2, 2));
    Set<Integer> reused = new HashSet<>();
    for (int inst : instances) {
      assertEquals(-1, layout.offset(inst, 1));
      reused.add(layout.offset(inst, 2));
    }
    assertEquals(chunks, reused);
    assertEquals(before + grown, layout.end());
    checkDistinctAndInBounds(layout);
  }

  @Test
  void givenAnyAllocationSequence_thenNoTwoLiveValuesShareAnIndex() {
    ArenaLayout layout = layout(CELLS, COARSE, 4);
    int s1 = state().fieldId("s_1");
    int s2 = state().fieldId("s_2");
    long seed = 12345;
    for (int step = 0; step < 60; step++) {
      seed = seed * 6364136223846793005L + 1442695040888963407L;
      int field = (seed >>> 40) % 2 == 0 ? s1 : s2;
      int block = (int) ((seed >>> 33) % 4);
      if ((seed >>> 50) % 3 == 0) {
        layout.deallocate(field, block);
      } else {
        layout.allocate(field, block);
      }
      checkDistinctAndInBounds(layout);
    }
  }

  @Test
  void givenDenseField_thenPerBlockAllocationIsMisuse() {
    ArenaLayout layout = layout(CELLS, null, 1);
    assertEquals("field=0 is dense: only sparse fields are allocated per block",
        assertThrows(IllegalArgumentException.class, () -> layout.allocate(0, 0)).getMessage());
    assertTrue(layout.isAllocated(0, 0));
    assertFalse(layout.isSparse(0));
  }

  @Test
  void givenPartitionTables_thenSlotsAreDistinctAndDense() {
    Set<Integer> slots = new HashSet<>();
    for (int f = 0; f < 4; f++) {
      for (int d = 1; d <= 3; d++) {
        for (int b = 0; b < 5; b++) {
          slots.add(ArenaLayout.fluxTableSlot(f, d, b, 5));
        }
      }
    }
    assertEquals(60, slots.size());
    assertTrue(slots.stream().allMatch(s -> s >= 0 && s < 60));
    assertEquals(13, ArenaLayout.tableSlot(2, 3, 5));
  }
}
