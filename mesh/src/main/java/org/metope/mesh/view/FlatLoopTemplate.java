package org.metope.mesh.view;

/**
 * The loop {@link ParFor#flat} runs, copied per kernel class by {@link LoopCopies}: per block and
 * k plane one counted loop over consecutive cell numbers, with its exclusive end computed before
 * the loop (see {@link CellLoopTemplate} for why), so that the JIT sees loops of hundreds of
 * iterations, not rows of a few dozen.
 */
final class FlatLoopTemplate implements FlatLoop {
  @Override
  public void run(int bs, int be, FlatRange range, FlatKernel kernel) {
    final int bEnd = be + 1;
    final int kEnd = range.ke() + 1;
    final int kStride = range.kStride();
    final int first = range.first();
    final int length = range.length();
    for (int b = bs; b < bEnd; b++) {
      for (int k = range.ks(); k < kEnd; k++) {
        final int start = k * kStride + first;
        final int end = start + length;
        for (int c = start; c < end; c++) {
          kernel.apply(b, c);
        }
      }
    }
  }
}
