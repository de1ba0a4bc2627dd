package org.metope.mesh.view;

/**
 * The one switch for index checks in views ({@link FieldView}, {@link BlockView}, {@link
 * FluxView}, {@link VariablePack}): with {@code -Dmetope.view.checks=true} every access checks
 * its block, component and cell indices against the field's extents and throws with {@code
 * name=value} pairs, so that an index that lands in another block's or field's values (which the
 * arena's own bounds check cannot see) is caught. Off by default: the constant is {@code static
 * final}, so the JIT removes the checks entirely.
 */
public final class ViewChecks {
  /** The system property that turns checks on. */
  public static final String PROPERTY = "metope.view.checks";
  /** Whether views check every index; fixed when the class loads. */
  public static final boolean ENABLED = Boolean.getBoolean(PROPERTY);

  private ViewChecks() {}

  /** Throws when {@code value} is outside {@code [0, extent)}. */
  static void require(String what, int value, int extent, String field) {
    if (value < 0 || value >= extent) {
      throw new IndexOutOfBoundsException("view index " + what + "=" + value + " outside [0, "
          + extent + ") of field=" + field);
    }
  }
}
