package org.metope.mesh.field;

import org.metope.kernels.body.StageLaunch;

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

  /**
   * The same estimate as a {@link StageLaunch.Kind#CELLS_MINIMUM} launch on {@code md} that a
   * device-resident kernel backend runs on its copy of the arena (built once per partition, run
   * every cycle; {@code DeviceKernel.minimum} makes one): each entry writes a smallest value into
   * the launch's results, and only those cross to the host; {@link #fromSmallest} turns their minimum into the estimate. Null (the
   * default) when the estimate runs on the host only.
   */
  default StageLaunch smallestStepLaunch(MeshData md) {
    return null;
  }

  /**
   * The estimate from the smallest result of {@link #smallestStepLaunch}; {@link #estimate} must
   * return the same value for the same fields.
   */
  default double fromSmallest(MeshData md, double smallest) {
    return smallest;
  }
}
