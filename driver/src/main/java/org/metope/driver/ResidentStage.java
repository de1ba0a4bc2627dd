package org.metope.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleSupplier;
import org.metope.kernels.KernelBackend;
import org.metope.kernels.body.StageLaunch;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.update.Update;
import org.metope.tasking.Task;
import org.metope.tasking.TaskStatus;

/**
 * The task bodies of a {@link FluxDriver} stage on a device-resident kernel backend ({@link
 * KernelBackend#resident}): the fluxes, the flux divergence, the weighted sums, and where the
 * packages describe them as launches the derived fields and the time step estimate, run as {@link
 * StageLaunch}es on the backend's copy of the arena, built once per partition when the task
 * collection is built (a remesh builds new ones); everything else that touches fields on the host
 * ({@link #onHost}) acquires the host copy first. On a backend that is not resident the same
 * methods run the host code without launches or acquires, so the JVM path stays as it was.
 */
final class ResidentStage {
  private final KernelBackend kernels;

  ResidentStage(KernelBackend kernels) {
    this.kernels = kernels;
  }

  /** Whether the stage's physics runs on the device. */
  boolean resident() {
    return kernels.resident();
  }

  /**
   * {@code work} with the host copy of {@code md}'s arena acquired for reading or writing; on a
   * backend that is not resident, {@code work} as it is.
   */
  Task onHost(MeshData md, boolean write, Task work) {
    if (!kernels.resident()) {
      return work;
    }
    return () -> {
      kernels.acquireHost(md.data(), write);
      try {
        return work.run();
      } finally {
        kernels.releaseHost(md.data());
      }
    };
  }

  /**
   * The fluxes of every package on {@code md}: as launches where every package's flux function
   * describes itself ({@link org.metope.mesh.field.FluxFunction#fluxLaunches}), else {@code
   * host} with the host copy acquired for writing.
   */
  Task fluxes(MeshData md, StateDescriptor[] packages, int[][] fields, Task host) {
    if (!kernels.resident()) {
      return host;
    }
    List<StageLaunch> launches = new ArrayList<>();
    for (int n = 0; n < packages.length; n++) {
      List<StageLaunch> own = packages[n].calculateFluxes().fluxLaunches(md, fields[n]);
      if (own == null) {
        return onHost(md, true, host);
      }
      launches.addAll(own);
    }
    return launching(md, launches);
  }

  /**
   * The packages' derived fields of {@code md}: as launches where every fill-derived callback
   * describes itself ({@link Packages#fillDerivedLaunches}), else {@code host} with the host copy
   * acquired for writing.
   */
  Task fillDerived(MeshData md, Packages packages, Task host) {
    if (!kernels.resident()) {
      return host;
    }
    List<StageLaunch> launches = packages.fillDerivedLaunches(md);
    return launches == null ? onHost(md, true, host) : launching(md, launches);
  }

  /**
   * The time step estimate of {@code md} on the device, as {@link Packages#estimateTimestep}
   * computes it on the host: the packages whose estimate reads fields run their {@link
   * StateDescriptor#timestepLaunch} (only one smallest value per block crosses) and the others
   * estimate on the host, the minimum taken in package order. Null when the backend is not
   * resident or some package's estimate reads fields without a launch.
   */
  DoubleSupplier timestep(MeshData md, Packages packages) {
    if (!kernels.resident()) {
      return null;
    }
    List<StateDescriptor> all = packages.all();
    StageLaunch[] launches = new StageLaunch[all.size()];
    for (int n = 0; n < launches.length; n++) {
      if (all.get(n).timestepReadsFields()) {
        launches[n] = all.get(n).timestepLaunch(md);
        if (launches[n] == null) {
          return null;
        }
      }
    }
    return () -> {
      double dt = Double.MAX_VALUE;
      for (int n = 0; n < launches.length; n++) {
        StateDescriptor pkg = all.get(n);
        dt = Math.min(dt, launches[n] == null ? pkg.estimateTimestep(md)
            : pkg.timestepFromSmallest(md, smallest(md, launches[n])));
      }
      return dt;
    };
  }

  /** Runs a smallest-step launch on the device and returns the smallest of its results. */
  private double smallest(MeshData md, StageLaunch launch) {
    kernels.stage(launch, md.data(), 0.0, 0.0);
    double smallest = Double.MAX_VALUE;
    for (int e = 0; e < launch.count; e++) {
      smallest = launch.results[e] < smallest ? launch.results[e] : smallest;
    }
    return smallest;
  }

  /** A task that runs {@code launches} in order on the device copy of {@code md}'s arena. */
  private Task launching(MeshData md, List<StageLaunch> launches) {
    return () -> {
      for (StageLaunch l : launches) {
        kernels.stage(l, md.data(), 0.0, 0.0);
      }
      return TaskStatus.COMPLETE;
    };
  }

  /** {@link Update#fluxDivergence} of {@code in} into {@code dudt}. */
  Task divergence(MeshData in, MeshData dudt, int[] fields) {
    if (!kernels.resident()) {
      return () -> Update.fluxDivergence(in, dudt, fields);
    }
    StageLaunch launch = Update.divergenceLaunch(in, dudt, fields);
    return () -> {
      kernels.stage(launch, in.data(), 0.0, 0.0);
      return TaskStatus.COMPLETE;
    };
  }

  /**
   * {@link Update#weightedSumData}: {@code out = w1 in1 + w2 in2} with the weights as they are
   * when the task runs.
   */
  Task weightedSum(int[] fields, MeshData in1, MeshData in2, DoubleSupplier w1,
      DoubleSupplier w2, MeshData out) {
    if (!kernels.resident()) {
      return () -> Update.weightedSumData(fields, in1, in2, w1.getAsDouble(), w2.getAsDouble(),
          out);
    }
    StageLaunch launch = Update.weightedSumLaunch(fields, in1, in2, out);
    return () -> {
      kernels.stage(launch, in1.data(), w1.getAsDouble(), w2.getAsDouble());
      return TaskStatus.COMPLETE;
    };
  }
}
