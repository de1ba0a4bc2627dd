package org.metope.examples.advection;

import java.util.ArrayList;
import java.util.List;
import org.metope.kernels.KernelBackend;
import org.metope.mesh.Mesh;
import org.metope.mesh.BoundaryCommunication;
import org.metope.driver.DriverStatus;
import org.metope.driver.LowStorageIntegrator;
import org.metope.driver.MultiStageDriver;
import org.metope.driver.RunOptions;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.update.Update;
import org.metope.mesh.view.FieldView;
import org.metope.mesh.view.ParFor;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskRegion;
import org.metope.tasking.TaskStatus;
import org.metope.tasking.TaskThreadPool;

/**
 * The advection example's driver (Parthenon's {@code AdvectionDriver}). Each stage is one task
 * region with one list per partition of blocks; a list does, for its partition, what Parthenon's
 * four regions do:
 *
 * <ol>
 *   <li>post the receives of boundary values (into the stage's output) and of flux corrections;
 *   <li>donor-cell fluxes of the stage's input;
 *   <li>flux correction, flux divergence into {@code dUdt}, {@code input = beta input + (1 -
 *       beta) base} and {@code output = input + beta dt dUdt} on every independent field;
 *   <li>boundary exchange of the output, physical boundary conditions, derived fields;
 *   <li>in the last stage, the time step estimate (a regional task) and its reduction, and on an
 *       adaptive mesh the refinement tags.
 * </ol>
 *
 * A partition touches only its own blocks (ghost cells arrive through the boundary tasks), so one
 * region is as safe as Parthenon's four and lets a partition compute while another waits.
 */
public final class AdvectionDriver extends MultiStageDriver {
  /** The container of the flux divergence. */
  public static final String DUDT = "dUdt";

  private final BoundaryCommunication boundaries;
  /** The boundary kernels' backend, told when each stage ends. */
  private final KernelBackend kernels;
  private final AdvectionProblem problem;
  private final AdvectionFluxes fluxKernel;

  /**
   * A driver for {@code mesh}, whose fields are initialised with the containers {@link
   * #containerNames} of {@code integrator}.
   */
  public AdvectionDriver(ParameterInput pin, Mesh mesh, RunOptions options,
      LowStorageIntegrator integrator, TaskThreadPool pool, BoundaryCommunication boundaries) {
    super(pin, mesh, options, integrator, pool);
    this.boundaries = boundaries;
    this.kernels = boundaries.kernels();
    this.problem = new AdvectionProblem(mesh.packages().get(AdvectionPackage.NAME).params());
    this.fluxKernel = new AdvectionFluxes(mesh.resolvedPackages(),
        mesh.packages().get(AdvectionPackage.NAME).params());
  }

  /** The containers the driver needs: the integrator's stages and {@code dUdt}. */
  public static List<String> containerNames(LowStorageIntegrator integrator) {
    List<String> names = new ArrayList<>(integrator.containerNames());
    names.add(DUDT);
    return names;
  }

  /** A device backend prints what the stage moved when {@code METOPE_DEVICE_TRACE=1}. */
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
    int partitions = base.size();
    TaskRegion region = tc.addRegion(partitions);
    for (int p = 0; p < partitions; p++) {
      TaskList tl = region.get(p);
      MeshData mc0 = in.get(p);
      MeshData mc1 = out.get(p);
      MeshData mbase = base.get(p);
      MeshData mdudt = dudt.get(p);
      TaskId receiveBounds = tl.addTask(TaskId.NONE, "StartReceiveBoundBufs",
          () -> boundaries.startReceiveBoundaries(mc1));
      TaskId receiveFluxes = tl.addTask(TaskId.NONE, "StartReceiveFluxCorrections",
          () -> boundaries.startReceiveFluxCorrections(mc0));
      TaskId fluxes = tl.addTask(TaskId.NONE, "CalculateFluxes",
          () -> fluxKernel.calculate(mc0));
      TaskId setFluxes = boundaries.addFluxCorrection(fluxes.and(receiveFluxes), tl, mc0);
      TaskId fluxDiv = tl.addTask(setFluxes, "FluxDivergence",
          () -> Update.fluxDivergence(mc0, mdudt, withFluxes));
      TaskId average = tl.addTask(fluxDiv, "AverageIndependentData",
          () -> Update.averageData(independent, mc0, mbase, integrator.beta(stage)));
      TaskId update = tl.addTask(average, "UpdateIndependentData",
          () -> Update.updateData(independent, mc0, mdudt,
              integrator.beta(stage) * integrator.dt(), mc1));
      // The exchange ends with the physical boundary conditions, as Parthenon's does.
      TaskId exchanged = boundaries.addBoundaryExchange(update.and(receiveBounds), tl, mc1);
      TaskId derived = tl.addTask(exchanged, "FillDerived", () -> {
        mesh.packages().fillDerived(mc1);
        return TaskStatus.COMPLETE;
      });
      if (stage == integrator.nstages()) {
        addEstimateTimestep(derived, tl, mc1, partitions);
        if (mesh.refinement() != null) {
          tl.addTask(derived, "Tag", () -> mesh.refinement().tag(mc1));
        }
      }
    }
    return tc;
  }

  @Override
  protected void userWorkBeforeLoop() {
    out().print("Hello from the advection package in the advection example!\n"
        + "This run is a restart: " + (isRestart() ? 1 : 0) + "\n\n");
  }

  @Override
  protected void userWorkAfterLoop(DriverStatus status) {
    if (mesh.packages().get(AdvectionPackage.NAME).params().getBoolean("compute_error")) {
      AdvectionError.write(mesh, problem, tm, outputDirectory());
    }
  }

  /** {@code my_derived_var = log10(advected + 1e-5)} on the interior of {@code base}. */
  @Override
  protected void userWorkBeforeOutput() {
    for (MeshData md : mesh.meshData("base")) {
      FieldView q = FieldView.of(md, "advected");
      FieldView derived = FieldView.of(md, "my_derived_var");
      ParFor.cells(md, IndexDomain.INTERIOR, (b, k, j, i) ->
          derived.set(b, 0, k, j, i, StrictMath.log10(q.get(b, 0, k, j, i) + 1.0e-5)));
    }
  }

  @Override
  protected String stallDiagnostics() {
    return boundaries.describeChannels();
  }
}
