package org.metope.examples.diffusion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessRun;
import org.metope.kernels.tornado.DeviceTrace;
import org.metope.kernels.tornado.EmulatedDeviceBackend;
import org.metope.kernels.tornado.EmulatedDeviceBackend.Fault;
import org.metope.mesh.input.ParameterInput;

/**
 * The diffusion package's own flux kernel ({@code DiffusionFluxes.face}, a {@code DeviceKernel}
 * in the examples module, named by no framework file) resident on the emulated device with the
 * stale copy poisoned: its fluxes run on the device copy beside the framework's divergence and
 * stage update, and the answer has the JVM backend's bits, on the adaptive 2D deck (remeshes
 * while it runs) on 1 and 2 ranks and on the 3D deck. The negative control runs the bodies on the
 * host arena without acquiring it, as a backend that ignored residency would, and gets another
 * answer.
 */
class DiffusionResidentDeviceTest {
  private static final Path DECK_2D = Path.of("../inputs/diffusion_2d.in");
  private static final Path DECK_3D = Path.of("../inputs/diffusion_3d.in");
  private static final String NO_OUTPUTS = "parthenon/output2/dt=-1";

  @TempDir Path dir;

  private record Outcome(Map<Integer, double[]> values, long cellLaunches) {}

  /** {@code deck} on {@code ranks} ranks, on the JVM ({@code fault} null) or resident. */
  private Outcome run(Path deck, int ranks, Fault fault, String... overrides) {
    Map<Integer, double[]> values = new ConcurrentHashMap<>();
    AtomicLong launches = new AtomicLong();
    InProcessRun.run(ranks, comm -> {
      ParameterInput pin = ParameterInput.load(deck, List.of(overrides));
      if (fault == null) {
        values.putAll(DiffusionRuns.valuesByGid(DiffusionRuns.run(pin, dir, comm,
            InOneBoundaryCommunication::fromInput)));
        return;
      }
      try (EmulatedDeviceBackend device = EmulatedDeviceBackend.resident(fault,
          new DeviceTrace(null), true)) {
        values.putAll(DiffusionRuns.valuesByGid(DiffusionRuns.run(pin, dir, comm,
            p -> InOneBoundaryCommunication.fromInput(p, device))));
        launches.addAndGet(device.cellLaunches());
      }
    });
    return new Outcome(new TreeMap<>(values), launches.get());
  }

  private void assertResidentMatchesJvm(Path deck, int ranks, String... overrides) {
    Outcome jvm = run(deck, ranks, null, overrides);
    Outcome device = run(deck, ranks, Fault.NONE, overrides);
    assertTrue(device.cellLaunches() > 0, "the package's fluxes ran on the device");
    assertEquals(jvm.values().keySet(), device.values().keySet());
    for (Map.Entry<Integer, double[]> block : jvm.values().entrySet()) {
      assertArrayEquals(block.getValue(), device.values().get(block.getKey()), 0.0,
          "gid " + block.getKey());
    }
  }

  @Test
  void givenTheAdaptive2dDeck_whenResident_thenBitIdenticalToTheJvm() {
    assertResidentMatchesJvm(DECK_2D, 1, NO_OUTPUTS, "parthenon/time/nlim=40");
  }

  @Test
  void givenTwoRanks_whenResident_thenBitIdenticalToTheJvm() {
    assertResidentMatchesJvm(DECK_2D, 2, NO_OUTPUTS, "parthenon/time/nlim=20",
        "metope/threads=2");
  }

  @Test
  void givenThe3dDeck_whenResident_thenBitIdenticalToTheJvm() {
    assertResidentMatchesJvm(DECK_3D, 1, NO_OUTPUTS, "parthenon/time/nlim=5");
  }

  @Test
  void givenTheBodiesRunOnTheUnacquiredHostArena_whenResident_thenTheAnswerIsWrong() {
    // The fluxes then go to the stale host copy and the device's stay what they were.
    Outcome jvm = run(DECK_2D, 1, null, NO_OUTPUTS, "parthenon/time/nlim=3");
    Outcome device = run(DECK_2D, 1, Fault.CELL_BODIES_ON_HOST, NO_OUTPUTS,
        "parthenon/time/nlim=3");
    assertEquals(0, device.cellLaunches());
    assertFalse(jvm.values().entrySet().stream().allMatch(
        e -> Arrays.equals(e.getValue(), device.values().get(e.getKey()))));
  }
}
