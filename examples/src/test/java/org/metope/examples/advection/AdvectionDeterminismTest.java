package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.mesh.Mesh;
import org.metope.comm.InProcessRun;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.input.ParameterInput;

/**
 * The same deck gives the same bits whatever the decomposition: 1, 2 and 4 ranks (threads of one
 * JVM with the in-process communicator), one or several partitions, one or several task threads,
 * one or several kernel threads, channels posted in cache order or in a seeded random order; with
 * adaptive refinement too, while blocks are created, merged and moved between ranks.
 */
class AdvectionDeterminismTest {
  @TempDir Path dir;

  static final String DECK = """
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
    InProcessRun.run(ranks, comm -> {
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

  static final String AMR_DECK = """
      <parthenon/job>
      problem_id = amr
      <parthenon/mesh>
      refinement = adaptive
      numlevel = 3
      derefine_count = 3
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
      nx3 = 1
      x3min = -0.5
      x3max = 0.5
      <parthenon/meshblock>
      nx1 = 8
      nx2 = 8
      <parthenon/time>
      nlim = 60
      integrator = rk2
      ncycle_out = 0
      <Advection>
      cfl = 0.45
      vx = 1.0
      vy = 0.7
      profile = hard_sphere
      <parthenon/output0>
      file_type = hst
      dt = 0.0
      data_format = %.17e
      """;

  /** Final interiors of {@code advected} by block location, and the history text. */
  private record AmrOutcome(Map<LogicalLocation, List<Double>> field, String history) {}

  private AmrOutcome runAmr(int ranks, String... overrides) throws IOException {
    Path out = Files.createTempDirectory(dir, "amr" + ranks);
    Map<LogicalLocation, List<Double>> field = new ConcurrentHashMap<>();
    InProcessRun.run(ranks, comm -> {
      ParameterInput pin = ParameterInput.parse("amr.in", AMR_DECK, List.of(overrides));
      Mesh mesh = AdvectionRuns.run(pin, out, comm).mesh();
      double[] mine = AdvectionRuns.advected(mesh);
      int cells = 64;
      for (int lid = 0; lid < mesh.blocks().size(); lid++) {
        List<Double> values = new ArrayList<>();
        for (int n = lid * cells; n < (lid + 1) * cells; n++) {
          values.add(mine[n]);
        }
        field.put(mesh.blocks().get(lid).loc(), values);
      }
    });
    return new AmrOutcome(new TreeMap<>(field), Files.readString(out.resolve("amr.out0.hst")));
  }

  @Test
  void givenAdaptiveRefinementOnOneTwoAndFourRanks_thenBlocksMigrateAndTheBitsStayTheSame()
      throws IOException {
    AmrOutcome reference = runAmr(1);
    List<AmrOutcome> others = List.of(
        runAmr(1, "parthenon/mesh/pack_size=4", "metope/threads=3"),
        runAmr(2, "parthenon/mesh/pack_size=8", "metope/threads=2"),
        runAmr(2, "metope/threads=2"),
        runAmr(4));
    for (AmrOutcome o : others) {
      assertEquals(reference.field(), o.field());
      assertEquals(reference.history(), o.history());
    }
    // The block count (column 4) both rose and fell: refinement and merges happened, and with
    // them blocks moved between ranks.
    List<Integer> counts = reference.history().lines().filter(l -> !l.startsWith("#"))
        .map(l -> Integer.parseInt(l.trim().split("\\s+")[3])).toList();
    boolean rose = false;
    boolean fell = false;
    for (int n = 1; n < counts.size(); n++) {
      rose |= counts.get(n) > counts.get(n - 1);
      fell |= counts.get(n) < counts.get(n - 1);
    }
    assertTrue(rose && fell, counts.toString());
  }
}
