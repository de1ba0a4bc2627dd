package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.metope.examples.sparseadvection.CountingCommunicator;
import org.metope.kernels.table.BoundaryTable;
import org.metope.kernels.KernelBackend;
import org.metope.kernels.KernelKind;
import org.metope.kernels.body.StageLaunch;
import org.metope.kernels.body.TagLaunch;
import org.metope.kernels.tornado.DeviceBackend;

/**
 * A kernel backend for traffic tests: hands every call to a device backend and, when a stage
 * ends, records what crossed between host and device in it (the device's trace) and what the rank
 * sent by MPI (a {@link CountingCommunicator}), and whether a remesh came before the stage in its
 * cycle (a remesh copies the arena in full, and the new layout's tables cross once).
 */
public final class StageSampler implements KernelBackend {
  /**
   * One stage on one rank: bytes to the device and to the host, and sent by MPI; {@code remesh}
   * when a remesh came before the stage in its cycle.
   */
  public record Stage(int cycle, long toDevice, long toHost, long sent, boolean remesh) {}

  private final DeviceBackend device;
  private final CountingCommunicator comm;
  private final List<Stage> stages;
  private long sentBefore;
  /** The cycle in which a remesh happened (it runs between cycles), or -1. */
  private int remeshed = -1;
  private boolean pendingRemesh;

  public StageSampler(DeviceBackend device, CountingCommunicator comm, List<Stage> stages) {
    this.device = device;
    this.comm = comm;
    this.stages = stages;
  }

  /**
   * Asserts, for the stages of two ranks ({@code ranks.get(r)}, {@code expected} each), that
   * every stage sends between the ranks and that every stage after cycle 0 sends to the host at
   * most what its rank sent by MPI and to the device at most what the other rank sent, each plus
   * {@code slack} bytes; prints every stage.
   */
  public static void assertWithinPayload(List<List<Stage>> ranks, int expected, long slack) {
    assertEquals(expected, ranks.get(0).size(), "stages of rank 0");
    assertEquals(expected - countFirstCycle(ranks.get(0)), assertBounded(ranks, slack) / 2,
        "no stage after cycle 0 follows a remesh");
  }

  /**
   * Asserts the bound of {@link #assertWithinPayload} on every stage after cycle 0 that no remesh
   * preceded in its cycle (on either rank); returns how many stages of both ranks it checked.
   */
  public static int assertBounded(List<List<Stage>> ranks, long slack) {
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
        assertTrue(st.toHost() <= st.sent() + slack, "rank " + r + " " + st);
        assertTrue(st.toDevice() <= peer.get(s).sent() + slack, "rank " + r + " " + st);
        checked++;
      }
    }
    return checked;
  }

  private static int countFirstCycle(List<Stage> stages) {
    return (int) stages.stream().filter(st -> st.cycle() == 0).count();
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
