package org.metope.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The status files ranks leave for the launcher. */
class RankStatusTest {

  @Test
  void givenAFinishedRank_thenItsStatusReadsBackAsOneLine(@TempDir Path dir) throws Exception {
    RankStatus status = RankStatus.inDirectory(dir, 1, 2);
    status.started();
    status.finished(2, RankStatus.Outcome.FAILED, "deck x.in line 3:\nbad key\r\n");
    assertEquals(ProcessHandle.current().pid() + "", Files.readString(dir.resolve("rank-1.pid"))
        .strip());
    assertEquals(new RankStatus.Report(1, 2, RankStatus.Outcome.FAILED, "deck x.in line 3: bad key"),
        RankStatus.read(dir, 1));
    assertNull(RankStatus.read(dir, 0));
  }

  @Test
  void givenOneRankMissing_thenAwaitAllFinishedGivesUpAndThenSucceedsOnceItReports(
      @TempDir Path dir) {
    RankStatus.inDirectory(dir, 0, 2).finished(0, RankStatus.Outcome.OK, "");
    assertFalse(RankStatus.inDirectory(dir, 0, 2).awaitAllFinished(100));
    RankStatus.inDirectory(dir, 1, 2).finished(1, RankStatus.Outcome.ABORTED, "rank 0 aborted");
    assertTrue(RankStatus.inDirectory(dir, 0, 2).awaitAllFinished(100));
  }

  @Test
  void givenNoDirectoryProperty_thenNothingIsWritten() {
    RankStatus status = RankStatus.fromSystemProperty(0, 1);
    assertFalse(status.enabled());
    status.finished(0, RankStatus.Outcome.OK, "");
    assertTrue(status.awaitAllFinished(0));
  }
}
