package org.metope.kernels.tornado;

import java.util.ArrayList;
import java.util.List;
import org.metope.kernels.BoundaryTable;
import org.metope.kernels.KernelKind;
import org.metope.kernels.StageLaunch;
import org.metope.kernels.TagLaunch;
import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.ImmutableTaskGraph;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.WorkerGrid;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.WorkerGrid2D;
import uk.ac.manchester.tornado.api.WorkerGrid3D;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;
import uk.ac.manchester.tornado.api.exceptions.TornadoExecutionPlanException;

/**
 * A data arena of the resident TornadoVM backend kept in device memory: one TornadoVM execution
 * plan whose task graphs share the arena's device buffer, a device buffer arena and the device
 * copies of the {@link LaunchTables}. TornadoVM 5.2 passes a device buffer from graph to graph
 * only inside one plan ({@code persistOnDevice}/{@code consumeFromDevice}, each graph taking the
 * buffers of the graph run before it, so every graph names all six), a plan's graphs are fixed
 * when it is made, each plan compiles its tasks again (its code cache is per plan), and a task's
 * scalar arguments are compiled into its kernel. So the plan has a fixed set of graphs, five that
 * move arrays and one per kernel kind, whose tasks ({@link ResidentTasks}) read every size and
 * offset from the launch tables and a small {@code args} array sent at every execution, with the
 * thread counts set per launch through a {@link GridScheduler}. A launch not seen before appends
 * to the tables; the plan is made again (its kernels compiled again, the arrays carried down and
 * up, traced as {@code rebuild}) only when an array outgrows its capacity.
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
  private static final int UP_ALL = 0;
  private static final int UP_DATA = 1;
  private static final int UP_TABLES = 2;
  private static final int DOWN_ALL = 3;
  private static final int DOWN_DATA = 4;
  private static final int LOAD = 5;
  private static final int UNLOAD = 6;
  private static final int PROLONGATE = 7;
  private static final int RESTRICT = 8;
  private static final int DONOR_CELL = 9;
  private static final int DONOR_CELL_FIELD = 10;
  private static final int DIVERGENCE = 11;
  private static final int WEIGHTED_SUM = 12;
  private static final int PHYSICAL_BOUNDARY = 13;
  private static final int MIN_MAX = 14;
  private static final int BURGERS_FLUX = 15;
  private static final int BURGERS_DERIVED = 16;
  private static final int SMALLEST_STEP = 17;
  private static final int BOX = 18;
  private static final int GRAPHS = 19;
  private static int plans;

  private final DeviceTrace trace;
  private final LaunchTables tables = new LaunchTables(this::carry);
  /** Per graph, the args it sends at every execution. */
  private final int[][] args = new int[GRAPHS][LaunchTables.ARGS];
  /** Per graph, the worker grid of each of its tasks (set per launch). */
  private final List<List<WorkerGrid>> grids = new ArrayList<>();
  private final double[] weights = new double[2];
  private double[] host;
  private double[] arena;
  private double[] buffers;
  private double[] shadow = new double[1];
  private TornadoExecutionPlan plan;
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
    built();
    run(DOWN_DATA);
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
      try {
        plan.close();
      } catch (TornadoExecutionPlanException e) {
        throw new IllegalStateException("closing a TornadoVM execution plan failed: " + e, e);
      }
      plan = null;
    }
  }

  /** A boundary launch on the device arenas; the residency is held on the device side. */
  void boundary(KernelKind kind, BoundaryTable t, int[] subset, int count, double[] hostBuffers) {
    if (hostBuffers != null && hostBuffers != buffers) {
      useBuffers(hostBuffers);
    }
    LaunchTables.Boundary launch = tables.boundary(kind, t, subset, count);
    int g = switch (kind) {
      case LOAD -> LOAD;
      case UNLOAD -> UNLOAD;
      case PROLONGATE -> PROLONGATE;
      case RESTRICT -> RESTRICT;
      default -> throw new IllegalStateException("unknown kernel kind: kind=" + kind);
    };
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
   * A stage launch on the device arena; a smallest step brings back its results (one value per
   * block).
   */
  void stage(StageLaunch launch, double w1, double w2) {
    int g = switch (launch.kind) {
      case DONOR_CELL_CONSTANT -> DONOR_CELL;
      case DONOR_CELL_FIELD -> DONOR_CELL_FIELD;
      case DIVERGENCE -> DIVERGENCE;
      case WEIGHTED_SUM -> WEIGHTED_SUM;
      case PHYSICAL_BOUNDARY -> PHYSICAL_BOUNDARY;
      case BURGERS_FLUX -> BURGERS_FLUX;
      case BURGERS_DERIVED -> BURGERS_DERIVED;
      case SMALLEST_STEP -> SMALLEST_STEP;
      default -> throw new IllegalStateException("unknown stage kind: " + launch.kind);
    };
    System.arraycopy(tables.stage(launch), 0, args[g], 0, LaunchTables.ARGS);
    size(g, 0, Math.max(1, launch.count), launch.maxK, launch.maxJ);
    weights[0] = w1;
    weights[1] = w2;
    trace.toDevice(launch.kind == StageLaunch.Kind.WEIGHTED_SUM ? "weights" : "args",
        launch.kind == StageLaunch.Kind.WEIGHTED_SUM ? 16 : 4L * LaunchTables.ARGS);
    run(g);
    if (!launch.writesArena()) {
      System.arraycopy(tables.results, 0, launch.results, 0, launch.count);
      trace.toHost("minimum", 8L * tables.results.length);
    }
  }

  /** Ranges or box measures on the device arena; only their results come back. */
  void measure(TagLaunch launch) {
    int g = launch.kind == TagLaunch.Kind.MIN_MAX ? MIN_MAX : BOX;
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
      run(DOWN_ALL); // a pending upload goes first, so the arena comes back as it went
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
    grids.get(g).get(task).setGlobalWork(x, y, z);
  }

  private void built() {
    if (plan != null) {
      return;
    }
    int id = plans++;
    made++;
    trace.planMade();
    grids.clear();
    List<TaskGraph> all = new ArrayList<>();
    GridScheduler scheduler = new GridScheduler();
    for (int g = 0; g < GRAPHS; g++) {
      String name = "resident" + id + "g" + g;
      TaskGraph tg = new TaskGraph(name);
      List<WorkerGrid> tasks = new ArrayList<>();
      declare(g, tg, tasks, name, scheduler);
      all.add(tg);
      grids.add(tasks);
    }
    plan = new TornadoExecutionPlan(all.stream().map(TaskGraph::snapshot)
        .toArray(ImmutableTaskGraph[]::new));
    plan.withCompilerFlags(TornadoVMBackendType.OPENCL, TornadoKernelBackend.OPENCL_FLAGS);
    plan.withGridScheduler(scheduler);
  }

  /** Graph {@code g}'s transfers and tasks, each task's worker grid added to {@code tasks}. */
  private void declare(int g, TaskGraph tg, List<WorkerGrid> tasks, String name,
      GridScheduler scheduler) {
    if (g < LOAD) {
      declareMover(g, tg);
    } else {
      tg.consumeFromDevice(persistent());
      declareKernel(g, tg, tasks, name, scheduler);
    }
  }

  /** The arrays every graph names, so that their device buffers pass from graph to graph. */
  private Object[] persistent() {
    LaunchTables l = tables;
    return new Object[] {arena, shadow, l.ints, l.reals, l.launches, l.launchReals};
  }

  /** A graph that only moves arrays: up (and keeps them there) or down. */
  private void declareMover(int g, TaskGraph tg) {
    LaunchTables l = tables;
    double[] a = arena;
    double[] s = shadow;
    Object[] all = persistent();
    int every = DataTransferMode.EVERY_EXECUTION;
    switch (g) {
      case UP_ALL -> tg.transferToDevice(every, all);
      case UP_DATA -> tg.consumeFromDevice(s, l.ints, l.reals, l.launches, l.launchReals)
          .transferToDevice(every, a);
      case UP_TABLES -> tg.consumeFromDevice(a, s)
          .transferToDevice(every, l.ints, l.reals, l.launches, l.launchReals);
      default -> tg.consumeFromDevice(all);
    }
    tg.task("keep", ResidentTasks::keep, a, s, l.ints, l.reals, l.launches, l.launchReals);
    if (g == DOWN_ALL) {
      tg.transferToHost(every, a, s);
    } else if (g == DOWN_DATA) {
      tg.transferToHost(every, a);
    } else {
      tg.persistOnDevice(all);
    }
  }

  /** The graph of one kernel kind: its args (and per-launch arrays) over, its tasks. */
  private void declareKernel(int g, TaskGraph tg, List<WorkerGrid> tasks, String name,
      GridScheduler scheduler) {
    LaunchTables l = tables;
    double[] a = arena;
    double[] s = shadow;
    int every = DataTransferMode.EVERY_EXECUTION;
    int[] arg = args[g];
    switch (g) {
      case LOAD -> {
        tg.transferToDevice(every, arg, l.step);
        tg.task("clear", ResidentTasks::clearFlags, arg, l.flags);
        tg.task("load", ResidentTasks::load, arg, l.launches, l.ints, l.reals, l.step, l.flags,
            a, s);
        tg.task("gather", ResidentTasks::gather, arg, l.launches, s, l.sent);
        tg.transferToHost(every, l.flags, l.sent);
        grid(tasks, scheduler, name, "clear", new WorkerGrid1D(1));
        grid(tasks, scheduler, name, "load", new WorkerGrid2D(1, 1));
        grid(tasks, scheduler, name, "gather", new WorkerGrid1D(1));
      }
      case UNLOAD -> {
        tg.transferToDevice(every, arg, l.step, l.received);
        tg.task("scatter", ResidentTasks::scatter, arg, l.launches, l.received, s);
        tg.task("unload", ResidentTasks::unload, arg, l.launches, l.ints, l.reals, l.step, a, s);
        grid(tasks, scheduler, name, "scatter", new WorkerGrid1D(1));
        grid(tasks, scheduler, name, "unload", new WorkerGrid2D(1, 1));
      }
      case PROLONGATE, RESTRICT -> {
        tg.transferToDevice(every, arg, l.step);
        if (g == PROLONGATE) {
          tg.task("prolongate", ResidentTasks::prolongate, arg, l.launches, l.ints, l.reals,
              l.step, a);
        } else {
          tg.task("restrictRows", ResidentTasks::restrictRows, arg, l.launches, l.ints,
              l.reals, l.step, a);
        }
        grid(tasks, scheduler, name, g == PROLONGATE ? "prolongate" : "restrictRows",
            new WorkerGrid2D(1, 1));
      }
      case DONOR_CELL -> {
        tg.transferToDevice(every, arg);
        tg.task("donorCell", ResidentTasks::donorCellConstant, arg, l.launches, l.launchReals,
            a);
        grid(tasks, scheduler, name, "donorCell", new WorkerGrid2D(1, 1));
      }
      case DONOR_CELL_FIELD -> {
        tg.transferToDevice(every, arg);
        tg.task("donorCellField", ResidentTasks::donorCellField, arg, l.launches, a);
        grid(tasks, scheduler, name, "donorCellField", new WorkerGrid3D(1, 1, 1));
      }
      case DIVERGENCE -> {
        tg.transferToDevice(every, arg);
        tg.task("divergence", ResidentTasks::divergence, arg, l.launches, l.launchReals, a);
        grid(tasks, scheduler, name, "divergence", new WorkerGrid3D(1, 1, 1));
      }
      case WEIGHTED_SUM -> {
        tg.transferToDevice(every, arg, weights);
        tg.task("weightedSum", ResidentTasks::weightedSum, arg, l.launches, weights, a);
        grid(tasks, scheduler, name, "weightedSum", new WorkerGrid1D(1));
      }
      case PHYSICAL_BOUNDARY -> {
        tg.transferToDevice(every, arg);
        tg.task("physicalBoundary", ResidentTasks::physicalBoundary, arg, l.launches, a);
        grid(tasks, scheduler, name, "physicalBoundary", new WorkerGrid1D(1));
      }
      case BURGERS_FLUX -> {
        tg.transferToDevice(every, arg);
        tg.task("burgersFluxes", ResidentTasks::burgersFluxes, arg, l.launches, a);
        grid(tasks, scheduler, name, "burgersFluxes", new WorkerGrid3D(1, 1, 1));
      }
      case BURGERS_DERIVED -> {
        tg.transferToDevice(every, arg);
        tg.task("burgersDerived", ResidentTasks::burgersDerived, arg, l.launches, a);
        grid(tasks, scheduler, name, "burgersDerived", new WorkerGrid3D(1, 1, 1));
      }
      case SMALLEST_STEP -> {
        tg.transferToDevice(every, arg);
        tg.task("smallestSteps", ResidentTasks::smallestSteps, arg, l.launches, l.launchReals, a,
            l.results);
        tg.transferToHost(every, l.results);
        grid(tasks, scheduler, name, "smallestSteps", new WorkerGrid1D(1));
      }
      case MIN_MAX -> {
        tg.transferToDevice(every, arg);
        tg.task("minMax", ResidentTasks::minMax, arg, l.launches, a, l.results);
        tg.transferToHost(every, l.results);
        grid(tasks, scheduler, name, "minMax", new WorkerGrid1D(1));
      }
      case BOX -> {
        tg.transferToDevice(every, arg);
        tg.task("box", ResidentTasks::box, arg, l.launches, a, l.results);
        tg.transferToHost(every, l.results);
        grid(tasks, scheduler, name, "box", new WorkerGrid1D(1));
      }
      default -> throw new IllegalStateException("unknown graph: " + g);
    }
  }

  private static void grid(List<WorkerGrid> tasks, GridScheduler scheduler, String graph,
      String task, WorkerGrid grid) {
    grid.setLocalWorkToNull();
    scheduler.addWorkerGrid(graph + "." + task, grid);
    tasks.add(grid);
  }

  /** Runs graph {@code g}, a pending upload first and then the tables if they changed. */
  private void run(int g) {
    built();
    if (pending) {
      pending = false;
      if (onDevice) {
        plan.withGraph(UP_DATA).execute();
      } else {
        plan.withGraph(UP_ALL).execute();
        tables.uploaded();
        onDevice = true;
      }
    }
    if (g >= LOAD && tables.dirty()) {
      plan.withGraph(UP_TABLES).execute();
      tables.uploaded();
      trace.toDevice("tables", tables.tableBytes());
    }
    plan.withGraph(g).execute();
  }
}
