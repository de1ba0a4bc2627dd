package org.metope.mesh.view;

/** A loop over a flat range of a range of blocks; {@link ParFor} keeps one per kernel class. */
interface FlatLoop {
  /** Calls {@code kernel} on every cell number of {@code range} of blocks {@code bs..be}. */
  void run(int bs, int be, FlatRange range, FlatKernel kernel);
}
