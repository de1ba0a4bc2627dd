package org.metope.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
    // --applications alone exits 0; a missing deck is a user error (2), reported on stderr by
    // name, so the second deck's line shows that the run after a failure ran.
    String[] first = {"-i", "first-missing.in", AotTraining.THEN, "-i", "second-missing.in"};
    String[] last = {"--applications", AotTraining.THEN, "-i", "no-such-deck.in"};
    int[] code = new int[1];
    String err = stderrOf(() -> code[0] = AotTraining.run(first));
    assertEquals(2, code[0]);
    assertTrue(err.contains("first-missing.in") && err.contains("second-missing.in"), err);
    assertEquals(2, AotTraining.run(last));
    assertEquals(0, AotTraining.run(new String[] {"--applications"}));
  }

  /** What {@code action} prints on System.err. */
  private static String stderrOf(Runnable action) {
    PrintStream saved = System.err;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      action.run();
    } finally {
      System.setErr(saved);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
