package org.metope.kernels.tornado;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.metope.kernels.BoundaryTable;
import org.metope.kernels.KernelKind;
import org.metope.kernels.StageLaunch;
import org.metope.kernels.TagLaunch;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;
import uk.ac.manchester.tornado.api.exceptions.TornadoExecutionPlanException;

/**
 * One data arena of the resident TornadoVM backend kept in device memory: one TornadoVM execution
 * plan whose task graphs share the arena's device buffer and a device buffer arena. TornadoVM
 * 5.2 passes a device buffer from graph to graph only inside one plan ({@code
 * persistOnDevice}/{@code consumeFromDevice}, each graph taking the buffers of the graph run
 * before it), and a plan's graphs are fixed when it is made; so a launch not seen before adds a
 * graph and makes the plan again, carrying the arena and the buffer arena across (down with the
 * old plan, up with the new; counted as {@code rebuild}). Once every launch of a stage has been
 * seen, nothing is made again until the tables change.
 *
 * <p>Graphs 0 to 3 move the arenas: both up, the data arena up, both down, the data arena down.
 * The device's buffer arena is a private array ({@link #shadow}), never the host's: the
 * communicator writes the host's received slices at any time, and TornadoVM copies only whole Java
 * arrays. Region transfers are staging arrays packed on the device ({@link TornadoKernels#gather}
 * of the cross-rank send slices after a load) or on the host (the cross-rank received slices,
 * unpacked on the device by {@link TornadoKernels#scatter} before an unload).
 */
final class TornadoResident implements Residency.DeviceMemory {
  private static final int UP_ALL = 0;
  private static final int UP_DATA = 1;
  private static final int DOWN_ALL = 2;
  private static final int DOWN_DATA = 3;
  private static int plans;

  private final double[] data;
  private final DeviceTrace trace;
  private final List<Consumer<TaskGraph>> graphs = new ArrayList<>();
  private final Map<Object, Integer> index = new HashMap<>();
  private final Map<Object, Staged> staged = new HashMap<>();
  /** The weights array each weighted-sum graph sends at every execution. */
  private final Map<StageLaunch, double[]> weights = new HashMap<>();
  private double[] buffers;
  private double[] shadow = new double[1];
  private TornadoExecutionPlan plan;
  /** Whether the device holds values of the arenas (uploaded since the plan was made). */
  private boolean onDevice;

  TornadoResident(double[] data, DeviceTrace trace) {
    this.data = data;
    this.trace = trace;
  }

  @Override
  public void upload(double[] host, int offset, int length) {
    whole(host, offset, length);
    built();
    run(onDevice ? UP_DATA : UP_ALL);
    onDevice = true;
  }

  @Override
  public void download(double[] host, int offset, int length) {
    whole(host, offset, length);
    built();
    run(DOWN_DATA);
  }

  @Override
  public void fill(double value) {
    throw new UnsupportedOperationException("the TornadoVM resident backend does not poison");
  }

  private void whole(double[] host, int offset, int length) {
    if (host != data || offset != 0 || length != data.length) {
      throw new IllegalStateException("TornadoVM moves whole arrays only: offset=" + offset
          + " length=" + length + " arenaLength=" + data.length);
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
    List<Object> key = List.of(kind, t, subset, count, t.columnsVersion());
    switch (kind) {
      case LOAD -> load(key, t, subset, count);
      case UNLOAD -> unload(key, t, subset, count);
      case PROLONGATE, RESTRICT -> {
        final int[] allocated = t.allocated;
        final int maxRows = maxRows(t, subset, count);
        int g = graph(key, tg -> {
          tg.transferToDevice(DataTransferMode.FIRST_EXECUTION, subset, t.ints, t.reals);
          tg.transferToDevice(DataTransferMode.EVERY_EXECUTION, allocated);
          if (kind == KernelKind.PROLONGATE) {
            tg.task("prolongate", TornadoKernels::prolongate, subset, count, maxRows, t.size,
                t.ints, t.reals, allocated, data);
          } else {
            tg.task("restrictRows", TornadoKernels::restrictRows, subset, count, maxRows, t.size,
                t.ints, t.reals, allocated, data);
          }
        });
        trace.toDevice("flags", 4L * allocated.length);
        run(g);
      }
      default -> throw new IllegalStateException("unknown kernel kind: kind=" + kind);
    }
  }

  /**
   * A stage launch on the device arena, its weights in a two-value array sent every time; a
   * smallest step brings back its results (one value per block).
   */
  void stage(StageLaunch launch, double w1, double w2) {
    final double[] w = new double[2];
    int g = graph(launch, tg -> {
      tg.transferToDevice(DataTransferMode.FIRST_EXECUTION, launch.ints, launch.reals);
      switch (launch.kind) {
        case DONOR_CELL_CONSTANT -> tg.task("donorCell", StageTasks::donorCellConstant,
            launch.ints, launch.reals, launch.count, launch.maxK, data);
        case DONOR_CELL_FIELD -> tg.task("donorCellField", StageTasks::donorCellField,
            launch.ints, launch.count, launch.maxK, launch.maxJ, data);
        case DIVERGENCE -> tg.task("divergence", StageTasks::divergence, launch.ints,
            launch.reals, launch.count, launch.maxK, launch.maxJ, data);
        case WEIGHTED_SUM -> {
          tg.transferToDevice(DataTransferMode.EVERY_EXECUTION, w);
          tg.task("weightedSum", StageTasks::weightedSumOf, launch.ints, launch.count, w, data);
        }
        case PHYSICAL_BOUNDARY -> tg.task("physicalBoundary", StageTasks::physicalBoundary,
            launch.ints, launch.count, data);
        case BURGERS_FLUX -> tg.task("burgersFluxes", StageTasks::burgersFluxes, launch.ints,
            launch.count, launch.maxK, launch.maxJ, data);
        case BURGERS_DERIVED -> tg.task("burgersDerived", StageTasks::burgersDerived,
            launch.ints, launch.count, launch.maxK, launch.maxJ, data);
        case SMALLEST_STEP -> {
          tg.transferToDevice(DataTransferMode.FIRST_EXECUTION, launch.results);
          tg.task("smallestSteps", StageTasks::smallestSteps, launch.ints, launch.reals,
              launch.count, data, launch.results);
          tg.transferToHost(DataTransferMode.EVERY_EXECUTION, launch.results);
        }
        default -> throw new IllegalStateException("unknown stage kind: " + launch.kind);
      }
    }, w);
    if (launch.kind == StageLaunch.Kind.WEIGHTED_SUM) {
      double[] sent = weights.get(launch);
      sent[0] = w1;
      sent[1] = w2;
      trace.toDevice("weights", 16);
    }
    run(g);
    if (!launch.writesArena()) {
      trace.toHost("minimum", 8L * launch.results.length);
    }
  }

  /** Refinement measures on the device arena; only their results come back. */
  void measure(TagLaunch launch) {
    int g = graph(launch, tg -> {
      tg.transferToDevice(DataTransferMode.FIRST_EXECUTION, launch.ints);
      switch (launch.kind) {
        case MIN_MAX -> tg.task("minMax", StageTasks::minMax, launch.ints, launch.count, data,
            launch.results);
        case BOX -> tg.task("box", StageTasks::box, launch.ints, launch.count, data,
            launch.results);
        default -> throw new IllegalStateException("unknown tag kind: " + launch.kind);
      }
      tg.transferToHost(DataTransferMode.EVERY_EXECUTION, launch.results);
    });
    run(g);
    trace.toHost("tags", 8L * launch.results.length);
  }

  private void load(List<Object> key, BoundaryTable t, int[] subset, int count) {
    final int maxRows = maxRows(t, subset, count);
    final int[] allocated = t.allocated;
    Staged s = staged.computeIfAbsent(key, k -> {
      int[] runs = crossRuns(t, subset, count);
      int runCount = runs.length / WrittenRegions.COLUMNS;
      return new Staged(runs, runCount, new double[Math.max(1, stagingLength(runs, runCount))],
          new int[Math.max(1, count)]);
    });
    int g = graph(key, tg -> {
      tg.transferToDevice(DataTransferMode.FIRST_EXECUTION, subset, t.ints, t.reals, s.runs);
      tg.transferToDevice(DataTransferMode.EVERY_EXECUTION, allocated);
      tg.task("clear", TornadoKernels::clearFlags, count, s.flags);
      tg.task("load", TornadoKernels::load, subset, count, maxRows, t.size, t.ints, t.reals,
          allocated, s.flags, data, shadow);
      tg.task("gather", TornadoKernels::gather, s.runCount, s.runs, shadow, s.staging);
      tg.transferToHost(DataTransferMode.EVERY_EXECUTION, s.flags, s.staging);
    });
    trace.toDevice("flags", 4L * allocated.length);
    run(g);
    for (int e = 0; e < count; e++) {
      t.nonzero[subset[e]] = s.flags[e];
    }
    trace.toHost("flags", 4L * s.flags.length);
    for (int q = 0; q < s.runCount; q++) {
      System.arraycopy(s.staging, s.runs[WrittenRegions.STAGING * s.runCount + q], buffers,
          s.runs[WrittenRegions.START * s.runCount + q],
          s.runs[WrittenRegions.LENGTH * s.runCount + q]);
    }
    trace.toHost("send region", 8L * stagingLength(s.runs, s.runCount));
  }

  private void unload(List<Object> key, BoundaryTable t, int[] subset, int count) {
    final int maxRows = maxRows(t, subset, count);
    final int[] mode = t.receiveMode;
    Staged s = staged.computeIfAbsent(key, k -> {
      int[] runs = crossRuns(t, subset, count);
      int runCount = runs.length / WrittenRegions.COLUMNS;
      return new Staged(runs, runCount, new double[Math.max(1, stagingLength(runs, runCount))],
          new int[1]);
    });
    int g = graph(key, tg -> {
      tg.transferToDevice(DataTransferMode.FIRST_EXECUTION, subset, t.ints, t.reals, s.runs);
      tg.transferToDevice(DataTransferMode.EVERY_EXECUTION, mode, s.staging);
      tg.task("scatter", TornadoKernels::scatter, s.runCount, s.runs, s.staging, shadow);
      tg.task("unload", TornadoKernels::unload, subset, count, maxRows, t.size, t.ints, t.reals,
          mode, data, shadow);
    });
    for (int q = 0; q < s.runCount; q++) {
      System.arraycopy(buffers, s.runs[WrittenRegions.START * s.runCount + q], s.staging,
          s.runs[WrittenRegions.STAGING * s.runCount + q],
          s.runs[WrittenRegions.LENGTH * s.runCount + q]);
    }
    trace.toDevice("flags", 4L * mode.length);
    trace.toDevice("received region", 8L * stagingLength(s.runs, s.runCount));
    run(g);
  }

  /** Staging arrays of one load or unload graph. */
  private record Staged(int[] runs, int runCount, double[] staging, int[] flags) {}

  /**
   * The buffer slices of the cross-rank boundaries of the subset, as runs in {@link
   * WrittenRegions}' layout; at least one run (of length 0) so that a device buffer exists.
   */
  private static int[] crossRuns(BoundaryTable t, int[] subset, int count) {
    int n = 0;
    for (int e = 0; e < count; e++) {
      n += t.crossRank[subset[e]];
    }
    int runCount = Math.max(1, n);
    int[] runs = new int[WrittenRegions.COLUMNS * runCount];
    int q = 0;
    int staged = 0;
    for (int e = 0; e < count; e++) {
      int b = subset[e];
      if (t.crossRank[b] == 1) {
        int length = t.get(BoundaryTable.CELLS, b);
        runs[WrittenRegions.START * runCount + q] = t.get(BoundaryTable.BUFFER_OFFSET, b);
        runs[WrittenRegions.LENGTH * runCount + q] = length;
        runs[WrittenRegions.STAGING * runCount + q] = staged;
        runs[WrittenRegions.BOUNDARY * runCount + q] = b;
        staged += length;
        q++;
      }
    }
    return runs;
  }

  private static int stagingLength(int[] runs, int runCount) {
    int n = 0;
    for (int q = 0; q < runCount; q++) {
      n += runs[WrittenRegions.LENGTH * runCount + q];
    }
    return n;
  }

  private static int maxRows(BoundaryTable t, int[] subset, int count) {
    int rows = 0;
    for (int s = 0; s < count; s++) {
      rows = Math.max(rows, t.get(BoundaryTable.ROWS, subset[s]));
    }
    return rows;
  }

  /** A new buffer arena: its device copy starts empty (its slices are written before read). */
  private void useBuffers(double[] hostBuffers) {
    carry(() -> {
      buffers = hostBuffers;
      shadow = new double[hostBuffers.length];
      graphs.clear();
      index.clear();
      staged.clear();
      weights.clear();
    });
  }

  private int graph(Object key, Consumer<TaskGraph> body) {
    return graph(key, body, null);
  }

  /** The index of {@code key}'s graph in the plan, made (and the plan with it) if new. */
  private int graph(Object key, Consumer<TaskGraph> body, double[] stageWeights) {
    Integer g = index.get(key);
    if (g != null) {
      return g;
    }
    if (stageWeights != null) {
      weights.put((StageLaunch) key, stageWeights);
    }
    carry(() -> {
      graphs.add(body);
      index.put(key, 3 + graphs.size());
    });
    return index.get(key);
  }

  /** Changes the plan's graphs with {@code change}, carrying the arenas' device values across. */
  private void carry(Runnable change) {
    boolean carried = onDevice && plan != null;
    if (carried) {
      run(DOWN_ALL);
      trace.toHost("rebuild", 8L * (data.length + shadow.length));
    }
    close();
    change.run();
    onDevice = false;
    if (carried) {
      built();
      run(UP_ALL);
      onDevice = true;
      trace.toDevice("rebuild", 8L * (data.length + shadow.length));
    }
  }

  private void built() {
    if (plan != null) {
      return;
    }
    int id = plans++;
    List<TaskGraph> all = new ArrayList<>();
    all.add(mover(id, "upAll").transferToDevice(DataTransferMode.EVERY_EXECUTION, data, shadow));
    all.add(mover(id, "upData").consumeFromDevice(shadow)
        .transferToDevice(DataTransferMode.EVERY_EXECUTION, data));
    all.add(mover(id, "downAll").consumeFromDevice(data, shadow));
    all.add(mover(id, "downData").consumeFromDevice(data, shadow));
    for (int i = 0; i < graphs.size(); i++) {
      TaskGraph tg = new TaskGraph("resident" + id + "g" + i).consumeFromDevice(data, shadow);
      graphs.get(i).accept(tg);
      all.add(tg);
    }
    all.get(UP_ALL).task("keep", TornadoKernels::keep, data, shadow).persistOnDevice(data, shadow);
    all.get(UP_DATA).task("keep", TornadoKernels::keep, data, shadow)
        .persistOnDevice(data, shadow);
    all.get(DOWN_ALL).task("keep", TornadoKernels::keep, data, shadow)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, data, shadow);
    all.get(DOWN_DATA).task("keep", TornadoKernels::keep, data, shadow)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, data);
    plan = new TornadoExecutionPlan(all.stream().map(TaskGraph::snapshot)
        .toArray(uk.ac.manchester.tornado.api.ImmutableTaskGraph[]::new));
    plan.withCompilerFlags(TornadoVMBackendType.OPENCL, TornadoKernelBackend.OPENCL_FLAGS);
  }

  private static TaskGraph mover(int id, String name) {
    return new TaskGraph("resident" + id + name);
  }

  private void run(int g) {
    built();
    plan.withGraph(g).execute();
  }
}
