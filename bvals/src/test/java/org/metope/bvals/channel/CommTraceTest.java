package org.metope.bvals.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.bvals.CommDiagnosticsMain;
import org.metope.comm.ProgressDeadline;

/**
 * The trace line format, the switch's parsing, and, in a child JVM started with {@code
 * METOPE_COMM_TRACE=1} and {@code -Dmetope.comm.debug=true} (both are read once per JVM), the
 * lines a real exchange prints and the NaN fill of staled buffers.
 */
class CommTraceTest {
  @Test
  void givenEvent_thenOneNameValueLine() {
    assertEquals("metope-comm rank=0 op=send kind=BOUNDARY_VALUES key=ChannelKey[senderGid=0, "
        + "receiverGid=1, fieldId=2, element=14] peer=1 tag=3 length=64 seq=1",
        CommTrace.line(0, "send", ChannelKind.BOUNDARY_VALUES, new ChannelKey(0, 1, 2, 14), 1, 3,
            64, 1));
  }

  @Test
  void givenVariableValues_thenOnlyOneAndTrueSwitchTracingOn() {
    assertTrue(CommTrace.isOn("1"));
    assertTrue(CommTrace.isOn("TRUE"));
    assertFalse(CommTrace.isOn(null));
    assertFalse(CommTrace.isOn("0"));
    assertFalse(CommTrace.isOn("yes"));
  }

  @Test
  void givenTraceAndDebugInAChildJvm_thenEachSendAndReceiveIsLoggedAndStaledBuffersAreNaN(
      @TempDir Path dir) throws IOException, InterruptedException {
    Path err = dir.resolve("stderr.txt");
    Path out = dir.resolve("stdout.txt");
    String java = System.getProperty("java.home") + File.separator + "bin" + File.separator
        + "java";
    ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        "-D" + CommDebug.PROPERTY + "=true", CommDiagnosticsMain.class.getName());
    pb.environment().put(CommTrace.VARIABLE, "1");
    pb.redirectError(err.toFile());
    pb.redirectOutput(out.toFile());
    Process p = pb.start();
    String stalled = ProgressDeadline.await(p.toHandle(), Duration.ofSeconds(60));
    assertNull(stalled, "child JVM did not finish: " + stalled);
    List<String> lines = Files.readAllLines(err, StandardCharsets.UTF_8);
    // Not exitValue(): the handle may see the child gone before the Process has reaped it.
    assertEquals(0, p.waitFor(), String.join("\n", lines));
    String remote01 = "key=ChannelKey[senderGid=0, receiverGid=1, fieldId=0, element=14]";
    String local = "key=ChannelKey[senderGid=5, receiverGid=6, fieldId=1, element=4]";
    assertTrue(lines.contains("metope-comm rank=0 op=send kind=BOUNDARY_VALUES " + remote01
        + " peer=1 tag=2 length=3 seq=1"), String.join("\n", lines));
    assertTrue(lines.contains("metope-comm rank=1 op=recv kind=BOUNDARY_VALUES " + remote01
        + " peer=0 tag=2 length=3 seq=1"), String.join("\n", lines));
    assertTrue(lines.contains("metope-comm rank=0 op=send-null kind=BOUNDARY_VALUES " + remote01
        + " peer=1 tag=2 length=0 seq=2"), String.join("\n", lines));
    assertTrue(lines.contains("metope-comm rank=1 op=recv-null kind=BOUNDARY_VALUES " + remote01
        + " peer=0 tag=2 length=0 seq=2"), String.join("\n", lines));
    assertTrue(lines.contains("metope-comm rank=0 op=send kind=FLUX_CORRECTION " + local
        + " peer=0 tag=-1 length=3 seq=1"), String.join("\n", lines));
    assertTrue(lines.contains("metope-comm rank=0 op=recv kind=FLUX_CORRECTION " + local
        + " peer=0 tag=-1 length=3 seq=1"), String.join("\n", lines));
    assertEquals(6, lines.stream().filter(l -> l.startsWith("metope-comm ")).count(),
        String.join("\n", lines));
    assertEquals(List.of("debug=true", "received=7.0,8.0,9.0", "afterStale=NaN,NaN,NaN"),
        Files.readAllLines(out, StandardCharsets.UTF_8));
  }
}
