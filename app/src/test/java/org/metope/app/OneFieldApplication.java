package org.metope.app;

import java.util.function.Function;
import org.metope.driver.Driver;
import org.metope.driver.ProblemGenerator;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;

/**
 * A one-shot application for the runner's tests: its name is its package's and its deck block's,
 * the package declares one field (its metadata made when the packages are processed, so that a
 * refusal is a set-up error), the problem generator sets nothing, and the driver is the test's.
 */
class OneFieldApplication extends DescribedApplication {
  private final String name;
  private final String field;
  private final MetadataFlag[] flags;
  private final Function<Simulation, Driver> driver;

  OneFieldApplication(String name, String field, MetadataFlag[] flags,
      Function<Simulation, Driver> driver) {
    super(ApplicationDescriptor.of(name, name, "a test application with one field"));
    this.name = name;
    this.field = field;
    this.flags = flags.clone();
    this.driver = driver;
  }

  @Override
  public Packages processPackages(ParameterInput pin) {
    StateDescriptor pkg = new StateDescriptor(name);
    pkg.addField(field, Metadata.of(flags));
    Packages packages = new Packages();
    packages.add(pkg);
    return packages;
  }

  @Override
  public ProblemGenerator problemGenerator(Packages packages) {
    return (md, b) -> { };
  }

  @Override
  public Driver makeDriver(Simulation sim) {
    return driver.apply(sim);
  }
}
