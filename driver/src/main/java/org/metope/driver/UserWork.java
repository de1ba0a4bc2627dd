package org.metope.driver;

/**
 * Application work before and after the time loop and before outputs (the user-work functions of
 * Parthenon's {@code ApplicationInput} outside the loop; the work around every step is {@link
 * LoopHooks}, set on {@link EvolutionDriver#hooks()}). Every method does nothing by default; a
 * {@link FluxDriver} calls them where {@link EvolutionDriver} names them, on every rank (print
 * through {@link EvolutionDriver#out()}, which discards on ranks other than 0).
 */
public interface UserWork {
  /** No work anywhere. */
  UserWork NONE = new UserWork() {};

  /** Once the first step is set, before the initial outputs ({@code UserWorkBeforeLoop}). */
  default void userWorkBeforeLoop(EvolutionDriver driver) {}

  /** Before outputs other than history are written ({@code UserMeshWorkBeforeOutput}). */
  default void userWorkBeforeOutput(EvolutionDriver driver) {}

  /** After the loop, before the final outputs ({@code UserWorkAfterLoop}). */
  default void userWorkAfterLoop(EvolutionDriver driver, DriverStatus status) {}
}
