package org.metope.outputs.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class NumberLabelsTest {
  @Test
  void ticksAreNiceStepsInsideTheRange() {
    assertEquals(List.of(-0.4, -0.2, 0.0, 0.2, 0.4), NumberLabels.ticks(-0.5, 0.5, 5));
    assertEquals(List.of(0.0, 0.5, 1.0, 1.5, 2.0), NumberLabels.ticks(0, 2, 4));
    assertEquals(List.of(), NumberLabels.ticks(1, 1, 5), "an empty range has no ticks");
  }

  @Test
  void labelsShowAsFewDigitsAsTheValueNeeds() {
    assertEquals("0.3", NumberLabels.tick(0.1 + 0.2));
    assertEquals("-0.4", NumberLabels.tick(-0.4000000000000001));
    assertEquals("0", NumberLabels.tick(-0.0));
    assertEquals("2e-5", NumberLabels.tick(2e-5));
    assertEquals("1.698e-10", NumberLabels.precise(1.6975508582223642e-10, 4));
    assertEquals("0.9437", NumberLabels.precise(0.9436850068965724, 4));
    assertEquals("1", NumberLabels.precise(1.0, 4));
  }
}
