package org.metope.mesh.field;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class MeshDataTest {
  private static FieldStorage storage() {
    return new FieldStorage(ArenaLayoutTest.state(), new BlockShape(6, 5, 4),
        new BlockShape(5, 4, 3), 5, List.of("base", "stage1"));
  }

  @Test
  void givenAPartition_thenTablesHoldTheOffsetsOfItsBlocks() {
    FieldStorage storage = storage();
    MeshData md = storage.partitions("stage1", 2).get(1);
    ArenaLayout layout = storage.layout();
    int[] data = md.dataOffsets();
    int[] flux = md.fluxOffsets();
    int[] coarse = md.coarseOffsets();
    for (int f = 0; f < layout.numFields(); f++) {
      for (int b = 0; b < md.numBlocks(); b++) {
        int block = md.blockIndex(b);
        assertEquals(layout.offset(layout.dataInstance(f, 1), block),
            data[ArenaLayout.tableSlot(f, b, 2)]);
        if (md.isAllocated(f, b)) {
          assertEquals(md.dataOffset(f, b), data[ArenaLayout.tableSlot(f, b, 2)]);
        }
        int coarseInst = layout.coarseInstance(f);
        assertEquals(coarseInst < 0 ? -1 : layout.offset(coarseInst, block),
            coarse[ArenaLayout.tableSlot(f, b, 2)]);
        if (coarseInst < 0) {
          int field = f;
          int partitionBlock = b;
          org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
              () -> md.coarseOffset(field, partitionBlock));
        }
        for (int d = 1; d <= 3; d++) {
          int inst = layout.fluxInstance(f, d);
          int expected = inst < 0 ? -1 : layout.offset(inst, block);
          assertEquals(expected, flux[ArenaLayout.fluxTableSlot(f, d, b, 2)]);
        }
      }
    }
    int u = storage.state().fieldId("u");
    assertEquals(layout.index(layout.dataInstance(u, 1), 3, 1, 2, 3, 4), md.index(u, 1, 1, 2, 3, 4));
    assertSame(storage.data(), md.data());
    assertSame(storage.state(), md.state());
  }

  @Test
  void givenTwoContainers_thenSharedFieldsHaveOneOffsetAndCopiedFieldsTwo() {
    FieldStorage storage = storage();
    MeshData base = storage.partitions("base", -1).get(0);
    MeshData stage = storage.partitions("stage1", -1).get(0);
    ResolvedState state = storage.state();
    assertNotEquals(base.dataOffset(state.fieldId("u"), 0), stage.dataOffset(state.fieldId("u"), 0));
    assertEquals(base.dataOffset(state.fieldId("w"), 0), stage.dataOffset(state.fieldId("w"), 0));
    assertEquals(base.dataOffset(state.fieldId("d"), 4), stage.dataOffset(state.fieldId("d"), 4));
    assertEquals(base.fluxOffset(state.fieldId("u"), 2, 3),
        stage.fluxOffset(state.fieldId("u"), 2, 3));
  }

  @Test
  void givenAnAllocationChange_thenTablesAreRebuilt() {
    FieldStorage storage = storage();
    MeshData md = storage.partitions("base", -1).get(0);
    int s1 = storage.state().fieldId("s_1");
    int slot = ArenaLayout.tableSlot(s1, 3, md.numBlocks());
    int[] before = md.dataOffsets();
    assertEquals(-1, before[slot]);
    assertFalse(md.isAllocated(s1, 3));
    assertSame(before, md.dataOffsets());
    storage.allocateSparse(s1, 3);
    int[] after = md.dataOffsets();
    assertTrue(after[slot] >= 0);
    assertEquals(md.dataOffset(s1, 3), after[slot]);
    assertTrue(md.fluxOffsets()[ArenaLayout.fluxTableSlot(s1, 1, 3, md.numBlocks())] >= 0);
    assertTrue(md.isAllocated(s1, 3));
  }

  @Test
  void givenKeptViews_thenTheNewestAreKeptUntilAnAllocationChange() {
    FieldStorage storage = storage();
    MeshData md = storage.partitions("base", -1).get(0);
    Object[] keys = new Object[MeshData.MAX_VIEWS + 1];
    for (int k = 0; k < keys.length; k++) {
      keys[k] = new Object();
      md.keepView(keys[k], "view " + k);
    }
    assertEquals(null, md.keptView(keys[0]), "the oldest goes when one more is kept");
    for (int k = 1; k < keys.length; k++) {
      assertEquals("view " + k, md.keptView(keys[k]));
    }
    md.keepView(keys[3], "view 3 again");
    assertEquals("view 3 again", md.keptView(keys[3]), "a key's second view replaces its first");
    assertEquals("view 1", md.keptView(keys[1]));

    storage.allocateSparse(storage.state().fieldId("s_1"), 3);
    for (Object key : keys) {
      assertEquals(null, md.keptView(key), "an allocation change drops every kept view");
    }
    md.keepView(keys[0], "view 0 after");
    assertEquals("view 0 after", md.keptView(keys[0]));
  }

  /** A record of views kept by its class: made once, again after an allocation change. */
  @Test
  void givenAViewRecordKeptByItsClass_thenItIsMadeOncePerAllocation() {
    record Views(MeshData md, int serial) {}
    FieldStorage storage = storage();
    MeshData md = storage.partitions("base", -1).get(0);
    int[] made = {0};
    Function<MeshData, Views> make = m -> new Views(m, ++made[0]);
    Views first = md.keptView(Views.class, make);
    assertSame(first, md.keptView(Views.class, make));
    assertEquals(1, made[0]);
    storage.allocateSparse(storage.state().fieldId("s_1"), 3);
    Views after = md.keptView(Views.class, make);
    assertEquals(2, after.serial(), "made again after the allocation change");
    assertSame(after, md.keptView(Views.class, make));
  }

  @Test
  void givenAnAllocationOnOneBlock_thenOnlyItsPartitionsVersionChanges() {
    FieldStorage storage = storage();
    List<MeshData> parts = storage.partitions("base", 2);
    int s1 = storage.state().fieldId("s_1");
    assertEquals(3, parts.get(1).blockIndex(1), "block 3 is the second block of partition 1");
    storage.allocateSparse(s1, 3);
    storage.deallocateSparse(s1, 3);
    double[] array = storage.data();
    long first = parts.get(0).allocationVersion();
    long second = parts.get(1).allocationVersion();
    Object key = new Object();
    parts.get(0).keepView(key, "kept");

    storage.allocateSparse(s1, 3);
    assertSame(array, storage.data(), "the freed room takes it: the arena does not grow");
    assertEquals(first, parts.get(0).allocationVersion(), "partition 0 holds blocks 0 and 1");
    assertNotEquals(second, parts.get(1).allocationVersion());
    assertEquals("kept", parts.get(0).keptView(key), "partition 0's views stay");

    long afterAllocation = parts.get(1).allocationVersion();
    storage.deallocateSparse(s1, 3);
    assertNotEquals(afterAllocation, parts.get(1).allocationVersion(), "a free is a change too");
    assertEquals(first, parts.get(0).allocationVersion());
  }

  @Test
  void givenTheArenaGrows_thenEveryPartitionsVersionChanges() {
    FieldStorage storage = storage();
    List<MeshData> parts = storage.partitions("base", 2);
    long[] before = new long[parts.size()];
    for (int p = 0; p < parts.size(); p++) {
      before[p] = parts.get(p).allocationVersion();
    }
    double[] array = storage.data();
    for (String name : List.of("s_1", "s_2")) {
      for (int b = 0; b < 2; b++) {
        storage.allocateSparse(storage.state().fieldId(name), b);
      }
    }
    assertTrue(storage.data() != array, "partition 0's sparse fields outgrow the arena");
    for (int p = 1; p < parts.size(); p++) {
      assertNotEquals(before[p], parts.get(p).allocationVersion(),
          "partition " + p + " allocated nothing, but its views hold the replaced array");
    }
  }
}
