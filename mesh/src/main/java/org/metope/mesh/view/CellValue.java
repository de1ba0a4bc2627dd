package org.metope.mesh.view;

/**
 * The body of a reduction over cells, called once per cell {@code (b, k, j, i)} by {@link
 * ParReduce} (Parthenon's {@code par_reduce} lambda, whose accumulator argument is the return
 * value here). It must not allocate or box.
 */
@FunctionalInterface
public interface CellValue {
  /** The contribution of cell {@code (k, j, i)} of partition block {@code b}. */
  double value(int b, int k, int j, int i);
}
