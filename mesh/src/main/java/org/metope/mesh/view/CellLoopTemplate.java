package org.metope.mesh.view;

/**
 * The loop {@link ParFor} runs, in a class of its own so that {@link LoopCopies} can define a copy
 * of it per kernel class (see there). Plain nested loops, {@code i} innermost, with exclusive
 * upper bounds computed once: C2 turns {@code i < end} with an invariant {@code end} into a fully
 * unrolled counted loop, where {@code i <= last} with {@code last} a parameter (which might be
 * {@code Integer.MAX_VALUE}) costs the flux kernel about 40% (measured with the benchmarks of
 * module {@code benchmarks}). Index boxes are far below {@code Integer.MAX_VALUE}.
 */
final class CellLoopTemplate implements CellLoop {
  @Override
  public void run(int bs, int be, int ks, int ke, int js, int je, int is, int ie,
      CellKernel kernel) {
    final int bEnd = be + 1;
    final int kEnd = ke + 1;
    final int jEnd = je + 1;
    final int iEnd = ie + 1;
    for (int b = bs; b < bEnd; b++) {
      for (int k = ks; k < kEnd; k++) {
        for (int j = js; j < jEnd; j++) {
          for (int i = is; i < iEnd; i++) {
            kernel.apply(b, k, j, i);
          }
        }
      }
    }
  }
}
