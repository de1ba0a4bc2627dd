package org.metope.mesh.field;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class SparsePoolTest {
  private static final Metadata SPARSE = Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT,
      Metadata.SPARSE, Metadata.VECTOR).shape(3).componentLabels("a", "b", "c").build();

  @Test
  void givenIds_thenTheyAreKeptAscendingAndNamedBaseUnderscoreId() {
    SparsePool pool = new SparsePool("tracer", SPARSE, 37, 12, -4);
    assertEquals(List.of(-4, 12, 37), List.copyOf(pool.pool().keySet()));
    assertEquals("tracer_12", SparsePool.fieldName("tracer", 12));
    assertEquals("tracer_-4", SparsePool.fieldName("tracer", -4));
    assertEquals(3, pool.size());
  }

  @Test
  void givenIdWithItsOwnShape_thenOnlyThatIdChanges() {
    SparsePool pool = new SparsePool("tracer", SPARSE, 1);
    Metadata two = pool.add(2, 2, 2);
    assertEquals(4, two.numComponents());
    assertFalse(two.isSet(Metadata.VECTOR));
    assertEquals(List.of(), two.componentLabels());
    assertEquals(3, pool.pool().get(1).numComponents());
  }

  @Test
  void givenMisuse_thenMessagesNameThePool() {
    assertEquals("sparse pool base=x needs metadata with the SPARSE flag, got "
        + Metadata.of(Metadata.CELL), assertThrows(IllegalArgumentException.class,
            () -> new SparsePool("x", Metadata.of(Metadata.CELL))).getMessage());
    SparsePool pool = new SparsePool("x", SPARSE, 1);
    assertEquals("sparse pool base=x already has id=1",
        assertThrows(IllegalArgumentException.class, () -> pool.add(1)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> pool.add(FieldInfo.NO_SPARSE_ID));
    assertThrows(IllegalArgumentException.class, () -> pool.add(5, Metadata.of(Metadata.CELL)));
    assertThrows(IllegalArgumentException.class, () -> new SparsePool("a b", SPARSE));
    assertThrows(IllegalArgumentException.class, () -> new SparsePool("p::q", SPARSE));
  }
}
