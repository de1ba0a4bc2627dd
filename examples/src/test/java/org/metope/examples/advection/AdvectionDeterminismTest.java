package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.mesh.Mesh;
import org.metope.mesh.comm.InProcessCluster;
import org.metope.mesh.input.ParameterInput;

/**
 * The same deck gives the same bits whatever the decomposition: 1, 2 and 4 ranks (threads of one
 * JVM with the in-process communicator), one or several partitions, one or several task threads,
 * one or several kernel threads, channels posted in cache order or in a seeded random order.
 */
class AdvectionDeterminismTest {
  @TempDir Path dir;

  private static final String DECK = """
      <parthenon/job>
      problem_id = det
      <parthenon/mesh>
      nx1 = 32
      x1min = -0.5
      x1max = 0.5
      ix1_bc = periodic
      ox1_bc = periodic
      nx2 = 32
      x2min = -0.5
      x2max = 0.5
      ix2_bc = periodic
      ox2_bc = periodic
      nx3 = 32
      x3min = -0.5
      x3max = 0.5
      ix3_bc = periodic
      ox3_bc = periodic
      <parthenon/meshblock>
      nx1 = 8
      nx2 = 8
      nx3 = 8
      <parthenon/time>
      nlim = 8
      integrator = rk3
      ncycle_out = 0
      <Advection>
      cfl = 0.3
      vx = 1.0
      vy = -0.7
      vz = 0.4
      profile = smooth_gaussian
      amp = 1.0
      fill_derived = true
      <parthenon/output0>
      file_type = hst
      dt = 0.0
      data_format = %.17e
      """;

  /** Final field in gid order and history text of a run on {@code ranks} ranks. */
  private record Outcome(double[] field, String history) {}

  private Outcome run(int ranks, String... overrides) throws IOException {
    Path out = Files.createTempDirectory(dir, "r" + ranks);
    double[] field = new double[32 * 32 * 32];
    InProcessCluster.run(ranks, comm -> {
      ParameterInput pin = ParameterInput.parse("det.in", DECK, List.of(overrides));
      Mesh mesh = AdvectionRuns.run(pin, out, comm).mesh();
      double[] mine = AdvectionRuns.advected(mesh);
      int first = mesh.blocks().get(0).gid();
      synchronized (field) {
        System.arraycopy(mine, 0, field, first * 512, mine.length);
      }
    });
    return new Outcome(field, Files.readString(out.resolve("det.out0.hst")));
  }

  @Test
  void givenOneTwoAndFourRanksAndSeveralPartitionsAndThreads_thenFieldAndHistoryAreBitIdentical()
      throws IOException {
    Outcome reference = run(1);
    List<Outcome> others = List.of(
        run(1, "parthenon/mesh/pack_size=4", "metope/threads=3"),
        run(2, "parthenon/mesh/pack_size=8", "metope/threads=2"),
        run(4),
        run(2, "parthenon/kernels/threads=3"),
        run(1, "parthenon/comm/post_order=random", "parthenon/comm/seed=17"));
    for (Outcome o : others) {
      assertArrayEquals(reference.field(), o.field());
      assertEquals(reference.history(), o.history());
    }
    // Two header lines, then cycles 0 to 8.
    assertEquals(11, reference.history().lines().count());
  }

  @Test
  void givenCoalescedOrPerChannelMessagesAcrossRanksAndPartitions_thenBitIdenticalToOneRank()
      throws IOException {
    Outcome reference = run(1);
    // 16 blocks per rank in partitions of 4 on 2 task threads: one coalesced message per sending
    // partition feeds several receiving partitions, completed by whichever thread polls first.
    for (String coalesce : List.of("true", "false")) {
      Outcome o = run(4, "parthenon/comm/coalesce=" + coalesce, "parthenon/mesh/pack_size=4",
          "metope/threads=2");
      assertArrayEquals(reference.field(), o.field(), "coalesce=" + coalesce);
      assertEquals(reference.history(), o.history(), "coalesce=" + coalesce);
    }
  }
}
