package org.metope.mesh.geometry;

/**
 * The index space of one block: interior cells, ghost cells and the ranges of every {@link
 * IndexDomain}, per axis, for cell-centred and other {@link TopologicalElement} values (Parthenon's
 * {@code IndexShape}).
 *
 * <p>Along an active axis with {@code nx} interior cells and {@code ng} ghosts, indices run over
 * {@code [0, nx + 2 ng)} and the interior is {@code [ng, ng + nx - 1]}:
 *
 * <pre>
 *   0 .. ng-1 | ng ........ ng+nx-1 | ng+nx .. nx+2ng-1
 *   inner     |      interior       |      outer
 * </pre>
 *
 * An inactive axis (built with {@code nx = 0}) has the single index 0, no ghosts and empty face
 * slabs. Values offset onto cell boundaries along an axis get one more index at the top of each
 * range along that axis.
 */
public final class IndexShape {
  private final int[] start = new int[3];
  private final int[] end = new int[3];
  private final int[] entire = new int[3];
  private final int nghost;

  /**
   * A shape with the given interior cells per axis; 0 marks an inactive axis.
   *
   * @param nx1 interior cells along x1 (0 when inactive)
   * @param nx2 interior cells along x2 (0 when inactive)
   * @param nx3 interior cells along x3 (0 when inactive)
   * @param nghost ghost cells on each side of every active axis
   */
  public IndexShape(int nx1, int nx2, int nx3, int nghost) {
    if (nx1 < 0 || nx2 < 0 || nx3 < 0 || nghost < 0) {
      throw new IllegalArgumentException("negative size: nx1=" + nx1 + " nx2=" + nx2 + " nx3="
          + nx3 + " nghost=" + nghost);
    }
    this.nghost = nghost;
    int[] nx = {nx1, nx2, nx3};
    for (int axis = 0; axis < 3; axis++) {
      if (nx[axis] == 0) {
        entire[axis] = 1;
      } else {
        start[axis] = nghost;
        end[axis] = nghost + nx[axis] - 1;
        entire[axis] = nx[axis] + 2 * nghost;
      }
    }
  }

  /**
   * The index space of a field at twice this resolution: twice the interior cells along every
   * active axis, the same ghosts (Parthenon's {@code f_cellbounds} beside {@code cellbounds}).
   */
  public IndexShape refined() {
    int[] nx = new int[3];
    for (int axis = 0; axis < 3; axis++) {
      nx[axis] = isActive(axis) ? 2 * interiorNcells(axis) : 0;
    }
    return new IndexShape(nx[0], nx[1], nx[2], nghost);
  }

  /** Ghost cells on each side of an active axis. */
  public int nghost() {
    return nghost;
  }

  /** Whether {@code axis} has ghost cells (built with a non-zero size). */
  public boolean isActive(int axis) {
    return entire[axis] > 1;
  }

  /** Number of cell indices along {@code axis}, ghosts included. */
  public int entireNcells(int axis) {
    return entire[axis];
  }

  /** Interior cells along {@code axis} (1 for an inactive axis). */
  public int interiorNcells(int axis) {
    return end[axis] - start[axis] + 1;
  }

  private static int offset(int axis, TopologicalElement el) {
    return switch (axis) {
      case 0 -> el.offsetI();
      case 1 -> el.offsetJ();
      default -> el.offsetK();
    };
  }

  private static boolean isInnerSlab(int axis, IndexDomain domain) {
    return domain.ordinal() == IndexDomain.INNER_X1.ordinal() + 2 * axis;
  }

  private static boolean isOuterSlab(int axis, IndexDomain domain) {
    return domain.ordinal() == IndexDomain.OUTER_X1.ordinal() + 2 * axis;
  }

  /** First index of {@code domain} along {@code axis} for values on {@code el}. */
  public int start(int axis, IndexDomain domain, TopologicalElement el) {
    if (domain == IndexDomain.INTERIOR) {
      return start[axis];
    }
    if (isOuterSlab(axis, domain)) {
      return entire[axis] == 1 ? 0 : end[axis] + 1 + offset(axis, el);
    }
    return 0;
  }

  /** Last index (inclusive) of {@code domain} along {@code axis} for values on {@code el}. */
  public int end(int axis, IndexDomain domain, TopologicalElement el) {
    if (domain == IndexDomain.INTERIOR) {
      return entire[axis] == 1 ? 0 : end[axis] + offset(axis, el);
    }
    if (isInnerSlab(axis, domain)) {
      return start[axis] == 0 ? 0 : start[axis] - 1;
    }
    return entire[axis] == 1 ? 0 : entire[axis] - 1 + offset(axis, el);
  }

  /** The index range of {@code domain} along {@code axis} for values on {@code el}. */
  public IndexRange bounds(int axis, IndexDomain domain, TopologicalElement el) {
    return new IndexRange(start(axis, domain, el), end(axis, domain, el));
  }

  /** Cell-centred range along x1. */
  public IndexRange boundsI(IndexDomain domain) {
    return bounds(0, domain, TopologicalElement.CC);
  }

  /** Cell-centred range along x2. */
  public IndexRange boundsJ(IndexDomain domain) {
    return bounds(1, domain, TopologicalElement.CC);
  }

  /** Cell-centred range along x3. */
  public IndexRange boundsK(IndexDomain domain) {
    return bounds(2, domain, TopologicalElement.CC);
  }

  /** Number of indices of {@code domain} along {@code axis}; 0 for a slab of an inactive axis. */
  public int ncells(int axis, IndexDomain domain, TopologicalElement el) {
    if (entire[axis] == 1 && (isInnerSlab(axis, domain) || isOuterSlab(axis, domain))) {
      return 0;
    }
    return end(axis, domain, el) - start(axis, domain, el) + 1;
  }

  /** Number of cell-centred indices of {@code domain} along x1. */
  public int ncellsI(IndexDomain domain) {
    return ncells(0, domain, TopologicalElement.CC);
  }

  /** Number of cell-centred indices of {@code domain} along x2. */
  public int ncellsJ(IndexDomain domain) {
    return ncells(1, domain, TopologicalElement.CC);
  }

  /** Number of cell-centred indices of {@code domain} along x3. */
  public int ncellsK(IndexDomain domain) {
    return ncells(2, domain, TopologicalElement.CC);
  }

  /** Number of indices in {@code domain} for values on {@code el}. */
  public int total(IndexDomain domain, TopologicalElement el) {
    return ncells(0, domain, el) * ncells(1, domain, el) * ncells(2, domain, el);
  }

  /** Number of cell-centred indices in {@code domain}. */
  public int total(IndexDomain domain) {
    return total(domain, TopologicalElement.CC);
  }
}
