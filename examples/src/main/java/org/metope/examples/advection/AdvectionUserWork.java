package org.metope.examples.advection;

import org.metope.driver.DriverStatus;
import org.metope.driver.EvolutionDriver;
import org.metope.driver.UserWork;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Params;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * The advection example's work around the time loop, as in Parthenon's example: a greeting
 * before the loop, {@code my_derived_var = log10(advected + 1e-5)} before outputs, and with
 * {@code compute_error} the error file after the loop ({@link AdvectionError}).
 */
final class AdvectionUserWork implements UserWork {
  @Override
  public void userWorkBeforeLoop(EvolutionDriver driver) {
    driver.out().print("Hello from the advection package in the advection example!\n"
        + "This run is a restart: " + (driver.isRestart() ? 1 : 0) + "\n\n");
  }

  @Override
  public void userWorkAfterLoop(EvolutionDriver driver, DriverStatus status) {
    Params params = driver.mesh().packages().get(AdvectionPackage.NAME).params();
    if (params.getBoolean("compute_error")) {
      AdvectionError.write(driver.mesh(), new AdvectionProblem(params), driver.time(),
          driver.outputDirectory());
    }
  }

  /** {@code my_derived_var = log10(advected + 1e-5)} on the interior of {@code base}. */
  @Override
  public void userWorkBeforeOutput(EvolutionDriver driver) {
    for (MeshData md : driver.mesh().meshData("base")) {
      int q = md.state().fieldId("advected");
      int derived = md.state().fieldId("my_derived_var");
      double[] a = md.data();
      for (int b = 0; b < md.numBlocks(); b++) {
        IndexShape cells = md.block(b).cellBounds();
        for (int k = start(cells, 2); k <= end(cells, 2); k++) {
          for (int j = start(cells, 1); j <= end(cells, 1); j++) {
            for (int i = start(cells, 0); i <= end(cells, 0); i++) {
              a[md.index(derived, b, 0, k, j, i)] =
                  StrictMath.log10(a[md.index(q, b, 0, k, j, i)] + 1.0e-5);
            }
          }
        }
      }
    }
  }

  private static int start(IndexShape cells, int axis) {
    return cells.start(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }

  private static int end(IndexShape cells, int axis) {
    return cells.end(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }
}
