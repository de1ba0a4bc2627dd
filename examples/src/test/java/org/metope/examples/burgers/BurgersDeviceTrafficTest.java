package org.metope.examples.burgers;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.app.Application;
import org.metope.app.Simulation;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessRun;
import org.metope.driver.Driver;
import org.metope.driver.ProblemGenerator;
import org.metope.examples.advection.StageSampler;
import org.metope.examples.advection.StageSampler.Stage;
import org.metope.examples.sparseadvection.CountingCommunicator;
import org.metope.kernels.tornado.DeviceTrace;
import org.metope.kernels.tornado.EmulatedDeviceBackend;
import org.metope.kernels.tornado.EmulatedDeviceBackend.Fault;
import org.metope.mesh.field.Packages;
import org.metope.mesh.input.ParameterInput;

/**
 * What crosses between host and device per stage when the burgers stage is resident on the
 * (emulated) device, against the MPI payload of the same stage: on 2 ranks of the 32^3 burgers
 * deck (uniform, WENO5, 2 scalars), after the first cycle, each stage sends to the host at most
 * what the rank sends by MPI, and to the device at most what the other rank sends it, each plus
 * {@link #SLACK} bytes (per-boundary flags, the weights, one smallest step per block). The
 * negative control runs the same deck with the flux function on the host only (no launches), as
 * burgers ran before: its fluxes acquire the arena, which then crosses whole in every stage.
 */
class BurgersDeviceTrafficTest {
  /** Bytes per stage and direction allowed beyond the MPI payload. */
  private static final long SLACK = 8192;
  private static final String[] SETTINGS = {"parthenon/mesh/refinement=none",
      "parthenon/time/nlim=3", "parthenon/output1/dt=1.0", "parthenon/mesh/pack_size=8",
      "metope/threads=2"};

  @TempDir Path dir;

  /** Per rank, the stages of a 2-rank run of {@code application} on the resident emulation. */
  private List<List<Stage>> run(Application application) throws IOException {
    Path out = Files.createTempDirectory(dir, "traffic");
    List<List<Stage>> stages = List.of(new ArrayList<>(), new ArrayList<>());
    InProcessRun.run(2, inner -> {
      CountingCommunicator comm = new CountingCommunicator(inner);
      ParameterInput pin = ParameterInput.parse("det.in", BurgersDeterminismTest.DECK,
          List.of(SETTINGS));
      DeviceTrace trace = new DeviceTrace(null);
      try (EmulatedDeviceBackend device = EmulatedDeviceBackend.resident(Fault.NONE, trace,
          true)) {
        StageSampler sampled = new StageSampler(device, comm, stages.get(comm.rank()));
        BurgersRuns.run(application, pin, out, comm,
            p -> InOneBoundaryCommunication.fromInput(p, sampled));
      }
    });
    return stages;
  }

  @Test
  void givenTheResidentStage_thenEachStageMovesAtMostTheMpiPayloadPlusAFewKilobytes()
      throws IOException {
    StageSampler.assertWithinPayload(run(new BurgersApplication()), 6, SLACK);
  }

  @Test
  void givenFluxesOnTheHost_thenTheWholeArenaCrossesAndTheBoundFails() throws IOException {
    List<List<Stage>> ranks = run(new HostFluxes());
    Stage st = ranks.get(0).get(3);
    System.out.println("fluxes on the host, rank 0 " + st);
    assertTrue(st.toDevice() > ranks.get(1).get(3).sent() + SLACK, st.toString());
    assertTrue(st.toHost() > st.sent() + SLACK, st.toString());
  }

  /** Parthenon-VIBE with a flux function that has no launches: its fluxes run on the host. */
  private static final class HostFluxes implements Application {
    private final BurgersApplication burgers = new BurgersApplication();

    @Override
    public String name() {
      return burgers.name();
    }

    @Override
    public String deckBlock() {
      return burgers.deckBlock();
    }

    @Override
    public String description() {
      return burgers.description();
    }

    @Override
    public Packages processPackages(ParameterInput pin) {
      Packages packages = burgers.processPackages(pin);
      packages.get(BurgersPackage.NAME).setCalculateFluxes(BurgersFluxes::calculateFluxes);
      return packages;
    }

    @Override
    public ProblemGenerator problemGenerator(Packages packages) {
      return burgers.problemGenerator(packages);
    }

    @Override
    public Driver makeDriver(Simulation sim) {
      return burgers.makeDriver(sim);
    }
  }
}
