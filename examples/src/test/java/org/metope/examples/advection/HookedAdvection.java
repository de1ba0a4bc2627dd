package org.metope.examples.advection;

import org.metope.app.Application;
import org.metope.app.ForwardingApplication;
import org.metope.app.Simulation;
import org.metope.driver.Driver;
import org.metope.driver.EvolutionDriver;
import org.metope.driver.UserWorkInLoop;

/** The advection application with a post-step hook on its driver: for tests that watch cycles. */
final class HookedAdvection {
  private HookedAdvection() {}

  /** The advection application whose driver runs {@code hook} after every step. */
  static Application withPostStepHook(UserWorkInLoop hook) {
    return new ForwardingApplication(new AdvectionApplication()) {
      @Override
      public Driver makeDriver(Simulation sim) {
        Driver driver = super.makeDriver(sim);
        ((EvolutionDriver) driver).hooks().setPostStepMeshUserWorkInLoop(hook);
        return driver;
      }
    };
  }
}
