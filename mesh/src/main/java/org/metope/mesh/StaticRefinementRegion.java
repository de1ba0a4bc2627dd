package org.metope.mesh;

/**
 * One {@code <parthenon/static_refinementN>} section: a box of the mesh that is refined to {@code
 * level} (counted from the root grid, which is level 0) for the whole run. Bounds of inactive axes
 * are the mesh's.
 *
 * @param block the deck section it came from, for error messages
 * @param x1min lower x1 bound
 * @param x1max upper x1 bound
 * @param x2min lower x2 bound
 * @param x2max upper x2 bound
 * @param x3min lower x3 bound
 * @param x3max upper x3 bound
 * @param level refinement level above the root grid (at least 1)
 */
public record StaticRefinementRegion(
    String block,
    double x1min,
    double x1max,
    double x2min,
    double x2max,
    double x3min,
    double x3max,
    int level) {

  /** Lower bound along {@code axis}. */
  public double xmin(int axis) {
    return axis == 0 ? x1min : axis == 1 ? x2min : x3min;
  }

  /** Upper bound along {@code axis}. */
  public double xmax(int axis) {
    return axis == 0 ? x1max : axis == 1 ? x2max : x3max;
  }
}
