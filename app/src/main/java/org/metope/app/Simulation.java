package org.metope.app;

import java.io.PrintStream;
import org.metope.comm.Communicator;
import org.metope.driver.FluxDriver;
import org.metope.driver.LowStorageIntegrator;
import org.metope.driver.RunOptions;
import org.metope.driver.UserWork;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.Mesh;
import org.metope.mesh.MultigridLevels;
import org.metope.mesh.input.ParameterInput;
import org.metope.tasking.TaskThreadPool;

/**
 * A simulation the framework has set up, as an {@link Application#makeDriver} gets it: the mesh
 * in its initial state (problem generator run, or the restart file read, ghosts filled), and
 * what a driver needs to run it.
 *
 * @param pin the deck with command-line overrides (for a restart, the file's deck)
 * @param mesh this rank's mesh, fields allocated for the application's containers
 * @param boundaries the boundary communication, set up for the mesh
 * @param integrator the deck's {@code <parthenon/time> integrator}
 * @param options output directory, wall-time limit, standard output, restart flag
 * @param pool the threads of {@code <metope> threads} that run the partitions' task lists
 * @param communicator the ranks of the run
 * @param err where warnings and one-line errors go
 * @param multigrid the mesh's multigrid levels ({@code <parthenon/mesh> multigrid = true}), each
 *     with its fields and boundary communication; null without
 */
public record Simulation(ParameterInput pin, Mesh mesh, BoundaryCommunication boundaries,
    LowStorageIntegrator integrator, RunOptions options, TaskThreadPool pool,
    Communicator communicator, PrintStream err, MultigridLevels multigrid) {

  /**
   * A {@link FluxDriver} for this simulation with the default options but {@code update} and
   * {@code work}.
   *
   * @param update how stages combine the containers ({@link FluxDriver.StageUpdate#LOW_STORAGE}
   *     unless a result must match Parthenon's advection example)
   * @param work the application's work at fixed points of the loop
   */
  public FluxDriver fluxDriver(FluxDriver.StageUpdate update, UserWork work) {
    return fluxDriver(FluxDriver.Options.DEFAULT.withStageUpdate(update).withUserWork(work));
  }

  /** A {@link FluxDriver} for this simulation that runs its stages as {@code settings} say. */
  public FluxDriver fluxDriver(FluxDriver.Options settings) {
    return new FluxDriver(pin, mesh, options, integrator, pool, boundaries, settings);
  }
}
