package org.metope.driver;

import java.math.BigDecimal;
import java.util.List;
import org.metope.driver.FluxDriver.StageUpdate;
import org.metope.mesh.input.ParameterInput;

/**
 * The deck's say in a {@link FluxDriver}'s stage update, {@code <metope> stage_update}:
 *
 * <ul>
 *   <li>{@code consistent} (the default): the application's update where it is a consistent
 *       scheme for the deck's integrator, else {@link StageUpdate#LOW_STORAGE}. The advection
 *       examples' update (Parthenon's) therefore runs with {@code rk1}, {@code rk2} and {@code
 *       rk3}, where it gives Parthenon's bits, and the low-storage form with {@code vl2} and
 *       {@code rk4};
 *   <li>{@code low_storage}: the low-storage form whatever the application chose;
 *   <li>{@code parthenon}: Parthenon's advection-example update with every integrator, to
 *       reproduce Parthenon's outputs; with {@code vl2} or {@code rk4} it is not a consistent
 *       scheme, and the run says so once at start-up, naming the key that selects one.
 * </ul>
 */
public final class StageUpdateChoice {
  /** The deck block of the key. */
  public static final String BLOCK = "metope";
  /** The key. */
  public static final String KEY = "stage_update";
  /** The values the key takes. */
  public static final List<String> VALUES = List.of("consistent", "low_storage", "parthenon");

  private StageUpdateChoice() {}

  /**
   * The update a driver runs for an application that chose {@code chosen}; adds to {@code
   * announcements} the line that says when the deck asked for a scheme that is not consistent.
   *
   * @throws org.metope.mesh.input.InputError for a value not in {@link #VALUES}
   */
  public static StageUpdate resolve(ParameterInput pin, StageUpdate chosen,
      LowStorageIntegrator integrator, List<String> announcements) {
    String value = pin.getOrAddString(BLOCK, KEY, VALUES.get(0), VALUES);
    StageUpdate update = switch (value) {
      case "low_storage" -> StageUpdate.LOW_STORAGE;
      case "parthenon" -> StageUpdate.ADVECTION_EXAMPLE;
      default -> chosen.isConsistentWith(integrator) ? chosen : StageUpdate.LOW_STORAGE;
    };
    if (!update.isConsistentWith(integrator)) {
      announcements.add(pin.deckName() + ": <" + BLOCK + "> " + KEY + " = " + value
          + " with <parthenon/time> integrator = " + integrator.name() + " runs Parthenon's"
          + " advection-example stage update, which advances the solution by "
          + steps(update.advancePerStep(integrator)) + " dt per step, not dt (not a consistent"
          + " scheme); " + KEY + " = consistent selects one that is");
    }
    return update;
  }

  /** {@code factor} to four decimals, without trailing zeros ({@code 1.5}). */
  private static String steps(double factor) {
    return BigDecimal.valueOf(Math.round(factor * 1e4) / 1e4).stripTrailingZeros()
        .toPlainString();
  }
}
