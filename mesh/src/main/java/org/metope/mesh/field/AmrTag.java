package org.metope.mesh.field;

/**
 * A block's refinement recommendation (Parthenon's {@code AmrTag}). Refinement checks write the
 * {@code int} {@link #value} per block so that tag arrays stay primitive; several packages'
 * recommendations combine by taking the maximum, so any package asking to refine wins, and a
 * block derefines only when every package agrees.
 */
public enum AmrTag {
  /** Merge with siblings into the parent block: -1. */
  DEREFINE(-1),
  /** Keep the current level: 0. */
  SAME(0),
  /** Split into children: 1. */
  REFINE(1);

  /** {@link #DEREFINE}'s value, for tag arrays. */
  public static final int DEREFINE_VALUE = -1;
  /** {@link #SAME}'s value, for tag arrays. */
  public static final int SAME_VALUE = 0;
  /** {@link #REFINE}'s value, for tag arrays. */
  public static final int REFINE_VALUE = 1;

  /** The value written in tag arrays. */
  public final int value;

  AmrTag(int value) {
    this.value = value;
  }

  /** The tag of a value in a tag array. */
  public static AmrTag of(int value) {
    return switch (value) {
      case DEREFINE_VALUE -> DEREFINE;
      case SAME_VALUE -> SAME;
      case REFINE_VALUE -> REFINE;
      default -> throw new IllegalArgumentException("AmrTag value=" + value
          + " is none of -1 (derefine), 0 (same), 1 (refine)");
    };
  }
}
