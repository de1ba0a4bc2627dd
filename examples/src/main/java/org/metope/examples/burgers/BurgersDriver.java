package org.metope.examples.burgers;

import java.util.List;
import org.metope.mesh.Mesh;
import org.metope.mesh.BoundaryCommunication;
import org.metope.driver.LowStorageIntegrator;
import org.metope.driver.MultiStageDriver;
import org.metope.driver.RunOptions;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.update.Update;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskRegion;
import org.metope.tasking.TaskStatus;
import org.metope.tasking.TaskThreadPool;

/**
 * Parthenon-VIBE's driver (its {@code BurgersDriver}). Each stage is one task region with one
 * list per partition of blocks; a list does, for its partition:
 *
 * <ol>
 *   <li>post the receives of boundary values (into the stage's output) and of flux corrections;
 *   <li>reconstruction and HLL fluxes of the stage's input ({@link BurgersFluxes});
 *   <li>flux correction, flux divergence into {@code dUdt}, {@code input = beta input + (1 -
 *       beta) base} and {@code output = input + beta dt dUdt};
 *   <li>boundary exchange of the output, physical boundary conditions, the derived field. As in
 *       Parthenon's benchmark, the exchange does not prolongate: ghost cells that face a coarser
 *       block keep the values of the last start-up or remesh fill (Parthenon's driver never adds
 *       its {@code ProlongateBounds} task). {@code <burgers> prolongate_ghosts = true} prolongates
 *       them in every stage, as an adaptive scheme should; answers then differ from Parthenon's
 *       near level boundaries;
 *   <li>in the last stage, the time step estimate and its reduction, and on an adaptive mesh the
 *       refinement tags.
 * </ol>
 *
 * Parthenon puts the boundary conditions and tagging in a second region of one list per block;
 * the derived field and the time step read interior cells only, so one region gives the same
 * answers and lets a partition compute while another waits.
 */
public final class BurgersDriver extends MultiStageDriver {
  private final BoundaryCommunication boundaries;
  private final boolean prolongateGhosts;

  /**
   * A driver for {@code mesh}, whose fields are initialised with the containers {@link
   * #containerNames} of {@code integrator}.
   */
  public BurgersDriver(ParameterInput pin, Mesh mesh, RunOptions options,
      LowStorageIntegrator integrator, TaskThreadPool pool, BoundaryCommunication boundaries) {
    super(pin, mesh, options, integrator, pool);
    this.boundaries = boundaries;
    this.prolongateGhosts = mesh.packages().get(BurgersPackage.NAME).params()
        .getBoolean("prolongate_ghosts");
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
          () -> BurgersFluxes.calculateFluxes(mc0));
      TaskId setFluxes = boundaries.addFluxCorrection(fluxes.and(receiveFluxes), tl, mc0);
      TaskId fluxDiv = tl.addTask(setFluxes, "FluxDivergence",
          () -> Update.fluxDivergence(mc0, mdudt, withFluxes));
      TaskId update = addAverageAndUpdate(fluxDiv, tl, stage, independent, mc0, mbase, mdudt,
          mc1);
      TaskId exchanged = prolongateGhosts
          ? boundaries.addBoundaryExchange(update.and(receiveBounds), tl, mc1)
          : boundaries.addBoundaryExchangeWithoutProlongation(update.and(receiveBounds), tl,
              mc1);
      TaskId bounds = tl.addTask(exchanged, "ApplyBoundaryConditions",
          () -> boundaries.applyBoundaryConditions(mc1));
      TaskId derived = tl.addTask(bounds, "FillDerived", () -> {
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
  protected String stallDiagnostics() {
    return boundaries.describeChannels();
  }
}
