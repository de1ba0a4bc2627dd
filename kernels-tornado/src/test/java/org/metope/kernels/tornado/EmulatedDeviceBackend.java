package org.metope.kernels.tornado;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.metope.kernels.table.BoundaryTable;
import org.metope.kernels.KernelKind;
import org.metope.kernels.body.StageLaunch;
import org.metope.kernels.body.TagLaunch;

/**
 * A device backend whose device is the JVM: it follows each {@link DeviceLaunch} declaration the
 * way TornadoVM does, with private copies of the arrays standing for device memory (one copy per
 * host array, shared by the declarations, as a device keeps one buffer per array). Arrays
 * uploaded at the first execution are copied once per declaration, the others at every execution;
 * the tasks run in order as the plain Java methods of {@link TornadoKernels} on the copies; the
 * downloaded arrays are copied back; then the host scatter of {@link DeviceBackend} runs. Since the
 * declaration, the task bodies, the runs and the scatter are the TornadoVM backend's own code, a
 * test on this backend tests that logic without a device; only TornadoVM's copying and compiling
 * are left out.
 *
 * <p>For tests it takes a {@link Fault} that brings back a strategy the TornadoVM backend once had,
 * as a negative control, and a hook that runs while a launch holds its copies, standing for a task
 * thread or the communicator writing the host arenas meanwhile.
 *
 * <p>{@link #resident} makes the resident variant (see {@link DeviceBackend}): the data arena's
 * device copy persists between launches, boundary launches run on it, and so do stage launches
 * and refinement measures, by the resident TornadoVM backend's own tasks ({@link ResidentTasks});
 * per launch only what {@link #residentLaunch} lists crosses, each counted in the trace under its
 * own name ({@code columns}, {@code flags}, {@code send region}, {@code received region}, {@code
 * tables}, {@code minimum} for a smallest step's results, and {@code data} for whole-arena copies
 * of an acquire).
 */
public final class EmulatedDeviceBackend extends DeviceBackend {
  /** A known-bad transfer strategy to reproduce, or none. */
  public enum Fault {
    /** The correct strategy: only the staged runs come back. */
    NONE,
    /** Each launch also copies the arena it wrote back whole, as the backend once did. */
    WHOLE_ARENA_COPY_BACK,
    /** The table's columns stay as first uploaded, whatever changes on the host. */
    COLUMNS_UPLOADED_ONCE,
    /** Resident mode: host acquires do nothing, as if host code forgot them. */
    NO_HOST_ACQUIRE,
    /** Resident mode: physical boundary launches do nothing, as if the kernel were skipped. */
    NO_BOUNDARY_CONDITIONS,
    /** Resident mode: refinement measures run, but their results stay on the device. */
    NO_TAGS_BACK,
    /**
     * Resident mode: a package's cell bodies run on the host arena, unacquired, as a backend that
     * ignored residency would.
     */
    CELL_BODIES_ON_HOST
  }

  private final Fault fault;
  /** Launches of a package's bodies (CELLS, CELLS_MINIMUM) run on the device copies. */
  private final AtomicLong cellLaunches = new AtomicLong();
  /** Device memory: the copy of each host array (arrays hash by identity); guarded by launches. */
  private final Map<Object, Object> device = new WeakHashMap<>();
  /** Resident mode: the columns version of each table on the device; arrays uploaded once. */
  private final Map<BoundaryTable, Integer> columnsOnDevice = new WeakHashMap<>();
  private final Set<Object> uploadedOnce = Collections.newSetFromMap(new WeakHashMap<>());
  private volatile BiConsumer<KernelKind, double[]> duringLaunch = (kind, target) -> {};

  /** The faithful emulation, tracing as the environment says. */
  public EmulatedDeviceBackend() {
    this(Fault.NONE);
  }

  /** An emulation with {@code fault}, tracing as the environment says. */
  public EmulatedDeviceBackend(Fault fault) {
    this(fault, DeviceTrace.fromEnvironment());
  }

  /** An emulation with {@code fault} that counts its launches' transfers in {@code trace}. */
  public EmulatedDeviceBackend(Fault fault, DeviceTrace trace) {
    this(fault, trace, false, false);
  }

  private EmulatedDeviceBackend(Fault fault, DeviceTrace trace, boolean resident,
      boolean poisonStale) {
    super(trace, resident, poisonStale);
    this.fault = fault;
  }

  /**
   * The resident emulation: data arenas stay in device copies between launches.
   *
   * @param poisonStale fill the stale copy of an arena with {@link Residency#POISON}
   */
  public static EmulatedDeviceBackend resident(Fault fault, DeviceTrace trace,
      boolean poisonStale) {
    return new EmulatedDeviceBackend(fault, trace, true, poisonStale);
  }

  /**
   * Runs {@code hook} in every launch after the tasks and before the copies back, with the kind
   * of launch and the host arena it writes (the buffer arena for a load, else the data arena).
   */
  public void duringLaunch(BiConsumer<KernelKind, double[]> hook) {
    this.duringLaunch = hook;
  }

  @Override
  public String name() {
    return "tornado";
  }

  @Override
  Execution build(DeviceLaunch launch) {
    Graph graph = new Graph(launch.kind, launch.target());
    launch.declare(graph);
    if (fault == Fault.WHOLE_ARENA_COPY_BACK) {
      graph.download(launch.target());
    }
    return graph;
  }

  @Override
  public void acquireHost(double[] arena, boolean write) {
    if (fault != Fault.NO_HOST_ACQUIRE) {
      super.acquireHost(arena, write);
    }
  }

  @Override
  public void releaseHost(double[] arena) {
    if (fault != Fault.NO_HOST_ACQUIRE) {
      super.releaseHost(arena);
    }
  }

  /** The device copy of {@code host}, allocated (zeroed) on first use. */
  private Object copyOf(Object host) {
    synchronized (device) {
      return device.computeIfAbsent(host, h -> Array.newInstance(
          h.getClass().getComponentType(), Array.getLength(h)));
    }
  }

  @Override
  Residency.DeviceMemory memory(double[] host) {
    return new Residency.ArrayMemory((double[]) copyOf(host));
  }

  /**
   * Resident boundary launch. What crosses: the table's columns when their version changed
   * ({@code columns}); the per-step flags the kernel reads, {@code allocated} or {@code
   * receiveMode}, and a load's non-zero flags back ({@code flags}); for a load, the buffer slices
   * of cross-rank boundaries back to the host ({@code send region}: what the communicator sends);
   * for an unload, the received slices of cross-rank boundaries to the device ({@code received
   * region}). Same-rank slices are written and read on the device and never cross.
   */
  @Override
  void residentLaunch(KernelKind kind, BoundaryTable t, int[] subset, int count, double[] data,
      double[] buffers) {
    columns(t);
    final int[] s = (int[]) once(subset, "columns");
    final int[] ints = (int[]) copyOf(t.ints);
    final double[] reals = (double[]) copyOf(t.reals);
    final double[] d = (double[]) copyOf(data);
    final int n = t.size;
    switch (kind) {
      case LOAD -> {
        final double[] b = (double[]) copyOf(buffers);
        final int[] a = every(t.allocated);
        final int[] f = (int[]) copyOf(t.nonzero);
        TornadoKernels.clearFlags(count, f);
        TornadoKernels.load(s, count, t.maxRows, n, ints, reals, a, f, d, b);
        duringLaunch.accept(kind, buffers);
        for (int e = 0; e < count; e++) {
          t.nonzero[subset[e]] = f[e];
        }
        trace().toHost("flags", 4L * count);
        slices(t, subset, count, b, buffers, true);
      }
      case UNLOAD -> {
        final double[] b = (double[]) copyOf(buffers);
        final int[] m = every(t.receiveMode);
        slices(t, subset, count, buffers, b, false);
        TornadoKernels.unload(s, count, t.maxRows, n, ints, reals, m, d, b);
        duringLaunch.accept(kind, data);
      }
      case PROLONGATE -> TornadoKernels.prolongate(s, count, t.maxRows, n, ints, reals,
          every(t.allocated), d);
      case RESTRICT -> TornadoKernels.restrictRows(s, count, t.maxRows, n, ints, reals,
          every(t.allocated), d);
      default -> throw new IllegalStateException("unknown kernel kind: kind=" + kind);
    }
  }

  /**
   * Copies the buffer slice of every cross-rank boundary of the subset from {@code from} to {@code
   * to}: after a load the allocated ones to the host, before an unload the received ones
   * ({@code RECEIVE_COPY}) to the device.
   */
  private void slices(BoundaryTable t, int[] subset, int count, double[] from, double[] to,
      boolean toHost) {
    long bytes = 0;
    for (int e = 0; e < count; e++) {
      final int b = subset[e];
      boolean crosses = t.crossRank[b] == 1 && (toHost ? t.allocated[b] != 0
          : t.receiveMode[b] == BoundaryTable.RECEIVE_COPY);
      if (crosses) {
        final int offset = t.get(BoundaryTable.BUFFER_OFFSET, b);
        final int length = t.get(BoundaryTable.CELLS, b);
        System.arraycopy(from, offset, to, offset, length);
        bytes += 8L * length;
      }
    }
    if (toHost) {
      trace().toHost("send region", bytes);
    } else {
      trace().toDevice("received region", bytes);
    }
  }

  /** Uploads the table's columns when the device has none or an older version. */
  private void columns(BoundaryTable t) {
    Integer onDevice = columnsOnDevice.get(t);
    int version = t.columnsVersion();
    if (onDevice == null || onDevice != version) {
      System.arraycopy(t.ints, 0, copyOf(t.ints), 0, t.ints.length);
      System.arraycopy(t.reals, 0, copyOf(t.reals), 0, t.reals.length);
      trace().toDevice("columns", 4L * t.ints.length + 8L * t.reals.length);
      columnsOnDevice.put(t, version);
    }
  }

  /** The device copy of {@code host}, uploaded at every launch (per-step flags). */
  private int[] every(int[] host) {
    int[] copy = (int[]) copyOf(host);
    System.arraycopy(host, 0, copy, 0, host.length);
    trace().toDevice("flags", 4L * host.length);
    return copy;
  }

  /** The device copy of {@code host}, uploaded the first time only (fixed tables). */
  private Object once(Object host, String name) {
    Object copy = copyOf(host);
    if (uploadedOnce.add(host)) {
      int length = Array.getLength(host);
      System.arraycopy(host, 0, copy, 0, length);
      trace().toDevice(name, host instanceof double[] ? 8L * length : 4L * length);
    }
    return copy;
  }

  /** Launches of a package's bodies (CELLS, CELLS_MINIMUM) run so far on the device copies. */
  public long cellLaunches() {
    return cellLaunches.get();
  }

  /** Runs a package's CELLS bodies on its device copies, as a launcher copied per body would. */
  @Override
  boolean runsCellBodies() {
    return true;
  }

  /**
   * Resident stage launch, run by the TornadoVM backend's launchers ({@link ResidentTasks}) with
   * the launch's own tables as the launch tables (its entries from 0): its tables cross once, its
   * weights are kernel arguments, a smallest step's results come back (counted as {@code
   * minimum}).
   */
  @Override
  void residentStage(StageLaunch launch, double[] arena, double w1, double w2) {
    if (launch.runsPackageBody()) {
      if (fault == Fault.CELL_BODIES_ON_HOST) {
        launch.runOnHost(arena, w1, w2);
        return;
      }
      cellLaunches.incrementAndGet();
    }
    int[] t = (int[]) once(launch.ints, "tables");
    double[] r = (double[]) once(launch.reals, "tables");
    if (fault == Fault.NO_BOUNDARY_CONDITIONS
        && launch.kind == StageLaunch.Kind.PHYSICAL_BOUNDARY) {
      return;
    }
    double[] results = (double[]) copyOf(launch.results);
    int[] args = LaunchTables.entryArgs(0, launch.count, launch.maxK, launch.maxJ);
    ResidentTasks.run(launch, args, t, r, (double[]) copyOf(arena), new double[] {w1, w2},
        results);
    if (!launch.writesArena()) {
      System.arraycopy(results, 0, launch.results, 0, results.length);
      trace().toHost("reduction", 8L * results.length);
    }
  }

  /**
   * Resident refinement measures, by {@link ResidentTasks} as a stage launch: the tables cross
   * once, the results back every time.
   */
  @Override
  void residentMeasure(TagLaunch launch, double[] arena) {
    int[] t = (int[]) once(launch.ints, "tables");
    double[] out = (double[]) copyOf(launch.results);
    int[] args = LaunchTables.entryArgs(0, launch.count, 0, 0);
    ResidentTasks.measure(launch, args, t, (double[]) copyOf(arena), out);
    if (fault != Fault.NO_TAGS_BACK) {
      System.arraycopy(out, 0, launch.results, 0, out.length);
    }
    trace().toHost("tags", 8L * out.length);
  }

  /** A declaration recorded as copies and calls. */
  private final class Graph implements DeviceGraph, Execution {
    private final KernelKind kind;
    private final double[] target;
    private final List<Object> firstIn = new ArrayList<>();
    private final List<Object> everyIn = new ArrayList<>();
    private final List<Object> out = new ArrayList<>();
    private final List<Runnable> tasks = new ArrayList<>();
    private boolean executed;

    Graph(KernelKind kind, double[] target) {
      this.kind = kind;
      this.target = target;
    }

    @Override
    public void upload(boolean everyExecution, Object... arrays) {
      (everyExecution ? everyIn : firstIn).addAll(List.of(arrays));
    }

    @Override
    public void download(Object... arrays) {
      out.addAll(List.of(arrays));
    }

    @Override
    public void execute() {
      if (!executed) {
        copyIn(firstIn, fault == Fault.COLUMNS_UPLOADED_ONCE);
        executed = true;
      }
      copyIn(everyIn, false);
      for (Runnable task : tasks) {
        task.run();
      }
      duringLaunch.accept(kind, target);
      for (Object host : out) {
        System.arraycopy(on(host), 0, host, 0, Array.getLength(host));
      }
    }

    @Override
    public void close() {
      // device copies go with their host arrays
    }

    /**
     * Copies {@code arrays} to their device copies; with {@code onlyNew}, only those the device
     * has never held, so that a declaration made again keeps the columns as first uploaded.
     */
    private void copyIn(List<Object> arrays, boolean onlyNew) {
      for (Object host : arrays) {
        boolean held;
        synchronized (device) {
          held = device.containsKey(host);
        }
        if (!onlyNew || !held) {
          System.arraycopy(host, 0, on(host), 0, Array.getLength(host));
        }
      }
    }

    /** The device copy of {@code host}, allocated (zeroed) on first use. */
    private Object on(Object host) {
      return device.computeIfAbsent(host, h -> Array.newInstance(
          h.getClass().getComponentType(), Array.getLength(h)));
    }

    private int[] dev(int[] host) {
      return (int[]) on(host);
    }

    private double[] dev(double[] host) {
      return (double[]) on(host);
    }

    @Override
    public void clearFlags(int count, int[] flags) {
      int[] f = dev(flags);
      tasks.add(() -> TornadoKernels.clearFlags(count, f));
    }

    @Override
    public void load(int[] subset, int count, int maxRows, int n, int[] ints, double[] reals,
        int[] allocated, int[] flags, double[] data, double[] buffers) {
      int[] s = dev(subset);
      int[] i = dev(ints);
      double[] r = dev(reals);
      int[] a = dev(allocated);
      int[] f = dev(flags);
      double[] d = dev(data);
      double[] b = dev(buffers);
      tasks.add(() -> TornadoKernels.load(s, count, maxRows, n, i, r, a, f, d, b));
    }

    @Override
    public void unload(int[] subset, int count, int maxRows, int n, int[] ints, double[] reals,
        int[] receiveMode, double[] data, double[] buffers) {
      int[] s = dev(subset);
      int[] i = dev(ints);
      double[] r = dev(reals);
      int[] m = dev(receiveMode);
      double[] d = dev(data);
      double[] b = dev(buffers);
      tasks.add(() -> TornadoKernels.unload(s, count, maxRows, n, i, r, m, d, b));
    }

    @Override
    public void prolongate(int[] subset, int count, int maxRows, int n, int[] ints,
        double[] reals, int[] allocated, double[] data) {
      int[] s = dev(subset);
      int[] i = dev(ints);
      double[] r = dev(reals);
      int[] a = dev(allocated);
      double[] d = dev(data);
      tasks.add(() -> TornadoKernels.prolongate(s, count, maxRows, n, i, r, a, d));
    }

    @Override
    public void restrictRows(int[] subset, int count, int maxRows, int n, int[] ints,
        double[] reals, int[] allocated, double[] data) {
      int[] s = dev(subset);
      int[] i = dev(ints);
      double[] r = dev(reals);
      int[] a = dev(allocated);
      double[] d = dev(data);
      tasks.add(() -> TornadoKernels.restrictRows(s, count, maxRows, n, i, r, a, d));
    }

    @Override
    public void gather(int runCount, int[] runs, double[] source, double[] staging) {
      int[] q = dev(runs);
      double[] from = dev(source);
      double[] to = dev(staging);
      tasks.add(() -> TornadoKernels.gather(runCount, q, from, to));
    }
  }
}
