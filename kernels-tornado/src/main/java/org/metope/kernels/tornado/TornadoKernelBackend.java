package org.metope.kernels.tornado;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Map;
import org.metope.kernels.table.BoundaryTable;
import org.metope.kernels.KernelKind;
import org.metope.kernels.body.StageLaunch;
import org.metope.kernels.body.TagLaunch;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;

/**
 * Runs the kernels as TornadoVM task graphs on TornadoVM's default device: each {@link
 * DeviceLaunch} becomes one task graph in one execution plan, built when a cache is built (or at
 * its first launch) and executed at every later launch; building one is the only allocation.
 *
 * <p>What crosses at a launch: the table's columns, the subset and the launch's runs go to the
 * device with the first execution ({@code FIRST_EXECUTION}); a changed table gets a new plan. The
 * per-step flags and the whole arenas the kernel reads go to the device at every execution; back
 * come only the staging array of the cells the kernel wrote, and a load's flags, which the host
 * scatters ({@link DeviceLaunch}). Nothing copies a whole arena back, so task threads and the
 * communicator may write other parts of the arenas while a launch runs.
 *
 * <p>OpenCL kernels are built with {@value #OPENCL_FLAGS} instead of TornadoVM's default
 * {@code -cl-mad-enable -cl-fast-relaxed-math}, which lets the device compiler reassociate and
 * fuse and so change the last bits of interpolated values; a device compiler may still contract
 * {@code a * b + c} into a fused multiply-add (OpenCL's default FP_CONTRACT), which the JVM never
 * does.
 */
public final class TornadoKernelBackend extends DeviceBackend {
  /** OpenCL build options: IEEE arithmetic, no warnings. */
  static final String OPENCL_FLAGS = "-w";

  private int graphs;
  /** Resident mode: the device side of each data arena (arrays hash by identity). */
  private final Map<double[], TornadoResident> residents = new IdentityHashMap<>();
  /**
   * The device sides of released arenas, kept for the next new arenas (a remesh replaces each
   * rank's arena): their plans, compiled kernels and device memory are taken over ({@link
   * TornadoResident#adopt}).
   */
  private final Deque<TornadoResident> spares = new ArrayDeque<>();
  private int arenasSeen;
  private boolean hostBodiesSaid;

  /** A backend on TornadoVM's default device, tracing as the environment says. */
  public TornadoKernelBackend() {
    this(false);
  }

  /**
   * A backend on TornadoVM's default device that keeps data arenas on it between launches when
   * {@code resident} ({@link TornadoResident}), tracing as the environment says.
   */
  public TornadoKernelBackend(boolean resident) {
    super(DeviceTrace.fromEnvironment(), resident, false);
  }

  @Override
  Residency.DeviceMemory memory(double[] host) {
    synchronized (residents) {
      return residents.computeIfAbsent(host, h -> {
        TornadoResident r = spares.pollLast();
        if (r != null) {
          r.adopt(h);
          return r;
        }
        r = new TornadoResident(h, trace());
        if (arenasSeen++ > 0) {
          r.expectGrowth(); // a second arena: the mesh changes (start-up refinement, remesh)
        }
        return r;
      });
    }
  }

  private TornadoResident resident(double[] data) {
    residency(data);
    synchronized (residents) {
      return residents.get(data);
    }
  }

  /** Execution plans made for the device side of {@code arena} so far (resident mode). */
  int plansMade(double[] arena) {
    return resident(arena).plansMade();
  }

  @Override
  void residentLaunch(KernelKind kind, BoundaryTable table, int[] subset, int count,
      double[] data, double[] buffers) {
    resident(data).boundary(kind, table, subset, count, buffers);
  }

  @Override
  void residentStage(StageLaunch launch, double[] arena, double w1, double w2) {
    resident(arena).stage(launch, w1, w2);
  }

  @Override
  void residentMeasure(TagLaunch launch, double[] arena) {
    resident(arena).measure(launch);
  }

  @Override
  public void releaseArena(double[] arena) {
    super.releaseArena(arena);
    synchronized (residents) {
      TornadoResident r = residents.remove(arena);
      if (r != null) {
        spares.addLast(r);
      }
    }
  }

  @Override
  public synchronized void close() {
    super.close();
    synchronized (residents) {
      for (TornadoResident r : residents.values()) {
        r.close();
      }
      residents.clear();
      for (TornadoResident r : spares) {
        r.close();
      }
      spares.clear();
    }
  }

  /**
   * Package bodies run on the device through launchers made per body ({@link BodyLaunchers}),
   * which TornadoVM can read only where {@value BodyLaunchers#DIRECTORY_PROPERTY} names a
   * directory the system class loader finds resources in; without it they run on the host copy
   * (said once, at the first).
   */
  @Override
  boolean runsCellBodies() {
    if (!BodyLaunchers.published() && !hostBodiesSaid) {
      hostBodiesSaid = true;
      System.err.println("metope: package device bodies run on the host copy: -D"
          + BodyLaunchers.DIRECTORY_PROPERTY + "=DIR (a directory on the class path or the boot class"
          + " path) is not set; ./metope sets it for every rank");
    }
    return BodyLaunchers.published();
  }

  @Override
  public String name() {
    return "tornado";
  }

  @Override
  Execution build(DeviceLaunch launch) {
    Graph graph = new Graph(new TaskGraph("metope" + (graphs++)));
    launch.declare(graph);
    TornadoExecutionPlan plan = new TornadoExecutionPlan(graph.tasks.snapshot());
    plan.withCompilerFlags(TornadoVMBackendType.OPENCL, OPENCL_FLAGS);
    return new Execution() {
      @Override
      public void execute() {
        plan.execute();
      }

      @Override
      public void close() {
        ResidentPlan.close(plan);
      }
    };
  }

  /** A declaration as a TornadoVM task graph. */
  private static final class Graph implements DeviceGraph {
    final TaskGraph tasks;

    Graph(TaskGraph tasks) {
      this.tasks = tasks;
    }

    @Override
    public void upload(boolean everyExecution, Object... arrays) {
      tasks.transferToDevice(everyExecution ? DataTransferMode.EVERY_EXECUTION
          : DataTransferMode.FIRST_EXECUTION, arrays);
    }

    @Override
    public void download(Object... arrays) {
      tasks.transferToHost(DataTransferMode.EVERY_EXECUTION, arrays);
    }

    @Override
    public void clearFlags(int count, int[] flags) {
      tasks.task("clear", TornadoKernels::clearFlags, count, flags);
    }

    @Override
    public void load(int[] subset, int count, int maxRows, int n, int[] ints, double[] reals,
        int[] allocated, int[] flags, double[] data, double[] buffers) {
      tasks.task("load", TornadoKernels::load, subset, count, maxRows, n, ints, reals, allocated,
          flags, data, buffers);
    }

    @Override
    public void unload(int[] subset, int count, int maxRows, int n, int[] ints, double[] reals,
        int[] receiveMode, double[] data, double[] buffers) {
      tasks.task("unload", TornadoKernels::unload, subset, count, maxRows, n, ints, reals,
          receiveMode, data, buffers);
    }

    @Override
    public void prolongate(int[] subset, int count, int maxRows, int n, int[] ints,
        double[] reals, int[] allocated, double[] data) {
      tasks.task("prolongate", TornadoKernels::prolongate, subset, count, maxRows, n, ints,
          reals, allocated, data);
    }

    @Override
    public void restrictRows(int[] subset, int count, int maxRows, int n, int[] ints,
        double[] reals, int[] allocated, double[] data) {
      tasks.task("restrictRows", TornadoKernels::restrictRows, subset, count, maxRows, n, ints,
          reals, allocated, data);
    }

    @Override
    public void gather(int runCount, int[] runs, double[] source, double[] staging) {
      tasks.task("gather", TornadoKernels::gather, runCount, runs, source, staging);
    }
  }
}
