package org.metope.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./metope bench pingpong}'s table (launcher/mpi.sh's {@code pingpong_row}) reads the line
 * the communicator benchmark prints: latency, bandwidth and the largest rank's peak resident
 * memory. The benchmark runs for real, on two in-process ranks.
 */
class PingPongTableTest {
  private static final Pattern RSS = Pattern.compile("; peak RSS (\\d+) MB \\(largest rank\\)$");

  @TempDir Path tmp;

  @Test
  void givenTheBenchmarksLine_thenTheTableShowsItsFiguresAndPeakMemory() throws Exception {
    ProcessResult bench = ProcessResult.java(300, "org.metope.comm.CommunicatorBenchmark");
    assertEquals(0, bench.exitCode(), bench.output());
    String line = bench.output().lines().filter(l -> l.startsWith("communicator benchmark on"))
        .findFirst().orElseThrow(() -> new AssertionError(bench.output()));
    Matcher rss = RSS.matcher(line);
    assertTrue(rss.find(), line);
    long mb = Long.parseLong(rss.group(1));
    // A JVM that ran the benchmark holds more than its 1 MiB messages and less than this machine.
    assertTrue(mb > 1 && mb < Runtime.getRuntime().maxMemory() / 1024, line);

    // The C bench's line of an older build has no memory figure: the row says so.
    String older = "C ping-pong (mpicc) on Open MPI v4.1.4, 2 ranks: latency 0.30 us (one double,"
        + " half round trip), bandwidth 9000 MiB/s (1 MiB messages)";
    String[] rows = table(line + "\n" + older).split("\n");
    assertEquals(2, rows.length, String.join("\n", rows));
    String[] mine = rows[0].trim().split("\\s+");
    assertEquals(String.valueOf(mb), mine[mine.length - 1], rows[0]);
    assertTrue(rows[0].startsWith(line.substring("communicator benchmark on ".length(),
        line.indexOf(": latency"))), rows[0]);
    assertTrue(rows[1].matches("C over Open MPI v4\\.1\\.4, 2 ranks \\(mpicc -O2\\) +0\\.30 +9000"
        + " +\\?"), rows[1]);
  }

  /** {@code lines} through launcher/mpi.sh's {@code pingpong_row}. */
  private String table(String lines) throws Exception {
    String script = "ROOT='" + tmp + "'; source '" + RepoPaths.root().resolve("launcher/mpi.sh")
        + "'; pingpong_row <<'EOF'\n" + lines + "\nEOF\n";
    ProcessResult r = ProcessResult.run(tmp, 60, Map.of(), "bash", "-c", script);
    assertEquals(0, r.exitCode(), r.output());
    return r.output().strip();
  }
}
