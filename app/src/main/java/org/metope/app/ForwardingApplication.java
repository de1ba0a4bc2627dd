package org.metope.app;

import java.util.List;
import org.metope.bvals.conditions.BoundaryFunctions;
import org.metope.driver.Driver;
import org.metope.driver.DriverStatus;
import org.metope.driver.EvolutionDriver;
import org.metope.driver.LowStorageIntegrator;
import org.metope.driver.ProblemGenerator;
import org.metope.mesh.field.Packages;
import org.metope.mesh.input.ParameterInput;

/**
 * An {@link Application} that hands every call to another one, so that a subclass changes only
 * what it overrides: e.g. a driver with an extra hook for a diagnostic run, or a problem generator
 * that records what it set, around a shipped application.
 *
 * <pre>{@code
 * Application recorded = new ForwardingApplication(new SparseAdvectionApplication()) {
 *   public Driver makeDriver(Simulation sim) {
 *     Driver driver = super.makeDriver(sim);
 *     ((EvolutionDriver) driver).hooks().setPreStepMeshUserWorkInLoop(record);
 *     return driver;
 *   }
 * };
 * }</pre>
 */
public class ForwardingApplication implements Application {
  private final Application delegate;

  /** An application that forwards every call to {@code delegate}. */
  public ForwardingApplication(Application delegate) {
    this.delegate = delegate;
  }

  /** The application every call goes to. */
  protected final Application delegate() {
    return delegate;
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public String deckBlock() {
    return delegate.deckBlock();
  }

  @Override
  public List<DeckMark> deckMarks() {
    return delegate.deckMarks();
  }

  @Override
  public List<String> otherDeckBlocks() {
    return delegate.otherDeckBlocks();
  }

  @Override
  public String description() {
    return delegate.description();
  }

  @Override
  public Packages processPackages(ParameterInput pin) {
    return delegate.processPackages(pin);
  }

  @Override
  public ProblemGenerator problemGenerator(Packages packages) {
    return delegate.problemGenerator(packages);
  }

  @Override
  public void registerBoundaryFunctions(ParameterInput pin, BoundaryFunctions functions) {
    delegate.registerBoundaryFunctions(pin, functions);
  }

  @Override
  public List<String> requiredKeys() {
    return delegate.requiredKeys();
  }

  @Override
  public List<String> desiredKeys() {
    return delegate.desiredKeys();
  }

  @Override
  public List<String> containerNames(LowStorageIntegrator integrator) {
    return delegate.containerNames(integrator);
  }

  @Override
  public Driver makeDriver(Simulation sim) {
    return delegate.makeDriver(sim);
  }

  @Override
  public void userWorkBeforeLoop(EvolutionDriver driver) {
    delegate.userWorkBeforeLoop(driver);
  }

  @Override
  public void userWorkBeforeOutput(EvolutionDriver driver) {
    delegate.userWorkBeforeOutput(driver);
  }

  @Override
  public void userWorkAfterLoop(EvolutionDriver driver, DriverStatus status) {
    delegate.userWorkAfterLoop(driver, status);
  }
}
