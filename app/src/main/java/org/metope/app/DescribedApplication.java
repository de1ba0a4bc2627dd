package org.metope.app;

import java.util.List;

/**
 * An {@link Application} whose name, deck block, description and key lists come from one {@link
 * ApplicationDescriptor} given to the constructor, so that a subclass writes only what runs:
 * {@link #processPackages}, {@link #problemGenerator} and, where it differs from the default, its
 * driver, boundary functions and {@link org.metope.driver.UserWork} methods.
 *
 * <pre>{@code
 * public final class HeatApplication extends DescribedApplication {
 *   public HeatApplication() {
 *     super(ApplicationDescriptor.of("heat", "heat", "heat diffusion (inputs/heat.in)"));
 *   }
 *   public Packages processPackages(ParameterInput pin) {
 *     return Packages.of(HeatPackage.initialize(pin));
 *   }
 *   public ProblemGenerator problemGenerator(Packages packages) {
 *     return HeatPackage::generate;
 *   }
 * }
 * }</pre>
 */
public abstract class DescribedApplication implements Application {
  private final ApplicationDescriptor descriptor;

  /** An application described by {@code descriptor}. */
  protected DescribedApplication(ApplicationDescriptor descriptor) {
    this.descriptor = descriptor;
  }

  /** The descriptor given to the constructor. */
  public final ApplicationDescriptor descriptor() {
    return descriptor;
  }

  @Override
  public final String name() {
    return descriptor.name();
  }

  @Override
  public final String deckBlock() {
    return descriptor.deckBlock();
  }

  @Override
  public final String description() {
    return descriptor.description();
  }

  @Override
  public final List<String> requiredKeys() {
    return descriptor.requiredKeys();
  }

  @Override
  public final List<String> desiredKeys() {
    return descriptor.desiredKeys();
  }
}
