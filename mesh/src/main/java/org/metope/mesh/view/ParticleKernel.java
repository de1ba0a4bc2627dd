package org.metope.mesh.view;

/**
 * The body of a loop over particles, called once per active slot {@code n} of partition block
 * {@code b} by {@link ParFor#particles}. Like {@link CellKernel}, a lambda capturing views and
 * constants; it must not allocate or box.
 */
@FunctionalInterface
public interface ParticleKernel {
  /** Works on the particle in slot {@code n} of partition block {@code b}. */
  void apply(int b, int n);
}
