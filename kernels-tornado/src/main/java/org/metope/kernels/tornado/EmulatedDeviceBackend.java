package org.metope.kernels.tornado;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.metope.kernels.KernelKind;

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
 */
public final class EmulatedDeviceBackend extends DeviceBackend {
  /** A known-bad transfer strategy to reproduce, or none. */
  public enum Fault {
    /** The correct strategy: only the staged runs come back. */
    NONE,
    /** Each launch also copies the arena it wrote back whole, as the backend once did. */
    WHOLE_ARENA_COPY_BACK,
    /** The table's columns stay as first uploaded, whatever changes on the host. */
    COLUMNS_UPLOADED_ONCE
  }

  private final Fault fault;
  /** Device memory: the copy of each host array (arrays hash by identity); guarded by launches. */
  private final Map<Object, Object> device = new WeakHashMap<>();
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
    super(trace);
    this.fault = fault;
  }

  /**
   * Runs {@code hook} in every launch after the tasks and before the copies back, with the kind
   * of launch and the host arena it writes (the buffer arena for a load, else the data arena).
   */
  public void duringLaunch(BiConsumer<KernelKind, double[]> hook) {
    this.duringLaunch = hook;
  }

  /**
   * Launch hooks for the two ranks of an in-process run that make the other rank write this
   * rank's buffer arena while a launch holds its copies, every time rather than by chance: rank
   * 1's first load waits until rank 0's first load holds its copies, and rank 0's first load then
   * waits until some value of its buffer arena changed (rank 1's messages landing), each for at
   * most {@code patienceNanos}.
   */
  public static final class FirstLoadsOverlap {
    private final CountDownLatch rankZeroHoldsCopies = new CountDownLatch(1);
    private final long patienceNanos;

    /** Hooks that wait at most {@code patienceNanos} for the other rank. */
    public FirstLoadsOverlap(long patienceNanos) {
      this.patienceNanos = patienceNanos;
    }

    /** The hook for {@code rank} (0 or 1) to pass to {@link #duringLaunch}. */
    public BiConsumer<KernelKind, double[]> hook(int rank) {
      AtomicBoolean first = new AtomicBoolean(true);
      return (kind, buffers) -> {
        if (kind != KernelKind.LOAD || !first.getAndSet(false)) {
          return;
        }
        try {
          if (rank == 0) {
            double[] before = buffers.clone();
            rankZeroHoldsCopies.countDown();
            long end = System.nanoTime() + patienceNanos;
            while (Arrays.equals(before, buffers) && System.nanoTime() < end) {
              Thread.sleep(0, 100_000);
            }
          } else {
            rankZeroHoldsCopies.await(patienceNanos, TimeUnit.NANOSECONDS);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      };
    }
  }

  @Override
  public String name() {
    return "tornado";
  }

  @Override
  boolean redeclaresStaleColumns() {
    return fault != Fault.COLUMNS_UPLOADED_ONCE;
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
        copyIn(firstIn);
        executed = true;
      }
      copyIn(everyIn);
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

    private void copyIn(List<Object> arrays) {
      for (Object host : arrays) {
        System.arraycopy(host, 0, on(host), 0, Array.getLength(host));
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
