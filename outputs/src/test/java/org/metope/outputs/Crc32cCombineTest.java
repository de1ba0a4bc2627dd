package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** The combination against the JDK's CRC-32C of the whole sequence, which is independent of it. */
class Crc32cCombineTest {
  private static int crc(byte[] bytes, int from, int to) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, from, to - from);
    return (int) crc.getValue();
  }

  @Test
  void givenRandomBytesCutAnywhere_thenTheCombinationIsTheCrcOfTheWhole() {
    SplittableRandom random = new SplittableRandom(20261125);
    for (int trial = 0; trial < 2000; trial++) {
      byte[] bytes = new byte[random.nextInt(1, 5000)];
      random.nextBytes(bytes);
      int cut = random.nextInt(0, bytes.length + 1);
      int combined = Crc32cCombine.combine(crc(bytes, 0, cut), crc(bytes, cut, bytes.length),
          bytes.length - cut);
      assertEquals(crc(bytes, 0, bytes.length), combined, "length " + bytes.length + " cut " + cut);
    }
  }

  /** Several parts folded in order, as rank 0 folds the ranks' parts, some of them empty. */
  @Test
  void givenManyPartsSomeEmpty_thenFoldingInOrderGivesTheWhole() {
    SplittableRandom random = new SplittableRandom(7);
    byte[] bytes = new byte[1 << 16];
    random.nextBytes(bytes);
    int[] cuts = {0, 0, 100, 4096, 4096, 30000, 65535, 65536, 65536};
    int folded = crc(bytes, 0, 0);
    for (int p = 1; p < cuts.length; p++) {
      folded = Crc32cCombine.combine(folded, crc(bytes, cuts[p - 1], cuts[p]),
          cuts[p] - cuts[p - 1]);
    }
    assertEquals(crc(bytes, 0, bytes.length), folded);
    // Negative control: the parts in another order give another checksum.
    int swapped = Crc32cCombine.combine(crc(bytes, 100, 65536), crc(bytes, 0, 100), 100);
    assertNotEquals(crc(bytes, 0, bytes.length), swapped);
  }

  /**
   * Lengths beyond an int (the second part a run of zero bytes, whose CRC-32C is known through
   * the combination of two halves of equal length): a part of 2^33 zero bytes is two of 2^32.
   */
  @Test
  void givenPartsLongerThanAnInt_thenHalvesCombineConsistently() {
    int zeros8 = crc(new byte[8], 0, 8);
    long length = 8;
    int crcOfZeros = zeros8;
    while (length < (1L << 33)) {
      crcOfZeros = Crc32cCombine.combine(crcOfZeros, crcOfZeros, length);
      length *= 2;
    }
    byte[] head = {1, 2, 3};
    int a = Crc32cCombine.combine(crc(head, 0, 3), crcOfZeros, length);
    int halves = Crc32cCombine.combine(Crc32cCombine.combine(crc(head, 0, 3),
        halfOf(zeros8, length), length / 2), halfOf(zeros8, length), length / 2);
    assertEquals(a, halves);
  }

  private static int halfOf(int zeros8, long length) {
    long n = 8;
    int c = zeros8;
    while (n < length / 2) {
      c = Crc32cCombine.combine(c, c, n);
      n *= 2;
    }
    return c;
  }

  @Test
  void givenANegativeLength_thenRefused() {
    assertThrows(IllegalArgumentException.class, () -> Crc32cCombine.combine(1, 2, -1));
  }
}
