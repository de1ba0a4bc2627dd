package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.examples.advection.AdvectionEmulatedDeviceTest.Outcome;
import org.metope.kernels.tornado.DeviceTrace;
import org.metope.kernels.tornado.EmulatedDeviceBackend;
import org.metope.kernels.tornado.EmulatedDeviceBackend.Fault;
import org.metope.mesh.DriverError;

/**
 * Advection with the data arena resident on the emulated device: fluxes, flux divergence, the
 * integrator's weighted sums, the physical boundary conditions, the refinement measures and the
 * boundary kernels run on the device copy for the whole cycle, and the host copy is brought back
 * only where host code acquires it (outputs, user work, remesh). The stale copy is poisoned (NaN),
 * so a host read that skips its acquire changes the answer; every run must give the JVM backend's
 * bits: with 3 task threads, on 2 ranks with one message per channel, with outflow and reflecting
 * faces on 2 ranks, and on the adaptive 2D deck on 2 ranks (with outflow faces and a built-in
 * criterion too). The negative controls turn the host acquires off, skip the boundary kernel, or
 * leave the measures on the device, and get other numbers.
 */
class AdvectionResidentDeviceTest {
  @TempDir Path dir;

  /** Runs {@code deck} on the JVM backend ({@code fault} null) or the poisoned resident device. */
  private Outcome run(String deck, String name, int ranks, Fault fault, String... overrides)
      throws IOException {
    return AdvectionEmulatedDeviceTest.run(dir, deck, name, ranks, fault == null ? null
        : rank -> EmulatedDeviceBackend.resident(fault, new DeviceTrace(null), true), overrides);
  }

  /** The uniform deck on {@code ranks} ranks: field and history equal on the JVM and resident. */
  private void assertResidentMatchesJvm(int ranks, String... settings) throws IOException {
    Outcome jvm = run(AdvectionDeterminismTest.DECK, "det", ranks, null, settings);
    Outcome device = run(AdvectionDeterminismTest.DECK, "det", ranks, Fault.NONE, settings);
    assertArrayEquals(jvm.field(), device.field());
    assertEquals(jvm.history(), device.history());
  }

  @Test
  void givenThreeTaskThreads_whenResidentOnThePoisonedDevice_thenBitIdenticalToTheJvm()
      throws IOException {
    String[] threads = {"parthenon/mesh/pack_size=4", "metope/threads=3",
        "parthenon/time/nlim=4"};
    assertResidentMatchesJvm(1, threads);
  }

  @Test
  void givenTwoRanksAndOneMessagePerChannel_whenResident_thenBitIdenticalToTheJvm()
      throws IOException {
    String[] settings = {"parthenon/mesh/pack_size=8", "metope/threads=2",
        "parthenon/comm/coalesce=false", "parthenon/time/nlim=4"};
    assertResidentMatchesJvm(2, settings);
  }

  /** Outflow on x1 and x3, reflection on x2: every physical face of the stage on the device. */
  static final String[] PHYSICAL_FACES = {"parthenon/mesh/ix1_bc=outflow",
      "parthenon/mesh/ox1_bc=outflow", "parthenon/mesh/ix2_bc=reflecting",
      "parthenon/mesh/ox2_bc=reflecting", "parthenon/mesh/ix3_bc=outflow",
      "parthenon/mesh/ox3_bc=outflow"};

  @Test
  void givenPhysicalFacesOnTwoRanks_whenResident_thenTheConditionsRunOnTheDeviceBitForBit()
      throws IOException {
    String[] settings = concat(PHYSICAL_FACES, "parthenon/mesh/pack_size=8", "metope/threads=2",
        "parthenon/time/nlim=3");
    assertResidentMatchesJvm(2, settings);
  }

  @Test
  void givenTheBoundaryKernelSkipped_whenResident_thenTheAnswerIsWrong() throws IOException {
    // Without derived fields, whose callback refuses the zero ghosts of the set-up fill.
    String[] settings = concat(PHYSICAL_FACES, "parthenon/time/nlim=3",
        "Advection/fill_derived=false");
    Outcome jvm = run(AdvectionDeterminismTest.DECK, "det", 1, null, settings);
    Outcome device = run(AdvectionDeterminismTest.DECK, "det", 1, Fault.NO_BOUNDARY_CONDITIONS,
        settings);
    assertNotEquals(jvm.history(), device.history());
  }

  @Test
  void givenAdaptiveRefinementOnTwoRanks_whenResident_thenTheHistoryIsEqual()
      throws IOException {
    assertAdaptiveResidentMatchesJvm("parthenon/mesh/pack_size=4", "metope/threads=2",
        "parthenon/time/nlim=20");
  }

  @Test
  void givenAdaptiveRefinementWithOutflowAndADerivativeCriterion_whenResident_thenEqual()
      throws IOException {
    // Coarse buffers get their conditions on the device too, and the built-in criterion's
    // measure runs there beside the package's.
    assertAdaptiveResidentMatchesJvm("parthenon/mesh/pack_size=4", "metope/threads=2",
        "parthenon/time/nlim=20", "parthenon/mesh/ix1_bc=outflow",
        "parthenon/mesh/ox1_bc=outflow", "parthenon/refinement0/method=derivative_order_1",
        "parthenon/refinement0/field=advected", "parthenon/refinement0/refine_tol=0.5",
        "parthenon/refinement0/derefine_tol=0.05");
  }

  @Test
  void givenTheMeasuresLeftOnTheDevice_whenResidentAndAdaptive_thenTheHistoryDiffers()
      throws IOException {
    String[] settings = {"parthenon/mesh/pack_size=4", "parthenon/time/nlim=12"};
    Outcome jvm = run(AdvectionDeterminismTest.AMR_DECK, "amr", 1, null, settings);
    Outcome device = run(AdvectionDeterminismTest.AMR_DECK, "amr", 1, Fault.NO_TAGS_BACK,
        settings);
    assertNotEquals(jvm.history(), device.history());
  }

  private void assertAdaptiveResidentMatchesJvm(String... settings) throws IOException {
    Outcome jvm = run(AdvectionDeterminismTest.AMR_DECK, "amr", 2, null, settings);
    Outcome device = run(AdvectionDeterminismTest.AMR_DECK, "amr", 2, Fault.NONE, settings);
    assertTrue(jvm.history().lines().count() > 20, jvm.history());
    assertEquals(jvm.history(), device.history());
  }

  /** {@code first} followed by {@code more}. */
  static String[] concat(String[] first, String... more) {
    String[] all = java.util.Arrays.copyOf(first, first.length + more.length);
    System.arraycopy(more, 0, all, first.length, more.length);
    return all;
  }

  @Test
  void givenHostReadsWithoutAcquire_whenTheStaleCopyIsPoisoned_thenTheAnswerIsWrong()
      throws IOException {
    String[] settings = {"parthenon/time/nlim=2"};
    // The history reads the poisoned copy (NaN), which stops the run at its first row.
    DriverError poisoned = assertThrows(DriverError.class, () -> run(
        AdvectionDeterminismTest.DECK, "det", 1, Fault.NO_HOST_ACQUIRE, settings));
    assertTrue(poisoned.getMessage().contains(" has NaN in column "), poisoned.getMessage());
  }
}
