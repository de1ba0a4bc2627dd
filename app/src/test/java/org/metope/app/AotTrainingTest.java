package org.metope.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class AotTrainingTest {
  @Test
  void givenTwoRunsSeparatedByThen_thenEachGetsItsOwnArguments() {
    List<String[]> runs =
        AotTraining.runs(new String[] {"-i", "a.in", "x=1", "--then", "-i", "b.in"});
    assertEquals(2, runs.size());
    assertArrayEquals(new String[] {"-i", "a.in", "x=1"}, runs.get(0));
    assertArrayEquals(new String[] {"-i", "b.in"}, runs.get(1));
  }

  @Test
  void givenAFailingRun_thenItsCodeIsKeptAndTheOtherRunsStillRun() {
    // --applications alone exits 0; a missing deck is a user error (2). The failure is reported
    // whether it comes first or last, so the run after a failure ran and the code was kept.
    String[] first = {"-i", "no-such-deck.in", AotTraining.THEN, "--applications"};
    String[] last = {"--applications", AotTraining.THEN, "-i", "no-such-deck.in"};
    assertEquals(2, AotTraining.run(first));
    assertEquals(2, AotTraining.run(last));
    assertEquals(0, AotTraining.run(new String[] {"--applications"}));
  }
}
