package org.metope.mesh.geometry;

/**
 * A named part of a block's index space (Parthenon's {@code IndexDomain}):
 *
 * <pre>
 *   +----+-----------------+----+
 *   |    |    outer_x2     |    |
 *   +----+-----------------+----+
 *   | i  |                 | o  |
 *   | n  |                 | u  |
 *   | n  |    interior     | t  |
 *   | e  |                 | e  |
 *   | r  |                 | r  |
 *   | x1 |                 | x1 |
 *   +----+-----------------+----+
 *   |    |    inner_x2     |    |
 *   +----+-----------------+----+
 *   &lt;---------- entire ---------&gt;
 * </pre>
 *
 * A face slab ({@code INNER_X1} ... {@code OUTER_X3}) is the ghost layer beyond that face and
 * spans the entire range (ghosts included) along the other two axes.
 */
public enum IndexDomain {
  /** All cells, ghosts included. */
  ENTIRE,
  /** The cells the block owns. */
  INTERIOR,
  /** Ghost cells below the interior along x1. */
  INNER_X1,
  /** Ghost cells above the interior along x1. */
  OUTER_X1,
  /** Ghost cells below the interior along x2. */
  INNER_X2,
  /** Ghost cells above the interior along x2. */
  OUTER_X2,
  /** Ghost cells below the interior along x3. */
  INNER_X3,
  /** Ghost cells above the interior along x3. */
  OUTER_X3
}
