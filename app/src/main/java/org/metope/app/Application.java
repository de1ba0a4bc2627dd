package org.metope.app;

import java.util.List;
import org.metope.bvals.conditions.BoundaryFunction;
import org.metope.bvals.conditions.BoundaryFunctions;
import org.metope.driver.Driver;
import org.metope.driver.FluxDriver;
import org.metope.driver.LowStorageIntegrator;
import org.metope.driver.ProblemGenerator;
import org.metope.driver.UserWork;
import org.metope.mesh.field.Packages;
import org.metope.mesh.input.ParameterInput;

/**
 * A simulation the {@code metope} launcher can run: what a physics project writes, besides its
 * packages, to be run with {@code ./metope -cp my.jar -i my.in} (Parthenon's {@code
 * ApplicationInput}; Parthenon builds one executable per application, Metope has one launcher
 * that picks the application a deck asks for).
 *
 * <p><b>What the application supplies:</b> its {@link #name()}, its deck block ({@link
 * #deckBlock()}), a one-line {@link #description()} for {@code metope --help}, its packages from
 * the deck ({@link #processPackages}), a problem generator ({@link #problemGenerator}), and
 * optionally user boundary functions ({@link #registerBoundaryFunctions}), keys the deck must or
 * should
 * set ({@link #requiredKeys}, {@link #desiredKeys}), work at fixed points of the time loop (the
 * {@link UserWork} methods) and its driver ({@link #makeDriver}, by default a {@link FluxDriver}
 * over every package that registers a flux function). A {@link DescribedApplication} takes the
 * describing methods (name, deck block, description, keys) from one {@link ApplicationDescriptor}.
 *
 * <p><b>What the framework does</b> ({@link ApplicationRunner}): loads the deck and the
 * command-line overrides, or the restart file of {@code -r}; {@code -n}, {@code -m N}, {@code -d},
 * {@code -t}; checks required keys and warns about desired ones, unknown blocks and unread keys
 * (those of the application's own block included); builds the mesh within the memory budget,
 * allocates the fields of {@link #containerNames}, sets up boundary communication and adaptive
 * refinement; runs the problem generator (or restores the restart file's fields); runs the
 * driver on {@code <metope> threads} task threads; and turns the outcome into an exit code: 0 for
 * a run that ended, 2 for a bad deck or command line (one line naming file, line, key and what
 * was expected), 1 for a run that failed.
 *
 * <p><b>How it is found.</b> The launcher lists applications with {@link java.util.ServiceLoader}:
 * a jar on the class path ({@code ./metope -cp my.jar}) names its implementations, one fully
 * qualified class name per line, in {@code META-INF/services/org.metope.app.Application}. An
 * implementation needs a public no-argument constructor. A deck picks one with {@code <metope>
 * application = NAME} (or a fully qualified class name, which needs no service file), or by
 * having the {@link #deckBlock()} of exactly one application (and one of its {@link #deckMarks}
 * where it has some). Names must be unique among the applications found.
 *
 * <pre>{@code
 * public final class DiffusionApplication implements Application {
 *   public String name() { return "diffusion"; }
 *   public String deckBlock() { return "diffusion"; }
 *   public String description() { return "heat diffusion with fluxes (inputs/diffusion_2d.in)"; }
 *   public Packages processPackages(ParameterInput pin) {
 *     Packages packages = new Packages();
 *     packages.add(DiffusionPackage.initialize(pin)); // WITH_FLUXES field, setCalculateFluxes
 *     return packages;
 *   }
 *   public ProblemGenerator problemGenerator(Packages packages) {
 *     return new GaussianProfile(packages.get("diffusion").params())::generate;
 *   }
 * }
 * }</pre>
 *
 * <p>Every method is called on every rank; {@link #processPackages} and {@link #problemGenerator}
 * may be called more than once per process (the launcher's checks, {@code -m N} on an adaptive
 * mesh), so they must not keep state between calls.
 */
public interface Application extends UserWork {
  /**
   * The name a deck gives in {@code <metope> application = NAME}, e.g. {@code advection}: unique
   * among the applications on the class path.
   */
  String name();

  /**
   * The deck block of the application's own keys, e.g. {@code Advection}; a deck with this block
   * and no other application's runs this application. Unread keys in it are warned about.
   */
  String deckBlock();

  /**
   * What else a deck holds, besides {@link #deckBlock()}, when it is this application's; none by
   * default. An application that reads another's block marks its own decks: a deck with the block
   * and none of the marks is the other's, a deck with one of the marks is this one's (Parthenon's
   * {@code fine_advection} reads {@code <Advection>} as its {@code advection} example does; its
   * deck names output variables of its namespace, {@code advection.*}).
   */
  default List<DeckMark> deckMarks() {
    return List.of();
  }

  /**
   * Other deck blocks the application reads, which do not select it (Parthenon's particle_tracers
   * reads {@code <Background>} beside {@code <Tracers>}); none by default. A deck may have them
   * without a warning that no one reads them.
   */
  default List<String> otherDeckBlocks() {
    return List.of();
  }

  /** One line for {@code metope --help}: what it simulates, and an example deck if there is one. */
  String description();

  /**
   * The packages of a run, read from the deck (Parthenon's {@code ProcessPackages}): fields,
   * parameters and callbacks, in the order their callbacks should run.
   *
   * @throws org.metope.mesh.input.InputError for a bad deck value (use {@link
   *     ParameterInput#error})
   */
  Packages processPackages(ParameterInput pin);

  /**
   * Sets the initial state of a new run, block by block (Parthenon's {@code ProblemGenerator}).
   *
   * @param packages the packages {@link #processPackages} made for this run, for their parameters
   */
  ProblemGenerator problemGenerator(Packages packages);

  /**
   * Registers user boundary conditions, per face and by the name a deck gives them ({@code ix1_bc
   * = NAME}; {@link BoundaryFunctions#register(org.metope.mesh.BoundaryFace, BoundaryFunction)}
   * registers Parthenon's unnamed {@code user}); none by default. The built-in names {@code
   * periodic}, {@code outflow} and {@code reflecting} cannot be replaced, and a user condition can
   * apply the built-in {@link BoundaryFunctions#outflow} or {@link BoundaryFunctions#reflect} to
   * the fields it does not set itself.
   */
  default void registerBoundaryFunctions(ParameterInput pin, BoundaryFunctions functions) {}

  /**
   * Keys the deck must set, as {@code block/key} (Parthenon's {@code CheckRequired}); a missing
   * one stops the run at set-up with one line. None by default.
   */
  default List<String> requiredKeys() {
    return List.of();
  }

  /**
   * Keys the deck should set, as {@code block/key} (Parthenon's {@code CheckDesired}); a missing
   * one is a warning. None by default.
   */
  default List<String> desiredKeys() {
    return List.of();
  }

  /**
   * The containers (stage registers) every block holds, {@code base} first; they must be those
   * {@link #makeDriver} uses. By default the {@link FluxDriver}'s.
   */
  default List<String> containerNames(LowStorageIntegrator integrator) {
    return FluxDriver.containerNames(integrator);
  }

  /**
   * The driver that runs the set-up simulation. By default a {@link FluxDriver} with the
   * low-storage stage update, calling this application's {@link UserWork} methods; it needs a
   * package with a flux function.
   */
  default Driver makeDriver(Simulation sim) {
    return sim.fluxDriver(FluxDriver.StageUpdate.LOW_STORAGE, this);
  }
}
