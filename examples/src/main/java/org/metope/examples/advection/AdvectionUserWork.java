package org.metope.examples.advection;

import org.metope.driver.DriverStatus;
import org.metope.driver.EvolutionDriver;
import org.metope.driver.UserWork;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Params;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.view.FieldView;
import org.metope.mesh.view.ParFor;

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
      FieldView q = FieldView.of(md, "advected");
      FieldView derived = FieldView.of(md, "my_derived_var");
      ParFor.cells(md, IndexDomain.INTERIOR, (b, k, j, i) ->
          derived.set(b, 0, k, j, i, StrictMath.log10(q.get(b, 0, k, j, i) + 1.0e-5)));
    }
  }
}
