package org.metope.outputs;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The one global heap collection of a file being written ({@link Hdf5File}), which holds the
 * characters of every variable-length string attribute, one heap object per string, as HDF5's
 * {@code H5HG} writes them:
 *
 * <pre>
 * "GCOL", version 1, 3 reserved, collection size (8)
 * per object: index (2), reference count (2), reserved (4), size (8), bytes padded to 8
 * object 0: the free space to the end (its size counts its own 16-byte header)
 * </pre>
 *
 * A collection is at least 4096 bytes, since HDF5's library first reads that much of it.
 */
final class StringHeap {
  private static final int MIN_SIZE = 4096;
  private static final int HEADER = 16;
  private static final int OBJECT_HEADER = 16;

  private static final byte[] GCOL = "GCOL".getBytes(StandardCharsets.US_ASCII);

  private final List<byte[]> objects = new ArrayList<>();
  private long address = -1;

  /**
   * The elements of one string attribute: their lengths and heap indices, encoded against the
   * heap's address once it has one.
   */
  final class Strings {
    private final int[] lengths;
    private final int[] indices;

    private Strings(int[] lengths, int[] indices) {
      this.lengths = lengths;
      this.indices = indices;
    }

    /**
     * Each element's length, collection address and index; before the heap is placed the
     * address is 0, which only sizes a header.
     */
    void encode(Hdf5Header h) {
      for (int n = 0; n < lengths.length; n++) {
        h.u32(lengths[n]).u64(Math.max(address, 0)).u32(indices[n]);
      }
    }
  }

  /** Adds {@code values} as heap objects (UTF-8 bytes, no terminator). */
  Strings add(String... values) {
    int[] lengths = new int[values.length];
    int[] indices = new int[values.length];
    for (int n = 0; n < values.length; n++) {
      byte[] bytes = values[n].getBytes(StandardCharsets.UTF_8);
      objects.add(bytes);
      if (objects.size() > 0xFFFF) {
        throw new IllegalStateException("a global heap collection holds at most 65535 strings");
      }
      lengths[n] = bytes.length;
      indices[n] = objects.size();
    }
    return new Strings(lengths, indices);
  }

  /** Whether no string was added (then the file needs no heap). */
  boolean isEmpty() {
    return objects.isEmpty();
  }

  /** The collection's size in bytes. */
  long size() {
    long used = HEADER + OBJECT_HEADER;
    for (byte[] o : objects) {
      used += OBJECT_HEADER + padded(o.length);
    }
    return Math.max(MIN_SIZE, used);
  }

  private static long padded(int length) {
    return (length + 7L) & ~7L;
  }

  /**
   * Lays the collection out at the end of {@code image}; string elements encoded from now on
   * point to it.
   */
  void write(Hdf5Image image) {
    address = image.end();
    long size = size();
    int at = image.append(Math.toIntExact(size));
    // After the append: a growing image moves to a new array.
    ByteBuffer b = image.littleEndian();
    b.put(at, GCOL).put(at + 4, (byte) 1).putLong(at + 8, size);
    at += HEADER;
    for (int n = 0; n < objects.size(); n++) {
      byte[] o = objects.get(n);
      b.putShort(at, (short) (n + 1)).putLong(at + 8, o.length).put(at + OBJECT_HEADER, o);
      at += OBJECT_HEADER + (int) padded(o.length);
    }
    b.putLong(at + 8, size - (at - image.index(address)));
  }
}
