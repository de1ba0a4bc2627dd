package org.metope.mesh.field;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class HistoryOutputTest {

  @Test
  void givenScalarAndVectorOutputs_thenColumnLabelsFollowParthenon() {
    HistoryOutput total = HistoryOutput.of(HistoryOutput.Operation.SUM, "total", (md, b) -> 1);
    assertEquals(List.of("total"), total.columnLabels());
    HistoryOutput mom = HistoryOutput.vector(HistoryOutput.Operation.MAX, "mom", 3,
        (md, b, out) -> out[0] = 1);
    assertEquals(List.of("mom_0", "mom_1", "mom_2"), mom.columnLabels());
    assertEquals(3, mom.numComponents());
    HistoryOutput running = HistoryOutput.runningSum("mass", (md, b, sum) -> sum + 1);
    assertEquals(List.of("mass"), running.columnLabels());
    assertEquals(HistoryOutput.Operation.SUM, running.operation());
  }

  @Test
  void givenInvalidOutputs_thenMisuseIsReported() {
    assertThrows(IllegalArgumentException.class,
        () -> HistoryOutput.of(HistoryOutput.Operation.SUM, " ", (md, b) -> 1));
    assertThrows(IllegalArgumentException.class,
        () -> HistoryOutput.vector(HistoryOutput.Operation.SUM, "v", 0, (md, b, out) -> { }));
    assertThrows(IllegalArgumentException.class,
        () -> new HistoryOutput(HistoryOutput.Operation.SUM, "x", 1, null, null, null));
    assertThrows(IllegalArgumentException.class, () -> new HistoryOutput(
        HistoryOutput.Operation.SUM, "x", 2, (md, b) -> 1, null, null));
    assertThrows(IllegalArgumentException.class, () -> new HistoryOutput(
        HistoryOutput.Operation.MAX, "x", 1, null, null, (md, b, total) -> total));
    assertThrows(IllegalArgumentException.class, () -> new HistoryOutput(
        HistoryOutput.Operation.SUM, "x", 1, (md, b) -> 1, null, (md, b, total) -> total));
  }
}
