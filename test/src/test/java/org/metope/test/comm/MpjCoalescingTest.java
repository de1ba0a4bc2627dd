package org.metope.test.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both transports of cross-rank channels on real MPJ ranks: coalesced messages (the default,
 * covered on 2 and 4 multicore ranks by {@link MpjSimulationTest}) also on niodev and with one
 * block per partition, and one message per channel ({@code parthenon/comm/coalesce=false}). The
 * analytic ghost check must find no wrong cell, and advection the history of one rank.
 */
class MpjCoalescingTest {
  private static final long LIMIT_SECONDS = 120;

  @TempDir Path dir;

  @BeforeAll
  static void mpjIsInstalled() {
    LauncherRun.requireMpj();
  }

  private static String deck(String name) {
    return LauncherRun.root().resolve("inputs").resolve(name).toString();
  }

  private static void ghostCheck(String device, int ranks, String deck, String... overrides)
      throws Exception {
    String[] args = new String[6 + overrides.length];
    String[] head = {"-np", Integer.toString(ranks), "--dev", device, "-i", deck(deck)};
    System.arraycopy(head, 0, args, 0, head.length);
    System.arraycopy(overrides, 0, args, head.length, overrides.length);
    LauncherRun r = LauncherRun.run(LIMIT_SECONDS, Map.of(), args);
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains("on " + ranks + " ranks, wrong ghost cells = 0"), r.output());
  }

  @Test
  void givenOneMessagePerChannelOnTwoMulticoreRanks_thenNoWrongGhostCell() throws Exception {
    ghostCheck("multicore", 2, "ghost_check_3d_mixed.in", "parthenon/comm/coalesce=false");
    ghostCheck("multicore", 2, "ghost_check_2d_outflow.in", "parthenon/comm/coalesce=false");
  }

  @Test
  void givenCoalescedMessagesOfOneBlockPartitionsOnFourMulticoreRanks_thenNoWrongGhostCell()
      throws Exception {
    ghostCheck("multicore", 4, "ghost_check_3d_mixed.in", "parthenon/mesh/pack_size=1");
    ghostCheck("multicore", 4, "ghost_check_3d_periodic.in", "parthenon/mesh/pack_size=3");
  }

  @Test
  void givenCoalescedMessagesOnThreeNiodevRanks_thenNoWrongGhostCell() throws Exception {
    ghostCheck("niodev", 3, "ghost_check_3d_periodic.in", "parthenon/mesh/pack_size=5");
  }

  @Test
  void givenOneMessagePerChannelOnTwoMpjRanks_thenAdvectionWritesTheHistoryOfOneRank()
      throws Exception {
    String[] common = {"-i", deck("advection_2d.in"), "parthenon/time/nlim=12",
        "parthenon/mesh/nx1=64", "parthenon/mesh/nx2=64", "parthenon/meshblock/nx1=16",
        "parthenon/meshblock/nx2=16", "parthenon/output0/dt=0.002", "-d"};
    Path one = Files.createDirectories(dir.resolve("one"));
    Path two = Files.createDirectories(dir.resolve("two"));
    LauncherRun serial = LauncherRun.run(LIMIT_SECONDS, Map.of(), concat(common, one));
    assertEquals(0, serial.exitCode(), serial.output());
    String[] mpj = concat(new String[] {"-np", "2", "--dev", "multicore",
        "parthenon/comm/coalesce=false"}, concat(common, two));
    LauncherRun perChannel = LauncherRun.run(LIMIT_SECONDS, Map.of(), mpj);
    assertEquals(0, perChannel.exitCode(), perChannel.output());
    String hst = "advection_2d.out0.hst";
    String expected = Files.readString(one.resolve(hst));
    assertTrue(expected.lines().count() > 10, expected);
    assertEquals(expected, Files.readString(two.resolve(hst)));
  }

  private static String[] concat(String[] a, Path last) {
    return concat(a, new String[] {last.toString()});
  }

  private static String[] concat(String[] a, String[] b) {
    String[] out = new String[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
