package org.metope.examples.sparseadvection;

import java.util.List;
import org.metope.driver.LowStorageIntegrator;
import org.metope.driver.MultiStageDriver;
import org.metope.driver.RunOptions;
import org.metope.kernels.KernelBackend;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.update.SparseDeallocation;
import org.metope.mesh.update.Update;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskRegion;
import org.metope.tasking.TaskThreadPool;

/**
 * The sparse_advection example's driver (Parthenon's {@code SparseAdvectionDriver}). Per stage,
 * one list per partition of blocks:
 *
 * <ol>
 *   <li>post the receives of boundary values (into the stage's output) and of flux corrections;
 *   <li>donor-cell fluxes of the stage's input ({@link SparseAdvectionFluxes});
 *   <li>flux correction, flux divergence into {@code dUdt}, {@code input = beta input + (1 -
 *       beta) base} and {@code output = input + beta dt dUdt} on every independent field;
 *   <li>boundary exchange of the output (with the physical boundary conditions), in which a block
 *       that receives real data for an unallocated field allocates it;
 *   <li>in the last stage, the sparse deallocation ({@link SparseDeallocation}, Parthenon's
 *       {@code SparseDealloc}).
 * </ol>
 *
 * In the last stage a second region follows, as Parthenon's does, so that it sees every
 * deallocation of the cycle: the time step estimate and, on an adaptive mesh, the refinement
 * tags. Parthenon computes the fluxes per block in a region of their own; a partition touches
 * only its own blocks, so computing them in the partition's list gives the same values.
 */
final class SparseAdvectionDriver extends MultiStageDriver {
  private final BoundaryCommunication boundaries;
  private final KernelBackend kernels;
  private final SparseDeallocation deallocation;

  SparseAdvectionDriver(ParameterInput pin, Mesh mesh, RunOptions options,
      LowStorageIntegrator integrator, TaskThreadPool pool, BoundaryCommunication boundaries) {
    super(pin, mesh, options, integrator, pool);
    this.boundaries = boundaries;
    this.kernels = boundaries.kernels();
    this.deallocation = new SparseDeallocation(mesh.config().sparse());
  }

  @Override
  protected void stageFinished(int stage) {
    kernels.endStage(tm.ncycle(), stage);
  }

  @Override
  protected TaskCollection makeTaskCollection(int stage) {
    TaskCollection tc = new TaskCollection();
    List<MeshData> base = mesh.meshData("base");
    List<MeshData> in = mesh.meshData(integrator.stageName(stage - 1));
    List<MeshData> out = mesh.meshData(integrator.stageName(stage));
    List<MeshData> dudt = mesh.meshData(DUDT);
    int[] withFluxes = Update.fieldIds(mesh.resolvedPackages(), MetadataFlag.WITH_FLUXES,
        MetadataFlag.CELL);
    int[] independent = Update.fieldIds(mesh.resolvedPackages(), MetadataFlag.INDEPENDENT);
    boolean lastStage = stage == integrator.nstages();
    int partitions = base.size();
    TaskRegion region = tc.addRegion(partitions);
    for (int p = 0; p < partitions; p++) {
      TaskList tl = region.get(p);
      MeshData mc0 = in.get(p);
      MeshData mc1 = out.get(p);
      MeshData mbase = base.get(p);
      MeshData mdudt = dudt.get(p);
      TaskId receiveFluxes = tl.addTask(TaskId.NONE, "StartReceiveFluxCorrections",
          () -> boundaries.startReceiveFluxCorrections(mc0));
      TaskId receiveBounds = tl.addTask(TaskId.NONE, "StartReceiveBoundBufs",
          () -> boundaries.startReceiveBoundaries(mc1));
      TaskId fluxes = tl.addTask(TaskId.NONE, "CalculateFluxes",
          () -> SparseAdvectionFluxes.calculateFluxes(mc0, withFluxes));
      TaskId setFluxes = boundaries.addFluxCorrection(fluxes.and(receiveFluxes), tl, mc0);
      TaskId fluxDiv = tl.addTask(setFluxes, "FluxDivergence",
          () -> Update.fluxDivergence(mc0, mdudt, withFluxes));
      TaskId update = addAverageAndUpdate(fluxDiv, tl, stage, independent, mc0, mbase, mdudt,
          mc1);
      TaskId exchanged = boundaries.addBoundaryExchange(update.and(receiveBounds), tl, mc1);
      if (lastStage) {
        tl.addTask(exchanged, "SparseDealloc", () -> deallocation.sparseDealloc(mc1));
      }
    }
    if (lastStage) {
      TaskRegion after = tc.addRegion(partitions);
      for (int p = 0; p < partitions; p++) {
        TaskList tl = after.get(p);
        MeshData mc1 = out.get(p);
        addEstimateTimestep(TaskId.NONE, tl, mc1, partitions);
        if (mesh.refinement() != null) {
          tl.addTask(TaskId.NONE, "Tag", () -> mesh.refinement().tag(mc1));
        }
      }
    }
    return tc;
  }

  /** The allocation counts and memory per block, after every step. */
  @Override
  protected void postStepUserWorkInLoop() {
    SparseAdvectionDiagnostics.print(mesh, out());
  }

  @Override
  protected String stallDiagnostics() {
    return boundaries.describeChannels();
  }
}
