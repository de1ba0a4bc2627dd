package org.metope.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RankErrorsTest {
  @Test
  void givenErrorsAndWarnings_thenTheLastErrorIsTheMessageAndWarningsPassOn() {
    ByteArrayOutputStream passed = new ByteArrayOutputStream();
    RankErrors errors = new RankErrors(new PrintStream(passed, true, StandardCharsets.UTF_8));
    assertNull(errors.lastError());
    errors.stream().println("metope: first");
    errors.stream().println("warning: careful");
    errors.stream().print("metope: second");
    assertEquals("metope: second", errors.lastError());
    assertEquals("warning: careful\n", passed.toString(StandardCharsets.UTF_8));
  }

  @Test
  void givenAMultiLineReport_thenItsHeadlineIsTheMessage() {
    RankErrors errors = new RankErrors(null);
    errors.stream().println("metope: step failed to complete all tasks: no task made progress for"
        + " 3000 ms; pending tasks:");
    errors.stream().println("  receive boundary buffers (partition 1)");
    errors.stream().println("    BOUNDARY_VALUES ChannelKey[senderGid=15] state=STALE");
    errors.stream().println("channels of rank 0: boundaryValues=88 fluxCorrections=0");
    assertEquals("metope: step failed to complete all tasks: no task made progress for 3000 ms;"
        + " pending tasks:", errors.lastError());
  }
}
