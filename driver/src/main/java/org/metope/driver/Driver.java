package org.metope.driver;

import java.util.List;

/**
 * What runs a set-up simulation to its end (Parthenon's {@code Driver}): the time loop of an
 * {@link EvolutionDriver}, or a one-shot check that needs no clock.
 */
public interface Driver {
  /**
   * Runs to the end.
   *
   * @return {@link DriverStatus#COMPLETE} or {@link DriverStatus#TIMEOUT} for a run that ended as
   *     it should, {@link DriverStatus#FAILED} for one whose result is wrong (exit code 1)
   */
  DriverStatus execute();

  /** Warnings about the deck found while the driver was made, printed once before it runs. */
  default List<String> warnings() {
    return List.of();
  }
}
