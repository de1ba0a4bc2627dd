package org.metope.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeakResidentMemoryTest {
  @TempDir Path dir;

  @Test
  void givenAStatusFile_thenItsVmHwmInKilobytes() throws IOException {
    Path status = dir.resolve("status");
    Files.writeString(status, "Name:\tjava\nVmPeak:\t 9000 kB\nVmHWM:\t   61440 kB\nVmRSS:\t 512 kB\n");
    assertEquals(61440, PeakResidentMemory.kilobytesOf(status));
  }

  @Test
  void givenNoFile_thenZero() {
    assertEquals(0, PeakResidentMemory.kilobytesOf(dir.resolve("gone")));
  }

  @Test
  void givenThisJvmHoldingAnArray_thenItsPeakCountsIt() {
    long[] held = new long[32 << 17];
    Arrays.fill(held, 1L);
    String label = PeakResidentMemory.ofThisProcess();
    long mb = Long.parseLong(label.replaceAll("\\D", ""));
    assertTrue(mb >= 32 && held[held.length - 1] == 1L, label);
  }
}
