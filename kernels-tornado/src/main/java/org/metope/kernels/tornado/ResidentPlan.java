package org.metope.kernels.tornado;

import java.util.ArrayList;
import java.util.List;
import org.metope.kernels.KernelKind;
import org.metope.kernels.body.StageLaunch;
import org.metope.kernels.body.TagLaunch;
import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.ImmutableTaskGraph;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.WorkerGrid;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.WorkerGrid2D;
import uk.ac.manchester.tornado.api.WorkerGrid3D;
import uk.ac.manchester.tornado.api.common.TornadoFunctions;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;
import uk.ac.manchester.tornado.api.exceptions.TornadoExecutionPlanException;

/**
 * The TornadoVM execution plan of a {@link TornadoResident}: what its fixed graphs are, made
 * once over the arrays it is given. Graphs {@link #UP_ALL} to {@link #DOWN_DATA} only move
 * arrays; each of the others up to {@link #GRAPHS} runs the {@link ResidentTasks} of one kernel
 * kind, and graph {@code GRAPHS + n} runs package body n's launcher ({@link BodyGraphs}). Every graph names
 * the six arrays that stay on the device (the arena, the device's buffer arena and the four launch
 * tables), taking their device buffers from the graph run before it; a kernel graph sends its
 * {@code args} (and a load's or unload's per-step arrays, a weighted sum's weights) at every
 * execution, and brings back only what the host needs (a load's flags and send region, the
 * results of a measure). Each task's thread counts are set per launch
 * ({@link #size}) through one {@link GridScheduler}. The arrays are fixed for the plan's life:
 * when one must be replaced, the owner closes this plan and makes another.
 */
final class ResidentPlan implements AutoCloseable {
  static final int UP_ALL = 0;
  static final int UP_DATA = 1;
  static final int UP_TABLES = 2;
  static final int DOWN_ALL = 3;
  static final int DOWN_DATA = 4;
  static final int LOAD = 5;
  static final int UNLOAD = 6;
  static final int PROLONGATE = 7;
  static final int RESTRICT = 8;
  static final int DIVERGENCE = 9;
  static final int WEIGHTED_SUM = 10;
  static final int PHYSICAL_BOUNDARY = 11;
  static final int MIN_MAX = 12;
  static final int BOX = 13;
  /** The framework's graphs; the package bodies' follow. */
  static final int GRAPHS = 14;
  /** Plans made in this JVM, for unique graph names. */
  private static int plans;

  private final LaunchTables tables;
  private final double[] arena;
  private final double[] shadow;
  private final int[][] args;
  private final double[] weights;
  private final BodyGraphs bodies;
  /** Per graph, the worker grid of each of its tasks (set per launch). */
  private final List<List<WorkerGrid>> grids = new ArrayList<>();
  private final TornadoExecutionPlan plan;

  /**
   * The plan over {@code arena}, the device's buffer arena {@code shadow} and {@code tables}'
   * arrays as they are now, graph g sending {@code args[g]}, the weighted sum {@code weights},
   * a graph per body of {@code bodies}.
   */
  ResidentPlan(LaunchTables tables, double[] arena, double[] shadow, int[][] args,
      double[] weights, BodyGraphs bodies) {
    this.tables = tables;
    this.arena = arena;
    this.shadow = shadow;
    this.args = args;
    this.weights = weights;
    this.bodies = bodies;
    int id = nextId();
    List<TaskGraph> all = new ArrayList<>();
    GridScheduler scheduler = new GridScheduler();
    for (int g = 0; g < GRAPHS + bodies.size(); g++) {
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

  private static synchronized int nextId() {
    return plans++;
  }

  /** The graph of boundary kernel {@code kind}. */
  static int graph(KernelKind kind) {
    return switch (kind) {
      case LOAD -> LOAD;
      case UNLOAD -> UNLOAD;
      case PROLONGATE -> PROLONGATE;
      case RESTRICT -> RESTRICT;
      default -> throw new IllegalStateException("unknown kernel kind: kind=" + kind);
    };
  }

  /** The graph of stage launch kind {@code kind}. */
  static int graph(StageLaunch.Kind kind) {
    return switch (kind) {
      case DIVERGENCE -> DIVERGENCE;
      case WEIGHTED_SUM -> WEIGHTED_SUM;
      case PHYSICAL_BOUNDARY -> PHYSICAL_BOUNDARY;
      default -> throw new IllegalStateException("unknown stage kind: " + kind);
    };
  }

  /** The graph of tag launch kind {@code kind}. */
  static int graph(TagLaunch.Kind kind) {
    return kind == TagLaunch.Kind.MIN_MAX ? MIN_MAX : BOX;
  }

  /** Sets the global size of task {@code task} of graph {@code g} (idle threads past a bound). */
  void size(int g, int task, int x, int y, int z) {
    grids.get(g).get(task).setGlobalWork(x, y, z);
  }

  /** Runs graph {@code g}. */
  void execute(int g) {
    plan.withGraph(g).execute();
  }

  /** Frees the plan. */
  @Override
  public void close() {
    close(plan);
  }

  /** Frees {@code plan}, TornadoVM's checked failure made unchecked. */
  static void close(TornadoExecutionPlan plan) {
    try {
      plan.close();
    } catch (TornadoExecutionPlanException e) {
      throw new IllegalStateException("closing a TornadoVM execution plan failed: " + e, e);
    }
  }

  /** Graph {@code g}'s transfers and tasks, each task's worker grid added to {@code tasks}. */
  private void declare(int g, TaskGraph tg, List<WorkerGrid> tasks, String name,
      GridScheduler scheduler) {
    if (g < LOAD) {
      declareMover(g, tg);
    } else if (g >= GRAPHS) {
      tg.consumeFromDevice(persistent());
      declareBody(bodies.get(g - GRAPHS), args[g], tg, tasks, name, scheduler);
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
    if (g <= RESTRICT) {
      declareBoundary(g, tg, tasks, name, scheduler);
    } else {
      declareStage(g, tg, tasks, name, scheduler);
    }
  }

  /** The graph of a boundary kernel: a load's or unload's regions pass through staging arrays. */
  private void declareBoundary(int g, TaskGraph tg, List<WorkerGrid> tasks, String name,
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
      default -> throw new IllegalStateException("not a boundary graph: " + g);
    }
  }

  /**
   * The graph of a stage or tag kernel: its args over (a weighted sum's weights too), a measure's
   * results back.
   */
  private void declareStage(int g, TaskGraph tg, List<WorkerGrid> tasks, String name,
      GridScheduler scheduler) {
    LaunchTables l = tables;
    double[] a = arena;
    int every = DataTransferMode.EVERY_EXECUTION;
    int[] arg = args[g];
    switch (g) {
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

  /**
   * The graph of a package body: its args over, its launcher, a reduction's results back (one
   * thread per entry; a CELLS launcher's per (entry, k, j) row).
   */
  @SuppressWarnings("unchecked")
  private void declareBody(BodyGraphs.Body body, int[] arg, TaskGraph tg, List<WorkerGrid> tasks,
      String name, GridScheduler scheduler) {
    LaunchTables l = tables;
    int every = DataTransferMode.EVERY_EXECUTION;
    tg.transferToDevice(every, arg);
    if (body.shape() == BodyLaunchers.Shape.CELLS) {
      tg.task("cells", (TornadoFunctions.Task4<int[], int[], double[], double[]>) body.task(),
          arg, l.launches, l.launchReals, arena);
      grid(tasks, scheduler, name, "cells", new WorkerGrid3D(1, 1, 1));
    } else {
      tg.task("reduce",
          (TornadoFunctions.Task5<int[], int[], double[], double[], double[]>) body.task(), arg,
          l.launches, l.launchReals, arena, l.results);
      tg.transferToHost(every, l.results);
      grid(tasks, scheduler, name, "reduce", new WorkerGrid1D(1));
    }
  }

  private static void grid(List<WorkerGrid> tasks, GridScheduler scheduler, String graph,
      String task, WorkerGrid grid) {
    grid.setLocalWorkToNull();
    scheduler.addWorkerGrid(graph + "." + task, grid);
    tasks.add(grid);
  }
}
