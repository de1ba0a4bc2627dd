package org.metope.mesh.view;

/**
 * The body of a loop over a {@link FlatRange}, called once per cell number {@code c} of every
 * plane of partition block {@code b} by {@link ParFor#flat}. The kernel reads and writes views
 * by cell number ({@link VariablePack#getFlat}, {@link FieldView#getFlat}, ...) and reaches a
 * neighbour by the view's {@code stride(direction)}: {@code q.getFlat(b, v, c - q.stride(X2DIR))}
 * is the value below along x2. Like {@link CellKernel}, a lambda capturing views and constants;
 * it must not allocate or box.
 */
@FunctionalInterface
public interface FlatKernel {
  /** Works on cell number {@code c} of partition block {@code b}. */
  void apply(int b, int c);
}
