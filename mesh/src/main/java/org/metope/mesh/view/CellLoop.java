package org.metope.mesh.view;

/** A loop over a box of cells of a range of blocks; {@link ParFor} keeps one per kernel class. */
interface CellLoop {
  /** Calls {@code kernel} on every {@code (b, k, j, i)} of the inclusive ranges, {@code i} fastest. */
  void run(int bs, int be, int ks, int ke, int js, int je, int is, int ie, CellKernel kernel);
}
