package org.metope.amr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.amr.RemeshPlan.Kind;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.BlockShape;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.ResolvedState;

class BlockRecordsTest {
  private static final int G = 2;
  /** 2D blocks of 8 x 4 interior cells: extents 12 x 8, coarse 8 x 6. */
  private static final BlockShape CELLS = new BlockShape(12, 8, 1);
  private static final BlockShape COARSE = new BlockShape(8, 6, 1);

  private final ResolvedState state;
  private final BlockRecords records;
  private final int q;
  private final int d;
  private final int s1;
  private final int s2;

  BlockRecordsTest() {
    Packages packages = new Packages();
    packages.add(AmrFixtures.toy(null));
    state = packages.resolve();
    boolean[] moving = new boolean[state.numFields()];
    for (int f = 0; f < moving.length; f++) {
      moving[f] = state.field(f).metadata().isRefined();
    }
    records = new BlockRecords(moving, new boolean[moving.length], new int[] {8, 4, 1},
        new boolean[] {true, true, false}, G);
    q = state.fieldId("q");
    d = state.fieldId("d");
    s1 = state.fieldId("s_1");
    s2 = state.fieldId("s_2");
  }

  private FieldStorage storage(int blocks) {
    return new FieldStorage(state, CELLS, COARSE, blocks, List.of("base", "1"));
  }

  /** Every value of every allocated instance of {@code block} set to a number naming it. */
  private static void fillDistinct(FieldStorage s, int block) {
    ArenaLayout l = s.layout();
    for (int inst = 0; inst < l.numInstances(); inst++) {
      if (l.offset(inst, block) >= 0) {
        for (int n = 0; n < l.blockLength(inst); n++) {
          s.data()[l.offset(inst, block) + n] = 1000.0 * (inst + 1) + n + 0.25 * block;
        }
      }
    }
  }

  private static double at(FieldStorage s, int inst, int block, int k, int j, int i) {
    return s.data()[s.layout().index(inst, block, 0, k, j, i)];
  }

  @Test
  void givenASameRecord_thenMovingFieldsCoarseBuffersSparseStateAndCountersTravelButNotTheRest() {
    FieldStorage from = storage(3);
    from.allocateSparse(s1, 2);
    from.setDeallocationCount(s1, 2, 4);
    fillDistinct(from, 2);
    double[] message = new double[records.maxLength(from.layout(), Kind.SAME)];
    int length = records.packSame(from, 2, 7, message, 0);
    FieldStorage to = storage(2);
    int[] counts = new int[2];

    assertEquals(length, records.unpackSame(to, 1, counts, message, 0));
    assertEquals(length, records.length(from, 2, Kind.SAME));

    ArenaLayout l = from.layout();
    assertEquals(7, counts[1]);
    assertTrue(to.isAllocated(s1, 1));
    assertFalse(to.isAllocated(s2, 1));
    assertEquals(4, to.deallocationCount(s1, 1));
    for (int inst : new int[] {l.dataInstance(q, 0), l.coarseInstance(q),
        l.dataInstance(s1, 0), l.coarseInstance(s1)}) {
      for (int n = 0; n < l.blockLength(inst); n++) {
        assertEquals(from.data()[l.offset(inst, 2) + n], to.data()[to.layout().offset(inst, 1)
            + n], "instance " + inst);
      }
    }
    // The derived field, the stage copy and the fluxes start afresh, as on a new block.
    assertEquals(0.0, to.data()[to.layout().offset(l.dataInstance(d, 0), 1) + 5]);
    assertEquals(0.0, to.data()[to.layout().offset(l.dataInstance(q, 1), 1)]);
    assertEquals(0.0, to.data()[to.layout().offset(l.fluxInstance(q, 1), 1)]);
    assertTrue(length < message.length);
  }

  @Test
  void givenARefinedRecord_thenTheChildsCoarseBufferHoldsItsQuarterOfTheParentWithGhosts() {
    FieldStorage from = storage(1);
    fillDistinct(from, 0);
    double[] message = new double[records.maxLength(from.layout(), Kind.REFINED)];
    int length = records.packRefined(from, 0, 3, message, 0);
    FieldStorage to = storage(1);

    assertEquals(length, records.unpackRefined(to, 0, message, 0));
    assertEquals(length, records.length(from, 0, Kind.REFINED));

    assertEquals(message.length - 8 * 6 * 2, length, "s_1 and s_2 are unallocated");
    int data = from.layout().dataInstance(q, 0);
    int coarse = to.layout().coarseInstance(q);
    for (int j = 0; j < 6; j++) {
      for (int i = 0; i < 8; i++) {
        // Child 3 is upper in x1 and x2: offsets nx1 / 2 = 4 and nx2 / 2 = 2.
        assertEquals(at(from, data, 0, 0, j + 2, i + 4), at(to, coarse, 0, 0, j, i));
      }
    }
    assertFalse(to.isAllocated(s1, 0));
  }

  @Test
  void givenDerefinedRecords_thenEachChildFillsItsQuadrantOfTheParentInterior() {
    FieldStorage from = storage(4);
    from.allocateSparse(s2, 1);
    int coarse = from.layout().coarseInstance(q);
    for (int child = 0; child < 4; child++) {
      for (int j = G; j < G + 2; j++) {
        for (int i = G; i < G + 4; i++) {
          from.data()[from.layout().index(coarse, child, 0, 0, j, i)] = 10 * child + j + 0.1 * i;
        }
      }
    }
    FieldStorage to = storage(1);
    double[] message = new double[4 * records.maxLength(from.layout(), Kind.DEREFINED)];
    int pos = 0;
    for (int child = 0; child < 4; child++) {
      pos = records.packDerefined(from, child, message, pos);
    }
    int read = 0;
    for (int child = 0; child < 4; child++) {
      read = records.unpackDerefined(to, 0, child, message, read);
    }

    assertEquals(pos, read);
    int expected = 0;
    for (int child = 0; child < 4; child++) {
      expected += records.length(from, child, Kind.DEREFINED);
    }
    assertEquals(pos, expected);
    assertTrue(to.isAllocated(s2, 0), "allocated because one child had it");
    int data = to.layout().dataInstance(q, 0);
    for (int child = 0; child < 4; child++) {
      int i0 = G + 4 * (child & 1);
      int j0 = G + 2 * (child >> 1);
      for (int j = 0; j < 2; j++) {
        for (int i = 0; i < 4; i++) {
          assertEquals(10 * child + (G + j) + 0.1 * (G + i), at(to, data, 0, 0, j0 + j, i0 + i));
        }
      }
    }
    assertEquals(0.0, at(to, data, 0, 0, 0, 0), "ghosts are left for the exchange");
  }
}
