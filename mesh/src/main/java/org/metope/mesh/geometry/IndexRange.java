package org.metope.mesh.geometry;

/**
 * An inclusive range of cell indices {@code [s, e]}, as in Parthenon. Empty when {@code e < s}.
 *
 * @param s first index
 * @param e last index (inclusive)
 */
public record IndexRange(int s, int e) {
  /** Number of indices in the range (0 when empty). */
  public int size() {
    return Math.max(e - s + 1, 0);
  }
}
