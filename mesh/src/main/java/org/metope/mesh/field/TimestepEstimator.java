package org.metope.mesh.field;

/**
 * A package's largest stable time step over one partition (Parthenon's {@code
 * EstimateTimestepMesh}). The driver takes the minimum over packages and partitions, then over
 * ranks.
 */
@FunctionalInterface
public interface TimestepEstimator {
  /** The largest stable step on the blocks of {@code md}; {@code Double.MAX_VALUE} for no limit. */
  double estimate(MeshData md);

  /**
   * Whether {@link #estimate} reads field values (true unless an estimator says otherwise): a
   * device-resident run brings the fields back to the host before an estimator that reads them.
   */
  default boolean readsFields() {
    return true;
  }
}
