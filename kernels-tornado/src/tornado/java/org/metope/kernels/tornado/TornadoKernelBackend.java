package org.metope.kernels.tornado;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.metope.kernels.BoundaryOp;
import org.metope.kernels.BoundaryTable;
import org.metope.kernels.KernelBackend;
import org.metope.kernels.KernelKind;
import uk.ac.manchester.tornado.api.ImmutableTaskGraph;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;
import uk.ac.manchester.tornado.api.exceptions.TornadoExecutionPlanException;

/**
 * Runs the kernels as TornadoVM task graphs on TornadoVM's default device. Each (table, kind,
 * subset, arenas) gets one execution plan, built by {@link #prepare} when a cache is built (or at
 * its first launch) and executed at every later launch; building one is the only allocation.
 *
 * <p>What stays on the device: the table's columns and the subset go there once
 * ({@code FIRST_EXECUTION}). The arenas, the per-step flags and the outputs travel at every launch
 * ({@code EVERY_EXECUTION}) in both directions, because the host owns them between launches
 * (physics and communication run on the JVM) and a launch writes only parts of them: copying an
 * array back that was not first copied in would overwrite the host's other parts.
 *
 * <p>OpenCL kernels are built with {@value #OPENCL_FLAGS} instead of TornadoVM's default
 * {@code -cl-mad-enable -cl-fast-relaxed-math}, which lets the device compiler reassociate and
 * fuse and so change the last bits of interpolated values; a device compiler may still contract
 * {@code a * b + c} into a fused multiply-add (OpenCL's default FP_CONTRACT), which the JVM never
 * does.
 */
public final class TornadoKernelBackend implements KernelBackend {
  /** OpenCL build options: IEEE arithmetic, no warnings. */
  static final String OPENCL_FLAGS = "-w";

  private final Map<BoundaryTable, List<Plan>> plans = new IdentityHashMap<>();
  private final long[] launches = new long[KernelKind.values().length];
  private int graphs;

  /** One execution plan and what it was built for. */
  private record Plan(KernelKind kind, int[] subset, int count, double[] data, double[] buffers,
      TornadoExecutionPlan plan) {}

  /** A backend on TornadoVM's default device. */
  public TornadoKernelBackend() {}

  @Override
  public String name() {
    return "tornado";
  }

  @Override
  public int threads() {
    return 1;
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
  public synchronized void fluxCorrect(BoundaryTable table, int[] subset, int count,
      double[] fluxes) {
    launch(KernelKind.FLUX_CORRECT, table, subset, count, fluxes, null);
  }

  @Override
  public synchronized void prepare(BoundaryTable table, double[] data, double[] buffers) {
    if (table.size > 0) {
      find(KernelKind.LOAD, table, table.all, table.size, data, buffers);
      find(KernelKind.UNLOAD, table, table.all, table.size, data, buffers);
    }
  }

  @Override
  public synchronized void release(BoundaryTable table) {
    List<Plan> list = plans.remove(table);
    if (list != null) {
      for (Plan p : list) {
        closePlan(p.plan());
      }
    }
  }

  @Override
  public synchronized long launches(KernelKind kind) {
    return launches[kind.ordinal()];
  }

  @Override
  public synchronized void close() {
    for (List<Plan> list : plans.values()) {
      for (Plan p : list) {
        closePlan(p.plan());
      }
    }
    plans.clear();
  }

  private void launch(KernelKind kind, BoundaryTable table, int[] subset, int count,
      double[] data, double[] buffers) {
    if (count < 0 || count > subset.length) {
      throw new IllegalArgumentException("count outside subset: count=" + count
          + " subset.length=" + subset.length);
    }
    launches[kind.ordinal()]++;
    if (count > 0) {
      find(kind, table, subset, count, data, buffers).plan().execute();
    }
  }

  private Plan find(KernelKind kind, BoundaryTable table, int[] subset, int count,
      double[] data, double[] buffers) {
    List<Plan> list = plans.get(table);
    if (list == null) {
      list = new ArrayList<>();
      plans.put(table, list);
    }
    for (int i = 0; i < list.size(); i++) {
      Plan p = list.get(i);
      if (p.kind() == kind && p.subset() == subset && p.count() == count && p.data() == data
          && p.buffers() == buffers) {
        return p;
      }
    }
    TornadoExecutionPlan plan =
        new TornadoExecutionPlan(graph(kind, table, subset, count, data, buffers));
    plan.withCompilerFlags(TornadoVMBackendType.OPENCL, OPENCL_FLAGS);
    Plan built = new Plan(kind, subset, count, data, buffers, plan);
    list.add(built);
    return built;
  }

  private ImmutableTaskGraph graph(KernelKind kind, BoundaryTable t, int[] subset, int count,
      double[] data, double[] buffers) {
    final int maxRows = maxRows(t, subset, count);
    final String name = "metope" + (graphs++);
    TaskGraph g = new TaskGraph(name)
        .transferToDevice(DataTransferMode.FIRST_EXECUTION, subset, t.ints, t.reals);
    switch (kind) {
      case LOAD:
        g.transferToDevice(DataTransferMode.EVERY_EXECUTION, t.allocated, t.nonzero, data,
                buffers)
            .task("clear", TornadoKernels::clearFlags, subset, count, t.nonzero)
            .task("load", TornadoKernels::load, subset, count, maxRows, t.size, t.ints, t.reals,
                t.allocated, t.nonzero, data, buffers)
            .transferToHost(DataTransferMode.EVERY_EXECUTION, buffers, t.nonzero);
        break;
      case UNLOAD:
        g.transferToDevice(DataTransferMode.EVERY_EXECUTION, t.receiveMode, data, buffers)
            .task("unload", TornadoKernels::unload, subset, count, maxRows, t.size, t.ints,
                t.reals, t.receiveMode, data, buffers)
            .transferToHost(DataTransferMode.EVERY_EXECUTION, data);
        break;
      case PROLONGATE:
        g.transferToDevice(DataTransferMode.EVERY_EXECUTION, t.allocated, data)
            .task("prolongate", TornadoKernels::prolongate, subset, count, maxRows, t.size,
                t.ints, t.reals, t.allocated, data)
            .transferToHost(DataTransferMode.EVERY_EXECUTION, data);
        break;
      case RESTRICT:
      case FLUX_CORRECT:
        g.transferToDevice(DataTransferMode.EVERY_EXECUTION, t.allocated, data)
            .task("restrictRows", TornadoKernels::restrictRows, subset, count, maxRows, t.size, t.ints,
                t.reals, t.allocated, data,
                kind == KernelKind.RESTRICT ? BoundaryOp.RESTRICT : BoundaryOp.FLUX_X1,
                kind == KernelKind.FLUX_CORRECT ? 1 : 0)
            .transferToHost(DataTransferMode.EVERY_EXECUTION, data);
        break;
      default:
        throw new IllegalStateException("unknown kernel kind: kind=" + kind);
    }
    return g.snapshot();
  }

  private static int maxRows(BoundaryTable t, int[] subset, int count) {
    int rows = 0;
    for (int s = 0; s < count; s++) {
      rows = Math.max(rows, t.get(BoundaryTable.ROWS, subset[s]));
    }
    return rows;
  }

  private static void closePlan(TornadoExecutionPlan plan) {
    try {
      plan.close();
    } catch (TornadoExecutionPlanException e) {
      throw new IllegalStateException("closing a TornadoVM execution plan failed: " + e, e);
    }
  }
}
