package org.metope.examples.burgers;

/**
 * Scratch rows for the vector loops of {@link ReconstructionStages} and {@link HllRows}, allocated
 * so that they share one alignment to the 64-byte cache line.
 *
 * <p><b>Why.</b> C2 (JDK 17) aligns a vectorised loop to one of its arrays (its pre-loop runs
 * scalar iterations until that array's accesses start on a vector boundary); every other array
 * the loop touches is then as far off a 64-byte boundary as it happens to lie, and a 64-byte
 * (AVX-512) load across two cache lines costs about two. On this machine (AMD EPYC, AVX-512) the
 * WENO5 stages ran about 20% faster when every row had the same alignment. Java does not let a program place an array, but the allocator places
 * consecutive allocations of one thread one after the other, and the collectors copy an object's
 * referents in the same way: arrays whose size (a 16-byte header with compressed class pointers,
 * the default, plus 8 bytes a value) is a multiple of 64 bytes, allocated one after the other,
 * keep their offsets from each other a multiple of 64 bytes. So each row's length is rounded up to
 * {@code 6 (mod 8)}.
 *
 * <p>Only speed depends on this: a row that lands elsewhere (another header size, a collection
 * that separates the rows) computes the same values, and the extra values at a row's end are
 * never read.
 */
final class ScratchRows {
  private ScratchRows() {}

  /**
   * {@code count} rows of at least {@code length} doubles each, allocated one after the other,
   * each row's length {@code 6 (mod 8)}: the smallest such length {@code >= length}.
   */
  static double[][] allocate(int count, int length) {
    final int padded = length + Math.floorMod(6 - length, 8);
    final double[][] rows = new double[count][];
    for (int r = 0; r < count; r++) {
      rows[r] = new double[padded];
    }
    return rows;
  }
}
