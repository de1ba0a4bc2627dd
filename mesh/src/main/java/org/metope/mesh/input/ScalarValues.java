package org.metope.mesh.input;

import java.util.List;

/**
 * Converts a parameter holding one value into its type ({@link ValueParser}); a value that does
 * not convert is an {@link InputError} naming where it came from, the key, the value and what was
 * expected. The scalar twin of {@link ListValues}.
 */
final class ScalarValues {
  private ScalarValues() {}

  static int integer(String deckName, Parameter p) {
    Integer v = ValueParser.parseInteger(p.value);
    if (v == null) {
      throw error(deckName, p, "an integer");
    }
    return v;
  }

  /** A finite real, or also {@code inf} (never {@code -inf} or {@code nan}) when allowed. */
  static double real(String deckName, Parameter p, boolean infinityAllowed) {
    Double v = ValueParser.parseReal(p.value);
    boolean allowed = Double.isFinite(v == null ? Double.NaN : v)
        || (infinityAllowed && v != null && v == Double.POSITIVE_INFINITY);
    if (!allowed) {
      throw error(deckName, p, infinityAllowed ? "a real number or inf" : "a finite real number");
    }
    return v;
  }

  static boolean bool(String deckName, Parameter p) {
    Boolean v = ValueParser.parseBoolean(p.value);
    if (v == null) {
      throw error(deckName, p, "a boolean (true or false, 1 or 0)");
    }
    return v;
  }

  /** The value, which must be one of {@code allowed}; {@code expected} says so in the error. */
  static String oneOf(String deckName, Parameter p, List<String> allowed, String expected) {
    if (!allowed.contains(p.value)) {
      throw error(deckName, p, expected);
    }
    return p.value;
  }

  private static InputError error(String deckName, Parameter p, String expected) {
    return InputError.at(p.where(deckName), p.describe(), expected);
  }
}
