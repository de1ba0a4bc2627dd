package org.metope.outputs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32C;

/**
 * Values of one reserved {@link FlatDataset}, appended in order at their place in the file: all
 * of them ({@link FlatDataset#fill}, rank 0 writing every value) or one range ({@link #part}, a
 * rank writing its own blocks). They are converted to the stored type (64-bit floats, or 32-bit
 * floats rounded to nearest), written at absolute positions through a buffer of at most 1 MiB and
 * checksummed as they go. {@link #checksum} checks that every value came and returns the CRC-32C
 * of their stored bytes; the writer then records it in the dataset's header ({@link
 * FlatDataset#completeHeader}), combining the parts' checksums in order first ({@link
 * Crc32cCombine}), so the file is the one {@link FlatDataset#of} would have written from the
 * whole array.
 */
final class DatasetFill {
  private static final int BUFFER_BYTES = 1 << 20;

  private final String name;
  private final FileChannel file;
  private final int elementBytes;
  private final ByteBuffer buffer;
  private final CRC32C crc = new CRC32C();
  private long position;
  private long remaining;

  private DatasetFill(String name, FileChannel file, long position, long values,
      int elementBytes, ByteBuffer buffer) {
    this.name = name;
    this.file = file;
    this.elementBytes = elementBytes;
    this.position = position;
    this.remaining = values;
    this.buffer = buffer;
  }

  /**
   * A buffer for fills of datasets of at most {@code bytes} each (at most 1 MiB): fills may share
   * it, since each holds values in it only during its {@link #append}.
   */
  static ByteBuffer buffer(long bytes) {
    return ByteBuffer.allocate((int) Math.max(Double.BYTES, Math.min(BUFFER_BYTES, bytes)))
        .order(ByteOrder.nativeOrder());
  }

  /**
   * Values {@code [first, first + count)} of the dataset {@code name} whose values start at
   * {@code dataAddress} of {@code file}, {@code elementBytes} each when stored, converted in
   * {@code buffer} ({@link #buffer}).
   */
  static DatasetFill part(FileChannel file, String name, long dataAddress, long first,
      long count, int elementBytes, ByteBuffer buffer) {
    return new DatasetFill(name, file, dataAddress + first * elementBytes, count, elementBytes,
        buffer);
  }

  /** Writes {@code values[from, from + length)} after the values appended before. */
  void append(double[] values, int from, int length) throws IOException {
    if (length > remaining) {
      throw new IllegalStateException("dataset name=" + name + ": " + length
          + " values appended, " + remaining + " still expected");
    }
    int perBuffer = buffer.capacity() / elementBytes;
    for (int start = from; start < from + length; start += perBuffer) {
      int n = Math.min(perBuffer, from + length - start);
      buffer.clear();
      if (elementBytes == Double.BYTES) {
        buffer.asDoubleBuffer().put(values, start, n);
      } else {
        FloatBuffer floats = buffer.asFloatBuffer();
        for (int i = 0; i < n; i++) {
          floats.put((float) values[start + i]);
        }
      }
      buffer.limit(n * elementBytes);
      crc.update(buffer);
      buffer.flip();
      while (buffer.hasRemaining()) {
        position += file.write(buffer, position);
      }
    }
    remaining -= length;
  }

  /** Ends the fill: every value must have come; the CRC-32C of their stored bytes. */
  int checksum() {
    if (remaining != 0) {
      throw new IllegalStateException("dataset name=" + name + " ended with "
          + remaining + " values missing");
    }
    return (int) crc.getValue();
  }
}
