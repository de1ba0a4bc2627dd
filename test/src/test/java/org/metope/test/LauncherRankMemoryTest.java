package org.metope.test;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's heap sizes for a JVM that holds several ranks (MPJ multicore): each rank gets
 * the young generation and initial heap of a one-rank JVM, read back from the ranks' JVM
 * ({@code -XX:+PrintFlagsFinal}).
 */
class LauncherRankMemoryTest {
  private static final long MB = 1 << 20;
  private static final String DECK = RepoPaths.root().resolve("inputs/advection_2d.in").toString();

  @TempDir Path tmp;

  @Test
  void givenTwoMulticoreRanks_thenTheirJvmHasTwiceOneRanksYoungGenerationAndHeap()
      throws Exception {
    Map<String, String> two =
        LauncherFlags.of(tmp, Map.of(), "0,1", List.of("-np", "2", "-i", DECK));
    assertEquals(16 * MB, Long.parseLong(two.get("NewSize")));
    assertEquals(64 * MB, Long.parseLong(two.get("InitialHeapSize")));
    // The control: one rank keeps a one-rank JVM's sizes.
    Map<String, String> one =
        LauncherFlags.of(tmp, Map.of(), "0,1", List.of("-np", "1", "-i", DECK));
    assertEquals(8 * MB, Long.parseLong(one.get("NewSize")));
    assertEquals(32 * MB, Long.parseLong(one.get("InitialHeapSize")));
  }
}
