package org.metope.mesh.geometry;

/**
 * Uniform Cartesian coordinates of one block (Parthenon's {@code UniformCartesian}): equal cell
 * widths per axis, indexed like the block's {@link IndexShape} (ghosts included, so index {@code
 * nghost} is the first interior cell along an active axis).
 *
 * <p>Positions are {@code xf(axis, idx) = x0 + idx dx} for the face below cell {@code idx} and
 * {@code xc(axis, idx) = x0 + (idx + 0.5) dx} for its centre, where {@code x0} is the face below
 * index 0 (the block's lower bound minus its ghost cells). An inactive axis has one cell spanning
 * the whole mesh.
 */
public final class UniformCartesian {
  private final double[] dx = new double[3];
  private final double[] x0 = new double[3];
  private final int[] istart = new int[3];
  private final double[] area = new double[3];
  private final double cellVolume;
  /** {@link #coarsened coarsened(2)}, made on first use (every field above is final). */
  private UniformCartesian coarsenedByTwo;

  /**
   * Coordinates of a block.
   *
   * @param block the block's region and interior cell counts
   * @param nghost ghost cells on each side of an active axis
   */
  public UniformCartesian(RegionSize block, int nghost) {
    for (int axis = 0; axis < 3; axis++) {
      dx[axis] = (block.xmax(axis) - block.xmin(axis)) / block.nx(axis);
      istart[axis] = block.isSymmetry(axis) ? 0 : nghost;
      x0[axis] = block.xmin(axis) - istart[axis] * dx[axis];
    }
    area[0] = dx[1] * dx[2];
    area[1] = dx[0] * dx[2];
    area[2] = dx[0] * dx[1];
    cellVolume = dx[0] * dx[1] * dx[2];
  }

  private UniformCartesian(UniformCartesian fine, int factor) {
    for (int axis = 0; axis < 3; axis++) {
      istart[axis] = fine.istart[axis];
      // x1 is always active; x2 and x3 coarsen only where they have ghosts (are active).
      boolean coarsens = axis == 0 || istart[axis] > 0;
      x0[axis] = fine.x0[axis] + istart[axis] * fine.dx[axis] * (1 - factor);
      dx[axis] = coarsens ? fine.dx[axis] * factor : fine.dx[axis];
    }
    area[0] = dx[1] * dx[2];
    area[1] = dx[0] * dx[2];
    area[2] = dx[0] * dx[1];
    cellVolume = dx[0] * dx[1] * dx[2];
  }

  /**
   * The same block seen with cells {@code factor} times wider along every active axis, with the
   * same number of ghost cells (the coarse buffer used for prolongation and restriction).
   */
  public UniformCartesian coarsened(int factor) {
    if (factor != 2) {
      return new UniformCartesian(this, factor);
    }
    // Kept: boundary-cache builds ask for it on every refinement boundary after a remesh. Two
    // threads may both make it; the copies are equal and immutable.
    UniformCartesian coarse = coarsenedByTwo;
    if (coarse == null) {
      coarse = new UniformCartesian(this, 2);
      coarsenedByTwo = coarse;
    }
    return coarse;
  }

  /** Cell width along {@code axis}; also the distance between cell centres. */
  public double dx(int axis) {
    return dx[axis];
  }

  /** Index of the first interior cell along {@code axis} (the ghost width, or 0 if inactive). */
  public int startIndex(int axis) {
    return istart[axis];
  }

  /** Position of the centre of cell {@code idx} along {@code axis}. */
  public double xc(int axis, int idx) {
    return x0[axis] + (idx + 0.5) * dx[axis];
  }

  /** Position of the face below cell {@code idx} along {@code axis}. */
  public double xf(int axis, int idx) {
    return x0[axis] + idx * dx[axis];
  }

  /** x1 of the centre of cell {@code i}. */
  public double x1c(int i) {
    return x0[0] + (i + 0.5) * dx[0];
  }

  /** x2 of the centre of cell {@code j}. */
  public double x2c(int j) {
    return x0[1] + (j + 0.5) * dx[1];
  }

  /** x3 of the centre of cell {@code k}. */
  public double x3c(int k) {
    return x0[2] + (k + 0.5) * dx[2];
  }

  /** x1 of the face below cell {@code i}. */
  public double x1f(int i) {
    return x0[0] + i * dx[0];
  }

  /** x2 of the face below cell {@code j}. */
  public double x2f(int j) {
    return x0[1] + j * dx[1];
  }

  /** x3 of the face below cell {@code k}. */
  public double x3f(int k) {
    return x0[2] + k * dx[2];
  }

  /** Area of a cell face normal to {@code axis}. */
  public double faceArea(int axis) {
    return area[axis];
  }

  /** Length of a cell edge along {@code axis}. */
  public double edgeLength(int axis) {
    return dx[axis];
  }

  /** Volume of a cell. */
  public double cellVolume() {
    return cellVolume;
  }

  /**
   * The measure of {@code el}: the cell volume, a face area, an edge length, or 1 for a node (as
   * Parthenon's {@code Volume}).
   */
  public double volume(TopologicalElement el) {
    return switch (el) {
      case CC -> cellVolume;
      case F1 -> area[0];
      case F2 -> area[1];
      case F3 -> area[2];
      case E1 -> dx[0];
      case E2 -> dx[1];
      case E3 -> dx[2];
      case NN -> 1.0;
    };
  }
}
