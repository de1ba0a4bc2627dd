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
import org.metope.comm.InProcessCluster;
import org.metope.examples.sparseadvection.CountingCommunicator;
import org.metope.kernels.BoundaryTable;
import org.metope.kernels.KernelBackend;
import org.metope.kernels.KernelKind;
import org.metope.kernels.StageLaunch;
import org.metope.kernels.TagLaunch;
import org.metope.kernels.tornado.DeviceBackend;
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

  /**
   * One stage on one rank: bytes to the device and to the host, and sent by MPI; {@code remesh}
   * when a remesh came before the stage in its cycle (it copies the arena in full, and the new
   * layout's tables cross once).
   */
  private record Stage(int cycle, long toDevice, long toHost, long sent, boolean remesh) {}

  /** Per rank, the stages of a run of {@code deck} on 2 ranks with the device's backend. */
  private List<List<Stage>> run(String deck, boolean resident, String... settings)
      throws IOException {
    Path out = Files.createTempDirectory(dir, "traffic");
    List<List<Stage>> stages = List.of(new ArrayList<>(), new ArrayList<>());
    InProcessCluster.run(2, inner -> {
      CountingCommunicator comm = new CountingCommunicator(inner);
      ParameterInput pin = ParameterInput.parse("det.in", deck, List.of(settings));
      DeviceTrace trace = new DeviceTrace(null);
      try (EmulatedDeviceBackend device = resident
          ? EmulatedDeviceBackend.resident(Fault.NONE, trace, true)
          : new EmulatedDeviceBackend(Fault.NONE, trace)) {
        KernelBackend sampled = new Sampler(device, comm, stages.get(comm.rank()));
        AdvectionRuns.run(pin, out, comm, p -> InOneBoundaryCommunication.fromInput(p, sampled));
      }
    });
    return stages;
  }

  /**
   * Asserts the bound on every stage after the first cycle that no remesh preceded in its cycle;
   * returns how many stages it checked.
   */
  private static int assertBounded(List<List<Stage>> ranks) {
    int checked = 0;
    for (int r = 0; r < 2; r++) {
      List<Stage> mine = ranks.get(r);
      List<Stage> peer = ranks.get(1 - r);
      assertEquals(peer.size(), mine.size());
      for (int s = 0; s < mine.size(); s++) {
        Stage st = mine.get(s);
        System.out.println("rank " + r + " " + st + " peer sent " + peer.get(s).sent());
        assertTrue(st.sent() > 0, "the deck sends between ranks in every stage");
        if (st.cycle() == 0 || st.remesh() || peer.get(s).remesh()) {
          continue;
        }
        assertTrue(st.toHost() <= st.sent() + SLACK, "rank " + r + " " + st);
        assertTrue(st.toDevice() <= peer.get(s).sent() + SLACK, "rank " + r + " " + st);
        checked++;
      }
    }
    return checked;
  }

  @Test
  void givenTheResidentStage_thenEachStageMovesAtMostTheMpiPayloadPlusTheFlags()
      throws IOException {
    List<List<Stage>> ranks = run(AdvectionDeterminismTest.DECK, true, SETTINGS);
    assertEquals(9, ranks.get(0).size(), "rk3, 3 cycles");
    assertEquals(2 * 6, assertBounded(ranks));
  }

  @Test
  void givenOutflowAndReflectingFaces_thenTheConditionsAddNoTraffic() throws IOException {
    List<List<Stage>> ranks = run(AdvectionDeterminismTest.DECK, true,
        AdvectionResidentDeviceTest.concat(SETTINGS, AdvectionResidentDeviceTest.PHYSICAL_FACES));
    assertEquals(2 * 6, assertBounded(ranks));
  }

  @Test
  void givenAdaptiveRefinement_thenStagesWithoutARemeshMoveAtMostThePayloadPlusTheTags()
      throws IOException {
    List<List<Stage>> ranks = run(AdvectionDeterminismTest.AMR_DECK, true, ADAPTIVE);
    assertEquals(32, ranks.get(0).size(), "rk2, 16 cycles");
    assertTrue(ranks.get(0).stream().anyMatch(Stage::remesh), "the deck remeshes");
    assertTrue(assertBounded(ranks) >= 2 * 10, "most stages follow no remesh");
  }

  @Test
  void givenTheStepOneBackendThatCopiesArenas_thenTheBoundFails() throws IOException {
    List<List<Stage>> ranks = run(AdvectionDeterminismTest.DECK, false, SETTINGS);
    Stage st = ranks.get(0).get(4);
    System.out.println("step-1 backend, rank 0 " + st);
    assertTrue(st.toDevice() > ranks.get(1).get(4).sent() + SLACK, st.toString());
  }


  /** Hands every call to a device backend and records each stage's counts when it ends. */
  private static final class Sampler implements KernelBackend {
    private final DeviceBackend device;
    private final CountingCommunicator comm;
    private final List<Stage> stages;
    private long sentBefore;
    /** The cycle in which a remesh happened (it runs between cycles), or -1. */
    private int remeshed = -1;
    private boolean pendingRemesh;

    Sampler(DeviceBackend device, CountingCommunicator comm, List<Stage> stages) {
      this.device = device;
      this.comm = comm;
      this.stages = stages;
    }

    @Override
    public void endStage(int cycle, int stage) {
      long sent = comm.bytes();
      if (pendingRemesh) {
        remeshed = cycle;
        pendingRemesh = false;
      }
      stages.add(new Stage(cycle, device.trace().stageToDevice(), device.trace().stageToHost(),
          sent - sentBefore, cycle == remeshed));
      sentBefore = sent;
      device.endStage(cycle, stage);
    }

    @Override
    public String name() {
      return device.name();
    }

    @Override
    public int threads() {
      return device.threads();
    }

    @Override
    public void load(BoundaryTable t, int[] subset, int count, double[] data, double[] buffers) {
      device.load(t, subset, count, data, buffers);
    }

    @Override
    public void unload(BoundaryTable t, int[] subset, int count, double[] data,
        double[] buffers) {
      device.unload(t, subset, count, data, buffers);
    }

    @Override
    public void prolongate(BoundaryTable t, int[] subset, int count, double[] data) {
      device.prolongate(t, subset, count, data);
    }

    @Override
    public void restrictBlocks(BoundaryTable t, int[] subset, int count, double[] data) {
      device.restrictBlocks(t, subset, count, data);
    }

    @Override
    public void prepare(BoundaryTable t, double[] data, double[] buffers) {
      device.prepare(t, data, buffers);
    }

    @Override
    public void release(BoundaryTable t) {
      device.release(t);
    }

    @Override
    public boolean resident() {
      return device.resident();
    }

    @Override
    public void acquireHost(double[] arena, boolean write) {
      device.acquireHost(arena, write);
    }

    @Override
    public void releaseHost(double[] arena) {
      device.releaseHost(arena);
    }

    @Override
    public void releaseArena(double[] arena) {
      pendingRemesh = true;
      device.releaseArena(arena);
    }

    @Override
    public void stage(StageLaunch launch, double[] arena, double w1, double w2) {
      device.stage(launch, arena, w1, w2);
    }

    @Override
    public void measure(TagLaunch launch, double[] arena) {
      device.measure(launch, arena);
    }

    @Override
    public long launches(KernelKind kind) {
      return device.launches(kind);
    }

    @Override
    public void close() {
      // the device is closed by its owner
    }
  }
}
