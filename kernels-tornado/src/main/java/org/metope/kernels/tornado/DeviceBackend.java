package org.metope.kernels.tornado;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.metope.kernels.table.BoundaryTable;
import org.metope.kernels.KernelBackend;
import org.metope.kernels.KernelKind;
import org.metope.kernels.body.StageLaunch;
import org.metope.kernels.body.TagLaunch;

/**
 * What every device backend shares: one {@link DeviceLaunch} per (table, kind, subset, arenas),
 * declared when a cache is built ({@link #prepare}) or at its first launch and executed at every
 * later one, declared again when the table's columns changed, and scattered on the host after each
 * execution. Subclasses say only how a declaration becomes something that executes. Launches take
 * turns (one device queue); each returns when its results are in the host arenas. What each
 * launch's declaration moves is counted in a {@link DeviceTrace}, printed stage by stage with
 * {@code METOPE_DEVICE_TRACE=1}.
 *
 * <p><b>Resident mode</b> ({@link #resident()}): the data arenas stay on the device between
 * launches, each owned by a {@link Residency}; boundary launches, the stage's physics and physical
 * boundary conditions ({@link #stage}) and refinement measures ({@link #measure}) run on the
 * device copy, host code acquires the host copy ({@link #acquireHost}), and
 * per launch only flags, the send region and the received region cross (see {@link
 * #residentLaunch}). With {@code poisonStale}, the stale copy of an arena is filled with {@link
 * Residency#POISON}, so that host code that skips its acquire reads NaN.
 */
public abstract class DeviceBackend implements KernelBackend {
  private final Map<BoundaryTable, List<Prepared>> prepared = new IdentityHashMap<>();
  private final long[] launches = new long[KernelKind.values().length];
  private final DeviceTrace trace;
  private final boolean resident;
  private final boolean poisonStale;
  /** The residency of each data arena of a resident backend (arrays hash by identity). */
  private final Map<double[], Residency> arenas = new IdentityHashMap<>();
  private long declarations;

  /** A backend counting what its launches move in {@code trace}, not resident. */
  DeviceBackend(DeviceTrace trace) {
    this(trace, false, false);
  }

  /** A backend that keeps data arenas on the device when {@code resident}. */
  DeviceBackend(DeviceTrace trace, boolean resident, boolean poisonStale) {
    this.trace = trace;
    this.resident = resident;
    this.poisonStale = poisonStale;
  }

  /** A declared launch and its executable form. */
  private record Prepared(DeviceLaunch launch, Execution execution) {}

  /** A declaration made executable by a subclass. */
  protected interface Execution {
    /** Runs the launch: transfers in, tasks, transfers out. */
    void execute();

    /** Frees what the execution holds on the device. */
    void close();
  }

  /** Makes {@code launch} executable: builds a graph from {@link DeviceLaunch#declare}. */
  abstract Execution build(DeviceLaunch launch);

  /**
   * The device memory standing for {@code host}'s device copy, for a resident backend's {@link
   * Residency}; only resident backends are asked.
   */
  Residency.DeviceMemory memory(double[] host) {
    throw new UnsupportedOperationException(name() + " backend has no resident mode");
  }

  /**
   * A boundary launch of a resident backend, on the device copy of {@code data}, which the caller
   * holds on the device side.
   */
  void residentLaunch(KernelKind kind, BoundaryTable table, int[] subset, int count,
      double[] data, double[] buffers) {
    throw new UnsupportedOperationException(name() + " backend has no resident mode");
  }

  /** A stage launch of a resident backend on the device copy of {@code arena}, held by the caller. */
  void residentStage(StageLaunch launch, double[] arena, double w1, double w2) {
    throw new UnsupportedOperationException(name() + " backend has no resident mode");
  }

  /**
   * Refinement measures of a resident backend on the device copy of {@code arena}, held by the
   * caller for reading; the results come back into {@code launch.results}.
   */
  void residentMeasure(TagLaunch launch, double[] arena) {
    throw new UnsupportedOperationException(name() + " backend has no resident mode");
  }

  @Override
  public int threads() {
    return 1;
  }

  @Override
  public boolean resident() {
    return resident;
  }

  /** The residency of data arena {@code arena}, made (host copy current) on first use. */
  Residency residency(double[] arena) {
    synchronized (arenas) {
      return arenas.computeIfAbsent(arena, a -> new Residency("data", a, memory(a), 0,
          poisonStale, trace));
    }
  }

  // Not synchronized on the backend: a launch waiting in acquireDevice for host holders holds
  // the backend's monitor, and those holders must be able to release.
  @Override
  public void acquireHost(double[] arena, boolean write) {
    if (resident) {
      residency(arena).acquireHost(write ? Residency.Access.WRITE : Residency.Access.READ, 0);
    }
  }

  @Override
  public void releaseHost(double[] arena) {
    if (resident) {
      residency(arena).release();
    }
  }

  @Override
  public void releaseArena(double[] arena) {
    synchronized (arenas) {
      arenas.remove(arena);
    }
  }

  /**
   * Whether {@link #residentStage} runs a package's bodies ({@link StageLaunch.Kind#CELLS}, {@link
   * StageLaunch.Kind#CELLS_MINIMUM}) on the device; where it does not, such a launch runs on the
   * host copy, acquired for writing, as a host kernel would.
   */
  boolean runsCellBodies() {
    return false;
  }

  @Override
  public synchronized void stage(StageLaunch launch, double[] arena, double w1, double w2) {
    if (!resident) {
      launch.runOnHost(arena, w1, w2);
      return;
    }
    if (launch.runsPackageBody() && !runsCellBodies()) {
      onHost(launch, arena);
      return;
    }
    Residency r = residency(arena);
    r.acquireDevice(launch.writesArena() ? Residency.Access.WRITE : Residency.Access.READ, 0);
    try {
      residentStage(launch, arena, w1, w2);
    } finally {
      r.release();
    }
  }

  private void onHost(StageLaunch launch, double[] arena) {
    Residency r = residency(arena);
    r.acquireHost(launch.writesArena() ? Residency.Access.WRITE : Residency.Access.READ, 0);
    try {
      launch.runOnHost(arena, 0.0, 0.0);
    } finally {
      r.release();
    }
  }

  @Override
  public synchronized void measure(TagLaunch launch, double[] arena) {
    if (!resident) {
      launch.runOnHost(arena);
      return;
    }
    Residency r = residency(arena);
    r.acquireDevice(Residency.Access.READ, 0);
    try {
      residentMeasure(launch, arena);
    } finally {
      r.release();
    }
  }

  @Override
  public synchronized void load(BoundaryTable table, int[] subset, int count, double[] data,
      double[] buffers) {
    launch(KernelKind.LOAD, table, subset, count, data, buffers);
  }

  @Override
  public synchronized void unload(BoundaryTable table, int[] subset, int count, double[] data,
      double[] buffers) {
    launch(KernelKind.UNLOAD, table, subset, count, data, buffers);
  }

  @Override
  public synchronized void prolongate(BoundaryTable table, int[] subset, int count,
      double[] data) {
    launch(KernelKind.PROLONGATE, table, subset, count, data, null);
  }

  @Override
  public synchronized void restrictBlocks(BoundaryTable table, int[] subset, int count,
      double[] data) {
    launch(KernelKind.RESTRICT, table, subset, count, data, null);
  }

  @Override
  public synchronized void prepare(BoundaryTable table, double[] data, double[] buffers) {
    if (table.size > 0 && !resident) {
      find(KernelKind.LOAD, table, table.all, table.size, data, buffers);
      find(KernelKind.UNLOAD, table, table.all, table.size, data, buffers);
    }
  }

  @Override
  public synchronized void release(BoundaryTable table) {
    List<Prepared> list = prepared.remove(table);
    if (list != null) {
      for (Prepared p : list) {
        p.execution().close();
      }
    }
  }

  /** What the launches moved: bytes each way per kind of launch, stage by stage. */
  public DeviceTrace trace() {
    return trace;
  }

  @Override
  public void endStage(int cycle, int stage) {
    trace.endStage(cycle, stage);
  }

  @Override
  public synchronized long launches(KernelKind kind) {
    return launches[kind.ordinal()];
  }

  /**
   * Number of declarations made so far: one per (table, kind, subset, arenas) plus one each time
   * a table's columns changed under an existing one. Each uploads the table's columns.
   */
  public synchronized long declarations() {
    return declarations;
  }

  @Override
  public synchronized void close() {
    for (List<Prepared> list : prepared.values()) {
      for (Prepared p : list) {
        p.execution().close();
      }
    }
    prepared.clear();
  }

  private void launch(KernelKind kind, BoundaryTable table, int[] subset, int count,
      double[] data, double[] buffers) {
    if (count < 0 || count > subset.length) {
      throw new IllegalArgumentException("count outside subset: count=" + count
          + " subset.length=" + subset.length);
    }
    launches[kind.ordinal()]++;
    if (count > 0 && resident) {
      Residency r = residency(data);
      r.acquireDevice(kind == KernelKind.LOAD ? Residency.Access.READ : Residency.Access.WRITE, 0);
      try {
        residentLaunch(kind, table, subset, count, data, buffers);
      } finally {
        r.release();
      }
    } else if (count > 0) {
      Prepared p = find(kind, table, subset, count, data, buffers);
      DeviceLaunch l = p.launch();
      p.execution().execute();
      l.scatter();
      trace.toDevice(kind.name(), l.executed ? l.everyBytes : l.firstBytes + l.everyBytes);
      trace.toHost(kind.name(), l.backBytes);
      l.executed = true;
    }
  }

  private Prepared find(KernelKind kind, BoundaryTable table, int[] subset, int count,
      double[] data, double[] buffers) {
    List<Prepared> list = prepared.computeIfAbsent(table, t -> new ArrayList<>());
    for (int i = 0; i < list.size(); i++) {
      Prepared p = list.get(i);
      if (p.launch().isFor(kind, subset, count, data, buffers)) {
        if (!p.launch().isStale()) {
          return p;
        }
        p.execution().close();
        list.remove(i);
        break;
      }
    }
    DeviceLaunch launch = new DeviceLaunch(kind, table, subset, count, data, buffers);
    Prepared built = new Prepared(launch, build(launch));
    declarations++;
    list.add(built);
    return built;
  }
}
