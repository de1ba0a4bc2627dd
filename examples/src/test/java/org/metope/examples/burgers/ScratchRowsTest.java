package org.metope.examples.burgers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import org.junit.jupiter.api.Test;

class ScratchRowsTest {
  /**
   * Every row is a distinct array of the smallest length {@code >= length} that is {@code 6 (mod
   * 8)}: 16 header bytes plus 8 a value make a multiple of 64 bytes exactly then.
   */
  @Test
  void rowsAreTheSmallestLengthThatFillsWholeCacheLines() {
    for (int length = 0; length <= 600; length++) {
      double[][] rows = ScratchRows.allocate(3, length);
      assertEquals(3, rows.length);
      int expected = length;
      while ((16 + 8 * expected) % 64 != 0) {
        expected++;
      }
      for (double[] row : rows) {
        assertEquals(expected, row.length, "length " + length);
      }
      assertNotSame(rows[0], rows[1]);
      assertNotSame(rows[1], rows[2]);
    }
  }
}
