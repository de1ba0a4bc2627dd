package org.metope.kernels.tornado;

import java.util.Arrays;
import org.metope.kernels.table.BoundaryTable;
import org.metope.kernels.KernelKind;
import org.metope.kernels.body.StageLaunch;
import org.metope.kernels.body.TagLaunch;

/**
 * A data arena of the resident TornadoVM backend kept in device memory: one TornadoVM execution
 * plan whose task graphs share the arena's device buffer, a device buffer arena and the device
 * copies of the {@link LaunchTables}. TornadoVM 5.2 passes a device buffer from graph to graph
 * only inside one plan ({@code persistOnDevice}/{@code consumeFromDevice}, each graph taking the
 * buffers of the graph run before it, so every graph names all six), a plan's graphs are fixed
 * when it is made, each plan compiles its tasks again (its code cache is per plan), and a task's
 * scalar arguments are compiled into its kernel. So the plan ({@link ResidentPlan}) has a fixed
 * set of graphs, five that move arrays, one per kernel kind and one per package body ({@link
 * BodyGraphs}), whose tasks ({@link ResidentTasks}, or a body's launcher) read every size and
 * offset from the launch tables and a small {@code args} array sent at every execution, with the
 * thread counts set per launch. This class decides what runs and what crosses when: a launch not
 * seen before appends to the tables; the plan is made again (its kernels compiled again, the
 * arrays carried down and up, traced as {@code rebuild}) only when an array outgrows its capacity
 * or a package body is launched for the first time.
 *
 * <p>The plan's arena is a private array of a capacity ({@link #arena}), and the host arena is
 * copied into it before an upload and out of it after a download, so that the plan also outlives
 * the arena: after a remesh the new arena takes the old one's plan ({@link #adopt}). The device's
 * buffer arena is a private array too ({@link #shadow}): the communicator writes the host's
 * received slices at any time. Region transfers go through the staging array, packed on the
 * device (the cross-rank send slices after a load) or on the host (the received slices, unpacked
 * on the device before an unload).
 */
final class TornadoResident implements Residency.DeviceMemory {
  private final DeviceTrace trace;
  private final LaunchTables tables = new LaunchTables(this::carry);
  /** The package bodies launched so far, each a graph of the plan. */
  private final BodyGraphs bodies = new BodyGraphs();
  /** Per graph, the args it sends at every execution. */
  private int[][] args = new int[ResidentPlan.GRAPHS][LaunchTables.ARGS];
  private final double[] weights = new double[2];
  private double[] host;
  private double[] arena;
  private double[] buffers;
  private double[] shadow = new double[1];
  private ResidentPlan plan;
  private int made;
  /** Whether the device holds the plan's arrays (uploaded since the plan was made). */
  private boolean onDevice;
  /**
   * Whether {@link #arena} holds values the device has not got yet: an upload waits for the next
   * graph, so that the launch that follows it registers first and the plan is made with room
   * for it.
   */
  private boolean pending;

  TornadoResident(double[] host, DeviceTrace trace) {
    this.host = host;
    this.arena = new double[Math.max(1, host.length)];
    this.trace = trace;
  }

  /** The mesh changes: see {@link LaunchTables#expectGrowth}. */
  void expectGrowth() {
    tables.expectGrowth();
  }

  /** Plans made so far for this arena (1 unless an array outgrew its capacity). */
  int plansMade() {
    return made;
  }

  /**
   * Takes this plan for a new host arena (the old one's device values are forgotten): the plan
   * stays unless the arena outgrows the capacity.
   */
  void adopt(double[] newHost) {
    if (newHost.length > arena.length) {
      close();
      // a quarter more: the mesh changes, it may grow again
      arena = new double[newHost.length + newHost.length / 4];
      onDevice = false;
    }
    host = newHost;
    pending = false;
    bodies.forgetLaunches();
    tables.clear();
    tables.expectGrowth();
  }

  @Override
  public void upload(double[] from, int offset, int length) {
    whole(from, offset, length);
    System.arraycopy(host, 0, arena, 0, host.length);
    pending = true;
    extra(true, 8L * (arena.length - host.length));
  }

  @Override
  public void download(double[] to, int offset, int length) {
    whole(to, offset, length);
    run(ResidentPlan.DOWN_DATA);
    System.arraycopy(arena, 0, host, 0, host.length);
    extra(false, 8L * (arena.length - host.length));
  }

  @Override
  public void fill(double value) {
    throw new UnsupportedOperationException("the TornadoVM resident backend does not poison");
  }

  private void whole(double[] array, int offset, int length) {
    if (array != host || offset != 0 || length != host.length) {
      throw new IllegalStateException("TornadoVM moves whole arrays only: offset=" + offset
          + " length=" + length + " arenaLength=" + host.length);
    }
  }

  /** The bytes beyond the arena that a transfer of the arena's capacity also moves. */
  private void extra(boolean toDevice, long bytes) {
    if (bytes > 0) {
      if (toDevice) {
        trace.toDevice("arena capacity", bytes);
      } else {
        trace.toHost("arena capacity", bytes);
      }
    }
  }

  /** Frees the plan. */
  void close() {
    if (plan != null) {
      plan.close();
      plan = null;
    }
  }

  /** A boundary launch on the device arenas; the residency is held on the device side. */
  void boundary(KernelKind kind, BoundaryTable t, int[] subset, int count, double[] hostBuffers) {
    if (hostBuffers != null && hostBuffers != buffers) {
      useBuffers(hostBuffers);
    }
    LaunchTables.Boundary launch = tables.boundary(kind, t, subset, count);
    int g = ResidentPlan.graph(kind);
    System.arraycopy(launch.args(), 0, args[g], 0, LaunchTables.ARGS);
    int rows = Math.max(1, launch.args()[LaunchTables.ROWS]);
    int runs = Math.max(1, launch.runCount());
    if (kind == KernelKind.UNLOAD) {
      stageReceived(launch);
      size(g, 0, runs, 1, 1);
      size(g, 1, count, rows, 1);
    } else if (kind == KernelKind.LOAD) {
      size(g, 0, count, 1, 1);
      size(g, 1, count, rows, 1);
      size(g, 2, runs, 1, 1);
    } else {
      size(g, 0, count, rows, 1);
    }
    trace.toDevice("flags", 4L * tables.step.length + 4L * LaunchTables.ARGS);
    run(g);
    if (kind == KernelKind.LOAD) {
      unstageSent(t, launch);
    }
  }

  /**
   * A stage launch on the device arena; a reduction (a per-block minimum, maximum or sum) brings
   * back its results (one value per block).
   */
  void stage(StageLaunch launch, double w1, double w2) {
    int g = launch.runsPackageBody() ? bodyGraph(launch) : ResidentPlan.graph(launch.kind);
    System.arraycopy(tables.stage(launch), 0, args[g], 0, LaunchTables.ARGS);
    boolean rows = launch.writesArena(); // a reduction: one thread per entry
    size(g, 0, Math.max(1, launch.count), rows ? launch.maxK : 1, rows ? launch.maxJ : 1);
    weights[0] = w1;
    weights[1] = w2;
    trace.toDevice(launch.kind == StageLaunch.Kind.WEIGHTED_SUM ? "weights" : "args",
        launch.kind == StageLaunch.Kind.WEIGHTED_SUM ? 16 : 4L * LaunchTables.ARGS);
    run(g);
    if (!launch.writesArena()) {
      System.arraycopy(tables.results, 0, launch.results, 0, launch.count);
      trace.toHost("reduction", 8L * tables.results.length);
    }
  }

  /**
   * The graph of a package body's launch; a body not seen before gets one, and the plan is made
   * again around it.
   */
  private int bodyGraph(StageLaunch launch) {
    int n = bodies.graph(launch);
    if (n < 0) {
      carry(() -> {
        bodies.add(launch);
        args = Arrays.copyOf(args, ResidentPlan.GRAPHS + bodies.size());
        args[args.length - 1] = new int[LaunchTables.ARGS];
      });
      n = bodies.graph(launch);
    }
    return ResidentPlan.GRAPHS + n;
  }

  /** Ranges or box measures on the device arena; only their results come back. */
  void measure(TagLaunch launch) {
    int g = ResidentPlan.graph(launch.kind);
    System.arraycopy(tables.tag(launch), 0, args[g], 0, LaunchTables.ARGS);
    size(g, 0, Math.max(1, launch.count), 1, 1);
    trace.toDevice("args", 4L * LaunchTables.ARGS);
    run(g);
    System.arraycopy(tables.results, 0, launch.results, 0, launch.count * launch.kind.results);
    trace.toHost("tags", 8L * tables.results.length);
  }

  /** Copies the flags and the send region of a load back into place on the host. */
  private void unstageSent(BoundaryTable t, LaunchTables.Boundary launch) {
    int[] flags = tables.flags;
    for (int e = 0; e < launch.count(); e++) {
      t.nonzero[launch.subset()[e]] = flags[e];
    }
    trace.toHost("flags", 4L * flags.length);
    int[] runs = launch.runs();
    int q0 = launch.runCount();
    for (int q = 0; q < q0; q++) {
      System.arraycopy(tables.sent, runs[WrittenRegions.STAGING * q0 + q], buffers,
          runs[WrittenRegions.START * q0 + q], runs[WrittenRegions.LENGTH * q0 + q]);
    }
    trace.toHost("send region", 8L * tables.sent.length);
  }

  /** Packs the received region of an unload from the host's buffer arena. */
  private void stageReceived(LaunchTables.Boundary launch) {
    int[] runs = launch.runs();
    int q0 = launch.runCount();
    for (int q = 0; q < q0; q++) {
      System.arraycopy(buffers, runs[WrittenRegions.START * q0 + q], tables.received,
          runs[WrittenRegions.STAGING * q0 + q], runs[WrittenRegions.LENGTH * q0 + q]);
    }
    trace.toDevice("received region", 8L * tables.received.length);
  }

  /** A new buffer arena: its device copy starts empty (its slices are written before read). */
  private void useBuffers(double[] hostBuffers) {
    if (hostBuffers.length <= shadow.length) {
      buffers = hostBuffers;
      tables.clear();
      return;
    }
    carry(() -> {
      buffers = hostBuffers;
      shadow = new double[hostBuffers.length + hostBuffers.length / 4];
      tables.clear();
    });
  }

  /** Makes the plan again around {@code change}, carrying the device's arrays across. */
  private void carry(Runnable change) {
    boolean carried = onDevice && plan != null;
    if (carried) {
      // a pending upload goes first, so the arena comes back as it went
      run(ResidentPlan.DOWN_ALL);
      trace.toHost("rebuild", 8L * (arena.length + shadow.length));
    }
    close();
    double[] oldShadow = shadow;
    change.run();
    if (shadow != oldShadow) {
      System.arraycopy(oldShadow, 0, shadow, 0, Math.min(oldShadow.length, shadow.length));
    }
    onDevice = false;
    if (carried) {
      pending = true; // up again with the next graph, into the new plan
      trace.toDevice("rebuild", 8L * (arena.length + shadow.length) + tables.tableBytes());
    }
  }

  /** Sets the global size of task {@code task} of graph {@code g} (idle threads past a bound). */
  private void size(int g, int task, int x, int y, int z) {
    built();
    plan.size(g, task, x, y, z);
  }

  private void built() {
    if (plan == null) {
      made++;
      trace.planMade();
      plan = new ResidentPlan(tables, arena, shadow, args, weights, bodies);
    }
  }

  /** Runs graph {@code g}, a pending upload first and then the tables if they changed. */
  private void run(int g) {
    built();
    if (pending) {
      pending = false;
      if (onDevice) {
        plan.execute(ResidentPlan.UP_DATA);
      } else {
        plan.execute(ResidentPlan.UP_ALL);
        tables.uploaded();
        onDevice = true;
      }
    }
    if (g >= ResidentPlan.LOAD && tables.dirty()) {
      plan.execute(ResidentPlan.UP_TABLES);
      tables.uploaded();
      trace.toDevice("tables", tables.tableBytes());
    }
    plan.execute(g);
  }
}
