package ${package};

import org.metope.app.Application;
import org.metope.driver.ProblemGenerator;
import org.metope.mesh.field.Packages;
import org.metope.mesh.input.ParameterInput;

/**
 * The application {@code ./metope -cp target/THIS.jar -i inputs/my_package.in} runs: its
 * packages and problem generator; the framework's flux driver runs them with the deck's
 * integrator, outputs and refinement. Listed in {@code
 * META-INF/services/org.metope.app.Application}, which is how the launcher finds it.
 */
public final class MyApplication implements Application {
  @Override
  public String name() {
    return MyPackage.NAME;
  }

  @Override
  public String deckBlock() {
    return MyPackage.NAME;
  }

  @Override
  public String description() {
    return "heat diffusion from a Gaussian (inputs/my_package.in)";
  }

  @Override
  public Packages processPackages(ParameterInput pin) {
    Packages packages = new Packages();
    packages.add(MyPackage.initialize(pin));
    return packages;
  }

  @Override
  public ProblemGenerator problemGenerator(Packages packages) {
    return MyPackage::generate;
  }
}
