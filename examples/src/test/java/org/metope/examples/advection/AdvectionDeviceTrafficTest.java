package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessRun;
import org.metope.examples.advection.StageSampler.Stage;
import org.metope.examples.sparseadvection.CountingCommunicator;
import org.metope.kernels.KernelBackend;
import org.metope.kernels.tornado.DeviceTrace;
import org.metope.kernels.tornado.EmulatedDeviceBackend;
import org.metope.kernels.tornado.EmulatedDeviceBackend.Fault;
import org.metope.mesh.input.ParameterInput;

/**
 * What crosses between host and device per stage when the advection stage is resident on the
 * (emulated) device, against the MPI payload of the same stage, both counted where they happen:
 * the device trace in the backend, the payload in the communicator ({@link
 * CountingCommunicator}). On 2 ranks of the 32^3 deck, after the first cycle (set-up, the first
 * upload of the arena, the launch tables and the boundary columns), each stage sends to the host
 * at most what the rank sends by MPI, and to the device at most what the other rank sends it,
 * each plus {@link #SLACK} bytes (the per-boundary flags: 4 bytes per boundary and launch). The
 * negative control is the step-1 device backend, which copies the arenas to the device at every
 * launch, measured the same way. The same bound holds with outflow and reflecting faces (their
 * conditions run on the device) and on the adaptive 2D deck in every stage of a cycle that no
 * remesh began (the measures of the refinement criteria, 16 bytes per block, are all the tagging
 * sends back; a remesh copies the arena in full, and is left out).
 */
class AdvectionDeviceTrafficTest {
  /** Bytes per stage and direction allowed beyond the MPI payload. */
  private static final long SLACK = 8192;
  private static final String[] SETTINGS = {"parthenon/time/nlim=3", "parthenon/output0/dt=1.0",
      "Advection/fill_derived=false", "parthenon/mesh/pack_size=8", "metope/threads=2"};
  /**
   * The adaptive deck without per-cycle outputs and derived fields (a history output and the
   * derived fields' host callback bring the arena back).
   */
  private static final String[] ADAPTIVE = {"parthenon/time/nlim=16",
      "parthenon/output0/dt=1.0", "Advection/fill_derived=false", "parthenon/mesh/pack_size=4",
      "metope/threads=2"};

  @TempDir Path dir;

  /** Per rank, the stages of a run of {@code deck} on 2 ranks with the device's backend. */
  private List<List<Stage>> run(String deck, boolean resident, String... settings)
      throws IOException {
    Path out = Files.createTempDirectory(dir, "traffic");
    List<List<Stage>> stages = List.of(new ArrayList<>(), new ArrayList<>());
    InProcessRun.run(2, inner -> {
      CountingCommunicator comm = new CountingCommunicator(inner);
      ParameterInput pin = ParameterInput.parse("det.in", deck, List.of(settings));
      DeviceTrace trace = new DeviceTrace(null);
      try (EmulatedDeviceBackend device = resident
          ? EmulatedDeviceBackend.resident(Fault.NONE, trace, true)
          : new EmulatedDeviceBackend(Fault.NONE, trace)) {
        KernelBackend sampled = new StageSampler(device, comm, stages.get(comm.rank()));
        AdvectionRuns.run(pin, out, comm, p -> InOneBoundaryCommunication.fromInput(p, sampled));
      }
    });
    return stages;
  }

  @Test
  void givenTheResidentStage_thenEachStageMovesAtMostTheMpiPayloadPlusTheFlags()
      throws IOException {
    List<List<Stage>> ranks = run(AdvectionDeterminismTest.DECK, true, SETTINGS);
    assertEquals(9, ranks.get(0).size(), "rk3, 3 cycles");
    assertEquals(2 * 6, StageSampler.assertBounded(ranks, SLACK));
  }

  @Test
  void givenOutflowAndReflectingFaces_thenTheConditionsAddNoTraffic() throws IOException {
    List<List<Stage>> ranks = run(AdvectionDeterminismTest.DECK, true,
        AdvectionResidentDeviceTest.concat(SETTINGS, AdvectionResidentDeviceTest.PHYSICAL_FACES));
    assertEquals(2 * 6, StageSampler.assertBounded(ranks, SLACK));
  }

  @Test
  void givenAdaptiveRefinement_thenStagesWithoutARemeshMoveAtMostThePayloadPlusTheTags()
      throws IOException {
    List<List<Stage>> ranks = run(AdvectionDeterminismTest.AMR_DECK, true, ADAPTIVE);
    assertEquals(32, ranks.get(0).size(), "rk2, 16 cycles");
    assertTrue(ranks.get(0).stream().anyMatch(Stage::remesh), "the deck remeshes");
    assertTrue(StageSampler.assertBounded(ranks, SLACK) >= 2 * 10, "most stages follow no remesh");
  }

  @Test
  void givenTheStepOneBackendThatCopiesArenas_thenTheBoundFails() throws IOException {
    List<List<Stage>> ranks = run(AdvectionDeterminismTest.DECK, false, SETTINGS);
    Stage st = ranks.get(0).get(4);
    System.out.println("step-1 backend, rank 0 " + st);
    assertTrue(st.toDevice() > ranks.get(1).get(4).sent() + SLACK, st.toString());
  }
}
