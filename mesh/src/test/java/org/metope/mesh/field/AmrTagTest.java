package org.metope.mesh.field;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class AmrTagTest {

  @Test
  void givenParthenonValues_thenTagsRoundTripAndOrderByValue() {
    for (AmrTag tag : AmrTag.values()) {
      assertEquals(tag, AmrTag.of(tag.value));
    }
    assertEquals(-1, AmrTag.DEREFINE.value);
    assertEquals(0, AmrTag.SAME.value);
    assertEquals(1, AmrTag.REFINE.value);
    assertEquals("AmrTag value=3 is none of -1 (derefine), 0 (same), 1 (refine)",
        assertThrows(IllegalArgumentException.class, () -> AmrTag.of(3)).getMessage());
  }
}
