package org.metope.outputs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32C;

/**
 * The values of one reserved {@link FlatDataset}, appended in order at their place in the file
 * ({@link FlatDataset#fill}): converted to the stored type (64-bit floats, or 32-bit floats
 * rounded to nearest), written at absolute positions through a buffer of at most 1 MiB and
 * checksummed as they go. {@link #finish} checks that every value came and writes the dataset's
 * header again with the checksum, so the file is the one {@link FlatDataset#of} would have written
 * from the whole array.
 *
 * <p>A fill of one part of the values ({@link #part}: a rank's blocks, written by that rank) is the
 * same but ends with {@link #partChecksum}: the parts' checksums, combined in order ({@link
 * Crc32cCombine}), are the dataset's.
 */
final class DatasetFill {
  private static final int BUFFER_BYTES = 1 << 20;

  /** The dataset, or null for a part (which never writes the header). */
  private final FlatDataset dataset;
  private final String name;
  private final FileChannel file;
  private final int elementBytes;
  private final ByteBuffer buffer;
  private final CRC32C crc = new CRC32C();
  private long position;
  private long remaining;

  DatasetFill(FlatDataset dataset, FileChannel file, long dataAddress, long values,
      int elementBytes) {
    this(dataset, dataset.getName(), file, dataAddress, values, elementBytes);
  }

  private DatasetFill(FlatDataset dataset, String name, FileChannel file, long dataAddress,
      long values, int elementBytes) {
    this.dataset = dataset;
    this.name = name;
    this.file = file;
    this.elementBytes = elementBytes;
    this.position = dataAddress;
    this.remaining = values;
    this.buffer = ByteBuffer.allocate((int) Math.min(BUFFER_BYTES, values * elementBytes))
        .order(ByteOrder.nativeOrder());
  }

  /**
   * Values {@code [first, first + count)} of the dataset {@code name} whose values start at
   * {@code dataAddress} of {@code file}, {@code elementBytes} each when stored.
   */
  static DatasetFill part(FileChannel file, String name, long dataAddress, long first,
      long count, int elementBytes) {
    return new DatasetFill(null, name, file, dataAddress + first * elementBytes, count,
        elementBytes);
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

  /** Ends a part: every value of it must have come; the CRC-32C of its stored bytes. */
  int partChecksum() {
    if (remaining != 0) {
      throw new IllegalStateException("part of dataset name=" + name + " ended with "
          + remaining + " values missing");
    }
    return (int) crc.getValue();
  }

  /**
   * Ends the dataset: every value must have come; its header then records their checksum, which
   * is returned.
   */
  int finish() throws IOException {
    if (dataset == null) {
      throw new IllegalStateException("a part of dataset name=" + name + " ends with its checksum");
    }
    if (remaining != 0) {
      throw new IllegalStateException("dataset name=" + name + " ended with "
          + remaining + " values missing");
    }
    int checksum = (int) crc.getValue();
    dataset.completeHeader(file, checksum);
    return checksum;
  }
}
