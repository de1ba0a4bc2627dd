package org.metope.driver;

/**
 * Application work at fixed points of the time loop (the user-work functions of Parthenon's
 * {@code ApplicationInput}). Every method does nothing by default; a {@link FluxDriver} calls
 * them where {@link EvolutionDriver} names them, on every rank (print through {@link
 * EvolutionDriver#out()}, which discards on ranks other than 0).
 */
public interface UserWork {
  /** No work anywhere. */
  UserWork NONE = new UserWork() {};

  /** Once the first step is set, before the initial outputs ({@code UserWorkBeforeLoop}). */
  default void userWorkBeforeLoop(EvolutionDriver driver) {}

  /** Before each step ({@code PreStepMeshUserWorkInLoop}). */
  default void preStepUserWorkInLoop(EvolutionDriver driver) {}

  /** After each step, before the clock advances ({@code PostStepMeshUserWorkInLoop}). */
  default void postStepUserWorkInLoop(EvolutionDriver driver) {}

  /** Before outputs other than history are written ({@code UserMeshWorkBeforeOutput}). */
  default void userWorkBeforeOutput(EvolutionDriver driver) {}

  /** After the loop, before the final outputs ({@code UserWorkAfterLoop}). */
  default void userWorkAfterLoop(EvolutionDriver driver, DriverStatus status) {}
}
