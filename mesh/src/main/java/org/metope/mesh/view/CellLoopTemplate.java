package org.metope.mesh.view;

/**
 * The loop {@link ParFor} runs, in a class of its own so that {@link CellLoops} can define a copy
 * of it per kernel class (see there). Plain nested loops, {@code i} innermost.
 */
final class CellLoopTemplate implements CellLoop {
  @Override
  public void run(int bs, int be, int ks, int ke, int js, int je, int is, int ie,
      CellKernel kernel) {
    for (int b = bs; b <= be; b++) {
      for (int k = ks; k <= ke; k++) {
        for (int j = js; j <= je; j++) {
          for (int i = is; i <= ie; i++) {
            kernel.apply(b, k, j, i);
          }
        }
      }
    }
  }
}
