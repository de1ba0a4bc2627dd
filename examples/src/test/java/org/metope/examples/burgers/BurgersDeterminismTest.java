package org.metope.examples.burgers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessRun;
import org.metope.kernels.tornado.DeviceTrace;
import org.metope.kernels.tornado.EmulatedDeviceBackend;
import org.metope.kernels.tornado.EmulatedDeviceBackend.Fault;
import org.metope.mesh.DriverError;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.input.ParameterInput;

/**
 * A Burgers deck gives the same bits whatever the decomposition: 1, 2 and 4 in-process ranks, one
 * or several partitions and task threads, coalesced or per-channel messages, while adaptive
 * refinement creates and merges blocks and moves them between ranks.
 */
class BurgersDeterminismTest {
  @TempDir Path dir;

  /** 3D, 32^3 in 8^3 blocks (4 ghosts), two levels: refines at start-up and while it runs. */
  static final String DECK = """
      <parthenon/job>
      problem_id = det
      <parthenon/mesh>
      nghost = 4
      refinement = adaptive
      numlevel = 2
      derefine_count = 2
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
      <parthenon/refinement0>
      method = derivative_order_1
      field = U
      vector_i = 3
      refine_tol = 0.3
      derefine_tol = 0.1
      <parthenon/time>
      nlim = 6
      integrator = rk2
      ncycle_out = 0
      <parthenon/output1>
      file_type = hst
      data_format = %.17e
      dt = 0.0
      <burgers>
      cfl = 0.8
      recon = weno5
      num_scalars = 2
      """;

  record Outcome(Map<LogicalLocation, double[]> fields, String history) {}

  private Outcome run(int ranks, String... overrides) throws IOException {
    return run(ranks, null, overrides);
  }

  private Outcome run(int ranks, Fault fault, String... overrides) throws IOException {
    return run(dir, ranks, fault, overrides);
  }

  /**
   * A run of {@link #DECK} with {@code overrides}, outputs under {@code dir}, on the JVM backend
   * ({@code fault} null) or on the poisoned resident emulation with {@code fault}.
   */
  static Outcome run(Path dir, int ranks, Fault fault, String... overrides) throws IOException {
    Path out = Files.createTempDirectory(dir, "r" + ranks);
    Map<LogicalLocation, double[]> fields = new ConcurrentHashMap<>();
    InProcessRun.run(ranks, comm -> {
      ParameterInput pin = ParameterInput.parse("det.in", DECK, List.of(overrides));
      if (fault == null) {
        BurgersRuns.interiors(BurgersRuns.run(pin, out, comm).mesh(), fields);
        return;
      }
      try (EmulatedDeviceBackend device = EmulatedDeviceBackend.resident(fault,
          new DeviceTrace(null), true)) {
        BurgersRuns.interiors(BurgersRuns.run(pin, out, comm,
            p -> InOneBoundaryCommunication.fromInput(p, device)).mesh(), fields);
      }
    });
    return new Outcome(new TreeMap<>(fields), Files.readString(out.resolve("det.out1.hst")));
  }

  private static void assertSameBits(Outcome expected, Outcome actual, String what) {
    assertEquals(expected.fields().keySet(), actual.fields().keySet(), what + ": blocks");
    for (Map.Entry<LogicalLocation, double[]> e : expected.fields().entrySet()) {
      assertArrayEquals(e.getValue(), actual.fields().get(e.getKey()), what + " " + e.getKey());
    }
    assertEquals(expected.history(), actual.history(), what + ": history");
  }

  /**
   * The resident device with the stale copy poisoned: burgers' fluxes, derived field and time
   * step run on the device (their launches), as do the divergence and the stage update; the tags,
   * the history and the remeshes that happen during the run acquire the host copy. Same bits as
   * the JVM.
   */
  @Test
  void givenTheResidentDevice_whenRunOnTwoRanks_thenFieldsAndHistoryAreBitIdentical()
      throws IOException {
    String[] settings = {"parthenon/mesh/pack_size=4", "metope/threads=2",
        "parthenon/time/nlim=3"};
    assertSameBits(run(2, null, settings), run(2, Fault.NONE, settings), "resident, 2 ranks");
  }

  /** The same on one rank with two task threads, with linear reconstruction. */
  @Test
  void givenTheResidentDevice_whenRunOnOneRankWithLinearReconstruction_thenBitIdentical()
      throws IOException {
    String[] settings = {"parthenon/mesh/pack_size=4", "metope/threads=2",
        "parthenon/time/nlim=3", "burgers/recon=linear"};
    assertSameBits(run(1, null, settings), run(1, Fault.NONE, settings), "resident, 1 rank");
  }

  /** The same in 2D (32^2 in 8^2 blocks, adaptive) on 2 ranks, with WENO5. */
  @Test
  void givenTheResidentDeviceIn2d_whenRunOnTwoRanks_thenFieldsAndHistoryAreBitIdentical()
      throws IOException {
    String[] settings = {"parthenon/mesh/nx3=1", "parthenon/meshblock/nx3=1",
        "parthenon/time/nlim=4", "metope/threads=2", "parthenon/mesh/pack_size=4"};
    assertSameBits(run(2, null, settings), run(2, Fault.NONE, settings), "resident 2D, 2 ranks");
  }

  /**
   * Negative control: with the host acquires skipped, the history reads the poisoned host copy
   * (NaN), which stops the run at its first history row.
   */
  @Test
  void givenHostReadsWithoutAcquire_whenResident_thenTheHistoryIsPoisoned() throws IOException {
    String[] settings = {"parthenon/time/nlim=2"};
    DriverError poisoned = assertThrows(DriverError.class,
        () -> run(1, Fault.NO_HOST_ACQUIRE, settings));
    assertTrue(poisoned.getMessage().contains(" has NaN in column "), poisoned.getMessage());
  }

  @Test
  void givenOneTwoAndFourRanksThreadsAndMessageModes_thenFieldsAndHistoryAreBitIdentical()
      throws IOException {
    Outcome reference = run(1);
    assertSameBits(reference, run(1, "parthenon/mesh/pack_size=4", "metope/threads=2"),
        "1 rank, 2 threads");
    assertSameBits(reference, run(2, "parthenon/comm/coalesce=false"), "2 ranks, per channel");
    assertSameBits(reference, run(4, "parthenon/mesh/pack_size=4", "metope/threads=2",
        "parthenon/comm/coalesce=true"), "4 ranks, 2 threads, coalesced");
    // The block count (column 4) changed during the run: blocks were created and moved.
    List<Integer> counts = reference.history().lines().filter(l -> !l.startsWith("#"))
        .map(l -> Integer.parseInt(l.trim().split("\\s+")[3])).toList();
    assertTrue(counts.get(0) > 64 && !counts.get(0).equals(counts.get(counts.size() - 1)),
        counts.toString());
  }
}
