package org.metope.outputs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The integrity seal of an HDF5 file Metope writes ({@code .phdf} and {@code .rhdf}): 32 bytes
 * appended after the HDF5 data, which record the length of everything before them and its CRC-32C,
 * so that a reader detects any truncation, any appended bytes and any changed bit.
 *
 * <pre>
 * offset  size  field
 *      0     8  magic "METOPE\r\n" (ASCII)
 *      8     4  seal format version (1), big-endian
 *     12     4  CRC-32C of the sealed bytes, big-endian
 *     16     8  number of sealed bytes (the file's length minus 32), big-endian
 *     24     4  CRC-32C of bytes 0-23 of the seal, big-endian
 *     28     4  zero
 * </pre>
 *
 * HDF5 readers (libhdf5, h5py, ParaView, jhdf) ignore bytes after the end-of-file address the
 * superblock records, so a sealed file opens in every HDF5 tool as before.
 */
public final class FileSeal {
  /** Bytes the seal adds to a file. */
  public static final int LENGTH = 32;
  /** The seal format this class writes and reads. */
  public static final int VERSION = 1;
  private static final byte[] MAGIC = "METOPE\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final int CHUNK_BYTES = 1 << 20;

  private FileSeal() {}

  /** The seal's fields, as read from the end of a file. */
  record Trailer(int version, int checksum, long sealedLength, boolean selfConsistent) {}

  /**
   * Bytes {@code [start, start + length)} of a file whose CRC-32C, {@code checksum}, the writer
   * knows already (it computed it while writing them), so sealing need not read them back.
   */
  record Known(long start, long length, int checksum) {}

  /**
   * Appends the seal of {@code file}'s current content to it, reading only the bytes outside {@code
   * known} (in ascending order, disjoint) and combining their checksums with the known ones
   * ({@link Crc32cCombine}): the seal of a file of field values then costs the writer a read of
   * its structure, not of its values.
   */
  static void append(Path file, List<Known> known) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      append(channel, known);
    }
  }

  /** {@link #append(Path, List)} through {@code channel}, open for reading and writing. */
  static void append(FileChannel channel, List<Known> known) throws IOException {
    long length = channel.size();
    int checksum = checksum(channel, length, known);
    ByteBuffer seal = ByteBuffer.allocate(LENGTH).order(ByteOrder.BIG_ENDIAN);
    seal.put(MAGIC).putInt(VERSION).putInt(checksum).putLong(length);
    seal.putInt(crc(seal.array(), 24)).putInt(0);
    seal.flip();
    long at = length;
    while (seal.hasRemaining()) {
      at += channel.write(seal, at);
    }
  }

  /** CRC-32C of the first {@code length} bytes of {@code channel}, {@code known} ones not read. */
  private static int checksum(FileChannel channel, long length, List<Known> known)
      throws IOException {
    int checksum = 0; // the CRC-32C of no bytes
    long at = 0;
    for (Known part : known) {
      if (part.start() < at || part.start() + part.length() > length) {
        throw new IllegalStateException("known bytes [" + part.start() + ", " + (part.start()
            + part.length()) + ") out of order or past the file's " + length + " bytes");
      }
      checksum = Crc32cCombine.combine(checksum, checksum(channel, at, part.start()),
          part.start() - at);
      checksum = Crc32cCombine.combine(checksum, part.checksum(), part.length());
      at = part.start() + part.length();
    }
    return Crc32cCombine.combine(checksum, checksum(channel, at, length), length - at);
  }

  /**
   * The seal at the end of an open file, or null when its last 32 bytes do not start with the
   * magic (no seal, or a truncated file).
   */
  static Trailer read(FileChannel channel) throws IOException {
    long size = channel.size();
    if (size < LENGTH) {
      return null;
    }
    ByteBuffer seal = ByteBuffer.allocate(LENGTH).order(ByteOrder.BIG_ENDIAN);
    long at = size - LENGTH;
    while (seal.hasRemaining()) {
      int n = channel.read(seal, at + seal.position());
      if (n < 0) {
        return null;
      }
    }
    byte[] bytes = seal.array();
    for (int i = 0; i < MAGIC.length; i++) {
      if (bytes[i] != MAGIC[i]) {
        return null;
      }
    }
    boolean consistent = seal.getInt(24) == crc(bytes, 24) && seal.getInt(28) == 0;
    return new Trailer(seal.getInt(8), seal.getInt(12), seal.getLong(16), consistent);
  }

  /**
   * CRC-32C of bytes {@code [from, to)} of {@code channel}, read through a buffer no longer than
   * the range (a seal reads the few KiB of structure between datasets, a dozen ranges per file).
   */
  static int checksum(FileChannel channel, long from, long to) throws IOException {
    CRC32C crc = new CRC32C();
    ByteBuffer buffer = ByteBuffer.allocate((int) Math.max(0, Math.min(CHUNK_BYTES, to - from)));
    long at = from;
    while (at < to) {
      buffer.clear().limit((int) Math.min(CHUNK_BYTES, to - at));
      int n = channel.read(buffer, at);
      if (n < 0) {
        throw new IOException("file ended at byte " + at + " before byte " + to);
      }
      buffer.flip();
      crc.update(buffer);
      at += n;
    }
    return (int) crc.getValue();
  }

  /** CRC-32C of the {@code remaining} bytes of {@code buffer}, which it consumes. */
  static int checksum(ByteBuffer buffer) {
    CRC32C crc = new CRC32C();
    crc.update(buffer);
    return (int) crc.getValue();
  }

  private static int crc(byte[] bytes, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, length);
    return (int) crc.getValue();
  }

  /** A checksum as the messages show it: eight hexadecimal digits. */
  static String hex(int checksum) {
    return String.format("%08x", checksum);
  }
}
