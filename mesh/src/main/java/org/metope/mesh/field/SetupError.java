package org.metope.mesh.field;

/**
 * A package asked at set-up for something it never declared: a field that no package declares, a
 * view of fluxes of a field without {@code WITH_FLUXES}, a field not allocated where a view needs
 * it, a parameter that was never added. The message is the one line the user sees, naming the
 * field or parameter (and block) and what to declare; entry points print it without a stack trace
 * and exit non-zero.
 */
public final class SetupError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An error whose message is the complete user-facing line. */
  public SetupError(String message) {
    super(message);
  }
}
