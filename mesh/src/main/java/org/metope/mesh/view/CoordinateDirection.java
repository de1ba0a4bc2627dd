package org.metope.mesh.view;

/**
 * Flux directions as kernels name them (Parthenon's {@code CoordinateDirection}): {@link #X1DIR}
 * is the direction of {@code i}, {@link #X2DIR} of {@code j}, {@link #X3DIR} of {@code k}. They
 * are the direction numbers {@link org.metope.mesh.field.ArenaLayout#fluxInstance} takes.
 */
public final class CoordinateDirection {
  /** Fluxes through x1 faces (along {@code i}). */
  public static final int X1DIR = 1;
  /** Fluxes through x2 faces (along {@code j}). */
  public static final int X2DIR = 2;
  /** Fluxes through x3 faces (along {@code k}). */
  public static final int X3DIR = 3;

  private CoordinateDirection() {}
}
