package org.metope.mesh.geometry;

import java.util.Arrays;

/**
 * A box in physical space with its cell counts: the whole mesh, or one block (Parthenon's {@code
 * RegionSize}). Axes are numbered 0 (x1), 1 (x2), 2 (x3). A <em>symmetry</em> axis is an inactive
 * one (the mesh has one cell along it): it has one cell, no ghosts and is never refined.
 */
public final class RegionSize {
  private final double[] xmin;
  private final double[] xmax;
  private final int[] nx;
  private final boolean[] symmetry;

  /**
   * A region from per-axis arrays of length 3 (copied).
   *
   * @param xmin lower bounds
   * @param xmax upper bounds
   * @param nx cell counts
   * @param symmetry which axes are inactive
   */
  public RegionSize(double[] xmin, double[] xmax, int[] nx, boolean[] symmetry) {
    if (xmin.length != 3 || xmax.length != 3 || nx.length != 3 || symmetry.length != 3) {
      throw new IllegalArgumentException("RegionSize needs 3 entries per array");
    }
    this.xmin = xmin.clone();
    this.xmax = xmax.clone();
    this.nx = nx.clone();
    this.symmetry = symmetry.clone();
  }

  /** Lower bound along {@code axis}. */
  public double xmin(int axis) {
    return xmin[axis];
  }

  /** Upper bound along {@code axis}. */
  public double xmax(int axis) {
    return xmax[axis];
  }

  /** Cells along {@code axis}. */
  public int nx(int axis) {
    return nx[axis];
  }

  /** Whether {@code axis} is inactive (a symmetry direction). */
  public boolean isSymmetry(int axis) {
    return symmetry[axis];
  }

  /** Number of active axes (those that are not symmetry axes). */
  public int ndim() {
    return symmetry[2] ? (symmetry[1] ? 1 : 2) : 3;
  }

  /**
   * Maps a position {@code u} in [-0.5, 0.5] across this region to a physical coordinate along
   * {@code axis}, the same way Parthenon does, so that mirrored positions give mirrored values.
   */
  public double symmetrizedLogicalToActualPosition(double u, int axis) {
    return 0.5 * (xmin[axis] + xmax[axis]) + (u * xmax[axis] - u * xmin[axis]);
  }

  /** This region with new bounds along {@code axis}. */
  public RegionSize withBounds(int axis, double lower, double upper) {
    double[] lo = xmin.clone();
    double[] hi = xmax.clone();
    lo[axis] = lower;
    hi[axis] = upper;
    return new RegionSize(lo, hi, nx, symmetry);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RegionSize r && Arrays.equals(xmin, r.xmin) && Arrays.equals(xmax, r.xmax)
        && Arrays.equals(nx, r.nx) && Arrays.equals(symmetry, r.symmetry);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(xmin) * 31 + Arrays.hashCode(nx);
  }

  @Override
  public String toString() {
    return "RegionSize[x=" + Arrays.toString(xmin) + ".." + Arrays.toString(xmax) + " nx="
        + Arrays.toString(nx) + " symmetry=" + Arrays.toString(symmetry) + "]";
  }
}
