package org.metope.app;

/**
 * The applications on the class path cannot be used (a listed class cannot be made, two share a
 * name); the message is one sentence for the user, and the launcher exits with code 2.
 */
public final class ApplicationError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An error whose message is the sentence the user sees. */
  public ApplicationError(String message) {
    super(message);
  }
}
