package org.metope.mesh.input;

import java.util.List;

/**
 * Converts a parameter holding a comma-separated list ({@link ValueParser#splitList}) into typed
 * elements; a bad element is an {@link InputError} naming the key and the element's position.
 */
final class ListValues {
  private ListValues() {}

  /** Every element as an integer. */
  static int[] integers(String deckName, Parameter p) {
    List<String> elements = ValueParser.splitList(p.value);
    int[] values = new int[elements.size()];
    for (int e = 0; e < values.length; e++) {
      Integer v = ValueParser.parseInteger(elements.get(e));
      if (v == null) {
        throw error(deckName, p, "integers", e, elements.get(e));
      }
      values[e] = v;
    }
    return values;
  }

  /** Every element as a finite real ({@code nan} and {@code inf} are refused). */
  static double[] finiteReals(String deckName, Parameter p) {
    List<String> elements = ValueParser.splitList(p.value);
    double[] values = new double[elements.size()];
    for (int e = 0; e < values.length; e++) {
      Double v = ValueParser.parseReal(elements.get(e));
      if (v == null || !Double.isFinite(v)) {
        throw error(deckName, p, "finite reals", e, elements.get(e));
      }
      values[e] = v;
    }
    return values;
  }

  private static InputError error(String deckName, Parameter p, String kind, int element,
      String text) {
    return InputError.at(p.where(deckName), p.describe(), "a comma-separated list of " + kind
        + " (element " + (element + 1) + " is \"" + text + "\")");
  }
}
