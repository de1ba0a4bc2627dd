package org.metope.mesh.view;

/**
 * The body of a loop over cells, called once per cell {@code (b, k, j, i)} by {@link ParFor}
 * (Parthenon's {@code KOKKOS_LAMBDA(const int b, const int k, const int j, const int i)}). Write
 * it as a lambda that captures views and constants in effectively final locals; it must not
 * allocate or box.
 */
@FunctionalInterface
public interface CellKernel {
  /** Works on cell {@code (k, j, i)} of partition block {@code b}. */
  void apply(int b, int k, int j, int i);
}
