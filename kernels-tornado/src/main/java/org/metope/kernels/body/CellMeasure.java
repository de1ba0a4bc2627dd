package org.metope.kernels.body;

import java.io.Serializable;

/**
 * A package's reduction body, written once for the host and a device: the value at one index
 * {@code (k, j, i)} of one block of a {@link StageLaunch.Kind#CELLS_MINIMUM} launch, of which the
 * launch keeps each block's smallest (a time step, say). The same rules as {@link CellBody}:
 * views through {@link DevicePack}, a static method over arrays and primitives ({@link
 * Serializable} for the same reason).
 */
@FunctionalInterface
public interface CellMeasure extends Serializable {
  /** The value at index {@code (k, j, i)} of the block whose launch entry starts at {@code t[at]}. */
  double apply(double[] a, int[] t, int at, double[] r, int rat, int k, int j, int i);
}
