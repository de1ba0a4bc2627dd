package org.metope.mesh.input;

/**
 * A user error in an input deck or a command-line override: a bad value, a missing required key,
 * malformed deck syntax, or a value that other code found invalid.
 *
 * <p>The message is the complete line the user sees, naming where the problem is, the key and
 * what was expected, for example {@code uni3d.in:7: parthenon/mesh/nx1 = "6x4": expected an
 * integer}. Entry points print {@link #getMessage()} alone, never the stack trace, and exit
 * non-zero.
 */
public final class InputError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Creates an error whose message is the complete user-facing line. */
  public InputError(String message) {
    super(message);
  }

  /**
   * Formats the standard line {@code WHERE: WHAT: expected EXPECTED}.
   *
   * @param where the source, e.g. {@code uni3d.in:7}, {@code uni3d.in} or {@code command line}
   * @param what the offending item, e.g. {@code parthenon/mesh/nx1 = "6x4"}
   * @param expected what would have been accepted, e.g. {@code an integer}
   */
  public static InputError at(String where, String what, String expected) {
    return new InputError(where + ": " + what + ": expected " + expected);
  }
}
