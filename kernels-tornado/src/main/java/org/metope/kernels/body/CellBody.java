package org.metope.kernels.body;

import java.io.Serializable;

/**
 * A package's kernel body, written once for the host and a device: the work on one index
 * {@code (k, j, i)} of one block of a {@link StageLaunch.Kind#CELLS} launch. It reads and writes
 * the data arena {@code a} only through {@link DevicePack}'s accessors, passing on the entry
 * {@code t, at} and the reals {@code r, rat} it was given, so it names fields and cells, never an
 * offset, slot or stride. Write it as a static method ({@code MyPackage::flux}) over arrays and
 * primitives: no objects, no allocation, only static calls, which is what a device compiler takes.
 * The interface is {@link Serializable} only so that a device backend can find the static method
 * behind a method reference (its {@code SerializedLambda}) and call it from a launcher of its own;
 * nothing is ever serialized.
 */
@FunctionalInterface
public interface CellBody extends Serializable {
  /** Works on index {@code (k, j, i)} of the block whose launch entry starts at {@code t[at]}. */
  void apply(double[] a, int[] t, int at, double[] r, int rat, int k, int j, int i);
}
