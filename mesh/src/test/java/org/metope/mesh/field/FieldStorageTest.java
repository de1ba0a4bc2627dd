package org.metope.mesh.field;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class FieldStorageTest {
  private static final BlockShape CELLS = new BlockShape(6, 5, 4);

  private static FieldStorage storage(int blocks) {
    return new FieldStorage(ArenaLayoutTest.state(), CELLS, new BlockShape(5, 4, 3), blocks,
        List.of("base", "stage1"));
  }

  @Test
  void givenSparseAllocationsThatGrowTheArena_thenEveryExistingValueIsKept() {
    FieldStorage storage = storage(8);
    ArenaLayout layout = storage.layout();
    int u = storage.state().fieldId("u");
    int s2 = storage.state().fieldId("s_2");
    int inst = layout.dataInstance(u, 0);
    double[] before = storage.data();
    for (int b = 0; b < 8; b++) {
      before[layout.index(inst, b, 1, 3, 4, 5)] = 100 + b;
    }
    storage.allocateSparse(s2, 0);
    int chunk = layout.index(layout.dataInstance(s2, 1), 0, 2, 1, 1, 1);
    storage.data()[chunk] = 42;
    for (int b = 1; b < 8; b++) {
      storage.allocateSparse(s2, b);
    }
    assertNotSame(before, storage.data());
    assertTrue(storage.data().length >= layout.end());
    for (int b = 0; b < 8; b++) {
      assertEquals(100 + b, storage.data()[layout.index(inst, b, 1, 3, 4, 5)]);
    }
    assertEquals(42, storage.data()[chunk]);
  }

  /**
   * A reallocation that fits in freed chunks moves nothing (so it needs no pause of the other
   * task threads), and one that does not fit grows the arena by at least half, so that a run of
   * allocations pauses the threads rarely.
   */
  @Test
  void givenFreedChunks_whenReallocated_thenTheArenaDoesNotMove() {
    FieldStorage storage = storage(4);
    ArenaLayout layout = storage.layout();
    int s1 = storage.state().fieldId("s_1");
    double[] dense = storage.data();
    storage.allocateSparse(s1, 0);
    double[] grown = storage.data();
    assertNotSame(dense, grown);
    assertTrue(grown.length >= dense.length + dense.length / 2, "grew by " + grown.length);
    storage.deallocateSparse(s1, 0);
    int end = layout.end();
    storage.allocateSparse(s1, 3);
    assertSame(grown, storage.data());
    assertEquals(end, layout.end(), "the freed chunks were reused");
  }

  @Test
  void givenNewOrReusedSparseChunks_thenDataStartsAtTheDefaultAndFluxesAtZero() {
    FieldStorage storage = storage(2);
    ArenaLayout layout = storage.layout();
    int s1 = storage.state().fieldId("s_1");
    storage.allocateSparse(s1, 0);
    for (int inst : layout.instancesOf(s1)) {
      int start = layout.offset(inst, 0);
      double expected = layout.instanceKind(inst) == ArenaLayout.DATA ? -1.5 : 0.0;
      for (int x = start; x < start + layout.blockLength(inst); x++) {
        assertEquals(expected, storage.data()[x]);
        storage.data()[x] = 9;
      }
    }
    storage.deallocateSparse(s1, 0);
    storage.allocateSparse(s1, 1);
    for (int inst : layout.instancesOf(s1)) {
      int start = layout.offset(inst, 1);
      double expected = layout.instanceKind(inst) == ArenaLayout.DATA ? -1.5 : 0.0;
      for (int x = start; x < start + layout.blockLength(inst); x++) {
        assertEquals(expected, storage.data()[x]);
      }
    }
  }

  @Test
  void givenAllocationChanges_thenTheVersionCountsOnlyRealChanges() {
    FieldStorage storage = storage(2);
    int s1 = storage.state().fieldId("s_1");
    assertEquals(0, storage.allocationVersion());
    assertTrue(storage.allocateSparse(s1, 0));
    assertFalse(storage.allocateSparse(s1, 0));
    assertEquals(1, storage.allocationVersion());
    assertTrue(storage.isAllocated(s1, 0));
    assertTrue(storage.deallocateSparse(s1, 0));
    assertFalse(storage.deallocateSparse(s1, 0));
    assertEquals(2, storage.allocationVersion());
    assertFalse(storage.isAllocated(s1, 0));
  }

  @Test
  void givenPackSizes_thenPartitionsAreConsecutiveGroupsAsInParthenon() {
    FieldStorage storage = storage(7);
    assertEquals(List.of(3, 3, 1), sizes(storage.partitions("base", 3)));
    assertEquals(List.of(7), sizes(storage.partitions("base", -1)));
    assertEquals(List.of(7), sizes(storage.partitions("base", 0)));
    assertEquals(List.of(7), sizes(storage.partitions("base", 10)));
    assertEquals(List.of(1, 1, 1, 1, 1, 1, 1), sizes(storage.partitions("stage1", 1)));
    List<MeshData> parts = storage.partitions("stage1", 3);
    assertEquals(6, parts.get(2).blockIndex(0));
    assertEquals(4, parts.get(1).blockIndex(1));
    assertEquals(2, parts.get(2).partition());
    assertEquals("stage1", parts.get(0).stageName());
    assertEquals(1, parts.get(0).container());
    assertTrue(storage(0).partitions("base", -1).isEmpty());
  }

  private static List<Integer> sizes(List<MeshData> parts) {
    return parts.stream().map(MeshData::numBlocks).toList();
  }

  @Test
  void givenBadContainers_thenMisuseIsReported() {
    assertThrows(IllegalArgumentException.class, () -> new FieldStorage(ArenaLayoutTest.state(),
        CELLS, null, 1, List.of("base", "base")));
    assertThrows(IllegalArgumentException.class, () -> new FieldStorage(ArenaLayoutTest.state(),
        CELLS, null, 1, List.of()));
    assertEquals("no container name=stage2 (containers=[base, stage1])",
        assertThrows(IllegalArgumentException.class, () -> storage(1).partitions("stage2", 1))
            .getMessage());
    assertEquals(1, storage(1).containerIndex("stage1"));
  }

  @Test
  void givenDeallocationCounts_thenEachFieldAndBlockKeepsItsOwnStartingAtZero() {
    FieldStorage storage = storage(3);
    int s2 = storage.state().fieldId("s_2");
    storage.setDeallocationCount(s2, 1, 5);
    assertEquals(5, storage.deallocationCount(s2, 1));
    assertEquals(0, storage.deallocationCount(s2, 2));
    assertEquals(0, storage.deallocationCount(s2 - 1, 1));
  }

  @Test
  void givenARecycledArena_thenItIsReusedAndZeroedWhereUsedWhenLongEnoughElseReplacedWithSpare() {
    var mesh = toyMesh();
    FieldStorage first = mesh.fields();
    int used = first.layout().end();
    double[] big = new double[used + 10];
    java.util.Arrays.fill(big, 3.0);

    var handed = new java.util.concurrent.atomic.AtomicReference<>(big);
    FieldStorage reused = new FieldStorage(first.state(), first.cells(), first.coarse(),
        first.fine(), mesh.blocks(), List.of("base"), handed);
    FieldStorage replaced = new FieldStorage(first.state(), first.cells(), first.coarse(),
        first.fine(), mesh.blocks(), List.of("base"),
        new java.util.concurrent.atomic.AtomicReference<>(new double[used - 1]));

    assertTrue(reused.data() == big);
    assertEquals(null, handed.get());
    for (int i = 0; i < used; i++) {
      assertEquals(0.0, big[i], "index " + i);
    }
    assertEquals(3.0, big[used]);
    assertEquals(used + used / 8, replaced.data().length);
    assertEquals(mesh.blocks().get(2), reused.block(2));
  }

  @Test
  void givenALengthOverSeveralChunks_whenZeroed_thenExactlyThatPrefixIsZero() {
    for (int length : new int[] {0, 1, 1024, 1025, 3 * 1024 + 7}) {
      double[] data = new double[length + 3];
      java.util.Arrays.fill(data, -2.5);
      FieldStorage.zero(data, length);
      for (int i = 0; i < data.length; i++) {
        assertEquals(i < length ? 0.0 : -2.5, data[i], "length " + length + " index " + i);
      }
    }
  }

  @Test
  void givenASmallArenaTooShort_thenItsSuccessorIsAllocatedWithoutAFullCollection() {
    var mesh = toyMesh();
    FieldStorage first = mesh.fields();
    long before = fullCollections();
    for (int i = 0; i < 5; i++) {
      new FieldStorage(first.state(), first.cells(), first.coarse(), first.fine(), mesh.blocks(),
          List.of("base"), new java.util.concurrent.atomic.AtomicReference<>(new double[1]));
    }
    // Before arenas under 64 MiB were exempt, each of these growths ran System.gc().
    assertEquals(before, fullCollections());
    assertFalse(FieldStorage.collectsBeforeGrowth((1 << 23) - 1));
    assertTrue(FieldStorage.collectsBeforeGrowth(1 << 23));
  }

  /** A 1D mesh of 4 blocks with the toy package's field, in one container. */
  private static org.metope.mesh.Mesh toyMesh() {
    return org.metope.mesh.TestMeshes.mesh(org.metope.mesh.TestMeshes.pin(
        org.metope.mesh.TestMeshes.deck1d(32, 8, "")),
        org.metope.mesh.TestMeshes.packages(org.metope.mesh.TestMeshes
            .toyPackage(1.0)), List.of("base"));
  }

  /** Collections of the old generation (full ones: what System.gc() runs), all collectors. */
  private static long fullCollections() {
    long count = 0;
    for (var gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
      String name = gc.getName();
      if (name.contains("Old") || name.contains("MarkSweep") || name.contains("Full")) {
        count += gc.getCollectionCount();
      }
    }
    return count;
  }
}
