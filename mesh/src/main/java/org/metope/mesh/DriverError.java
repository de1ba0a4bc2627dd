package org.metope.mesh;

/**
 * A run that cannot go on for a reason the user can act on, such as a time step that stays below
 * {@code <parthenon/time> dt_min}. The message is the one line the user sees; entry points print
 * it without a stack trace and exit non-zero.
 */
public final class DriverError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An error whose message is the complete user-facing line. */
  public DriverError(String message) {
    super(message);
  }
}
