package org.metope.outputs;

/**
 * The CRC-32C ({@link java.util.zip.CRC32C}) of two byte sequences one after the other, from the
 * CRC of each and the length of the second, without their bytes: what lets every rank checksum
 * the part of a dataset it writes and rank 0 put the dataset's checksum together
 * ({@link SharedFileWrite}).
 *
 * <p>Why it works: a CRC is the remainder of the message polynomial, times x^32, modulo the
 * generator P, with the register's initial and final inversions. Appending n zero bytes to the
 * first sequence multiplies its remainder by x^(8n) modulo P, and the inversions of the two
 * sequences cancel once that product is added to the second sequence's CRC. So the CRC of A
 * followed by B is {@code crc(A) * x^(8 |B|) mod P} xor {@code crc(B)}. Polynomials are held
 * bit-reflected, as the CRC register holds them: bit 31 is the coefficient of x^0, and the
 * generator is Castagnoli's, 0x82F63B78 reflected. The power x^(8n) comes from the powers
 * x^(2^k) by binary decomposition of 8n, so a combination costs at most 64 products of 32 steps.
 */
final class Crc32cCombine {
  /** Castagnoli's generator, bit-reflected, without its x^32 term. */
  private static final int POLYNOMIAL = 0x82F63B78;
  /** The polynomial 1 (x^0) in the reflected representation. */
  private static final int ONE = 1 << 31;
  /** x^(2^k) mod P for k = 0 .. 65: enough for 8 n with any non-negative {@code long} n. */
  private static final int[] X_TO_TWO_TO_THE = new int[66];

  static {
    X_TO_TWO_TO_THE[0] = ONE >>> 1; // x^1
    for (int k = 1; k < X_TO_TWO_TO_THE.length; k++) {
      X_TO_TWO_TO_THE[k] = multiply(X_TO_TWO_TO_THE[k - 1], X_TO_TWO_TO_THE[k - 1]);
    }
  }

  private Crc32cCombine() {}

  /**
   * The CRC-32C of the bytes whose CRC-32C is {@code first} followed by the {@code
   * secondLength} bytes whose CRC-32C is {@code second}.
   */
  static int combine(int first, int second, long secondLength) {
    if (secondLength < 0) {
      throw new IllegalArgumentException("length must be >= 0: secondLength=" + secondLength);
    }
    if (secondLength == 0) {
      return first;
    }
    return multiply(xToEightTimes(secondLength), first) ^ second;
  }

  /** x^(8 n) mod P: the product of x^(2^k) over the bits k of 8 n. */
  private static int xToEightTimes(long n) {
    int power = ONE;
    int k = 3; // 8 n = n * 2^3
    for (long bits = n; bits != 0; bits >>>= 1, k++) {
      if ((bits & 1) != 0) {
        power = multiply(X_TO_TWO_TO_THE[k], power);
      }
    }
    return power;
  }

  /** {@code a * b mod P}, both reflected. */
  private static int multiply(int a, int b) {
    int product = 0;
    int factor = b;
    for (int bit = ONE; bit != 0; bit >>>= 1) {
      if ((a & bit) != 0) {
        product ^= factor;
      }
      factor = (factor & 1) != 0 ? (factor >>> 1) ^ POLYNOMIAL : factor >>> 1;
    }
    return product;
  }
}
