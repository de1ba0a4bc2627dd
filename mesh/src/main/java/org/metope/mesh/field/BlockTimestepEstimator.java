package org.metope.mesh.field;

/**
 * A package's largest stable time step on one block (Parthenon's {@code EstimateTimestepBlock}).
 * The partition's estimate is the minimum over its blocks and the package's partition-level
 * estimator, if it has one.
 */
@FunctionalInterface
public interface BlockTimestepEstimator {
  /**
   * The largest stable step on partition block {@code b} of {@code md}; {@code Double.MAX_VALUE}
   * for no limit.
   */
  double estimate(MeshData md, int b);
}
