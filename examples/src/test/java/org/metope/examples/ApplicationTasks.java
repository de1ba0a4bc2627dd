package org.metope.examples;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.metope.amr.AdaptiveRefinement;
import org.metope.app.Application;
import org.metope.app.Simulation;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessCluster;
import org.metope.driver.LowStorageIntegrator;
import org.metope.driver.FluxDriver;
import org.metope.driver.RunOptions;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.input.ParameterInput;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskNames;
import org.metope.tasking.TaskRegion;

/**
 * The task lists of an application's driver, for tests of task order: the deck's mesh on one
 * rank with the application's packages and containers and, for an adaptive deck, its refinement,
 * no initial state, and the driver the application makes for it.
 */
public final class ApplicationTasks {
  private ApplicationTasks() {}

  /** The flux driver {@code app} makes for the deck {@code pin}. */
  public static FluxDriver driver(Application app, ParameterInput pin) {
    LowStorageIntegrator integrator = LowStorageIntegrator.fromInput(pin);
    MeshConfiguration config = MeshConfiguration.fromInput(pin);
    Mesh mesh = Mesh.build(config, InProcessCluster.singleRank());
    mesh.initializeFields(app.processPackages(pin), app.containerNames(integrator));
    InOneBoundaryCommunication boundaries = InOneBoundaryCommunication.fromInput(pin);
    boundaries.setup(mesh);
    if (config.isAdaptive()) {
      AdaptiveRefinement.fromInput(pin, mesh, boundaries);
    }
    PrintStream discard = new PrintStream(PrintStream.nullOutputStream());
    Simulation sim = new Simulation(pin, mesh, boundaries, integrator,
        RunOptions.of(Path.of("."), discard), null, mesh.communicator(), discard, null);
    return (FluxDriver) app.makeDriver(sim);
  }

  /** Per region of {@code tasks}, per list, the task names in order. */
  public static List<List<List<String>>> names(TaskCollection tasks) {
    List<List<List<String>>> regions = new ArrayList<>();
    for (TaskRegion region : tasks.regions()) {
      List<List<String>> lists = new ArrayList<>();
      for (int p = 0; p < region.size(); p++) {
        lists.add(TaskNames.of(region.get(p)));
      }
      regions.add(lists);
    }
    return regions;
  }
}
