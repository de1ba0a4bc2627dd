package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.examples.advection.AdvectionEmulatedDeviceTest.Outcome;
import org.metope.kernels.tornado.DeviceTrace;
import org.metope.kernels.tornado.EmulatedDeviceBackend;
import org.metope.kernels.tornado.EmulatedDeviceBackend.Fault;

/**
 * Advection with the data arena resident on the emulated device: fluxes, flux divergence, the
 * integrator's weighted sums and the boundary kernels run on the device copy for the whole cycle,
 * and the host copy is brought back only where host code acquires it (outputs, user work, tags,
 * remesh). The stale copy is poisoned (NaN), so a host read that skips its acquire changes the
 * answer; every run must give the JVM backend's bits: with 3 task threads, on 2 ranks with one
 * message per channel, and on the adaptive 2D deck on 2 ranks. The negative control turns the
 * host acquires off and gets other numbers.
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

  @Test
  void givenOutflowFacesOnTwoRanks_whenResident_thenTheHostConditionsAcquireAndTheBitsAreEqual()
      throws IOException {
    String[] settings = {"parthenon/mesh/pack_size=8", "metope/threads=2",
        "parthenon/time/nlim=3", "parthenon/mesh/ix1_bc=outflow", "parthenon/mesh/ox1_bc=outflow",
        "parthenon/mesh/ix3_bc=outflow", "parthenon/mesh/ox3_bc=outflow"};
    assertResidentMatchesJvm(2, settings);
  }

  @Test
  void givenAdaptiveRefinementOnTwoRanks_whenResident_thenTheHistoryIsEqual()
      throws IOException {
    String[] settings = {"parthenon/mesh/pack_size=4", "metope/threads=2",
        "parthenon/time/nlim=20"};
    Outcome jvm = run(AdvectionDeterminismTest.AMR_DECK, "amr", 2, null, settings);
    Outcome device = run(AdvectionDeterminismTest.AMR_DECK, "amr", 2, Fault.NONE, settings);
    assertTrue(jvm.history().lines().count() > 20, jvm.history());
    assertEquals(jvm.history(), device.history());
  }

  @Test
  void givenHostReadsWithoutAcquire_whenTheStaleCopyIsPoisoned_thenTheAnswerIsWrong()
      throws IOException {
    String[] settings = {"parthenon/time/nlim=2"};
    Outcome jvm = run(AdvectionDeterminismTest.DECK, "det", 1, null, settings);
    Outcome device = run(AdvectionDeterminismTest.DECK, "det", 1, Fault.NO_HOST_ACQUIRE,
        settings);
    assertNotEquals(jvm.history(), device.history());
    assertTrue(device.history().contains("nan") || device.history().contains("NaN"),
        device.history());
  }
}
