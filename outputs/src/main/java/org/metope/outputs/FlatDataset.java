package org.metope.outputs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * A contiguous HDF5 dataset of a file Metope writes ({@link Hdf5File}), from a flat primitive
 * array and its dimensions, so that a field of {@code blocks x components x k x j x i} values
 * needs no nested Java arrays. Element types ({@link Hdf5Type}): {@code double[]} (64-bit float),
 * {@code long[]} (64-bit signed integer), {@code int[]} (32-bit signed integer) and {@code byte[]}
 * (8-bit unsigned integer, Parthenon's {@code bool}); a {@link #reserved} dataset holds 64-bit or
 * 32-bit floats. Its attributes are {@link Hdf5Attribute}s.
 *
 * <p>A dataset {@link #reserved} without data takes its place in the file's layout when the file
 * is written (header and data area, the file's length included) and gets its values afterwards
 * through {@link #fill}, in order, chunk by chunk: the data of a field never has to be held whole.
 * Its header is written again when the values are complete, with their checksum. The header
 * holds a datatype, a simple dataspace, "no fill value", the contiguous layout and the attributes
 * ({@link Hdf5Header}).
 */
final class FlatDataset {
  /**
   * The attribute every dataset carries: the CRC-32C of its raw data bytes as stored, which
   * {@link FileIntegrity} uses to name the damaged dataset of a file whose seal does not match.
   */
  static final String CHECKSUM_ATTRIBUTE = "MetopeDataCRC32C";
  /**
   * The most bytes of values a dataset given whole keeps in the image of the file's structure;
   * larger ones go to the file in chunks of this size, so that the image holds no copy of them.
   */
  static final int IN_IMAGE_BYTES = 1 << 20;

  private final String name;
  /** The values, or null for a {@link #reserved} dataset. */
  private final Object data;
  private final int[] dimensions;
  private final long size;
  private final Hdf5Type dataType;
  private final Map<String, Hdf5Attribute> attributes = new LinkedHashMap<>();
  /** The image the file's structure was laid out in; null until then. */
  private Hdf5Image image;
  /** Where the header and the data went; -1 until laid out. */
  private long headerPosition = -1;
  private long dataAddress = -1;
  private int headerLength = -1;

  private FlatDataset(String name, Object data, int[] dimensions, Hdf5Type dataType) {
    long count = 1;
    for (int d : dimensions) {
      if (d < 1) {
        throw new IllegalArgumentException("dataset name=" + name + " dimensions="
            + Arrays.toString(dimensions) + ": every dimension must be at least 1");
      }
      count *= d;
    }
    if (dimensions.length == 0 || (data != null && count != Array.getLength(data))) {
      throw new IllegalArgumentException("dataset name=" + name + " dimensions="
          + Arrays.toString(dimensions) + " do not hold length=" + Array.getLength(data));
    }
    this.name = name;
    this.data = data;
    this.dimensions = dimensions.clone();
    this.size = count;
    this.dataType = dataType;
  }

  /** 64-bit floats. */
  static FlatDataset of(String name, double[] data, int... dimensions) {
    return new FlatDataset(name, data, dimensions, Hdf5Type.FLOAT64);
  }

  /**
   * A dataset of {@code dimensions} whose values come after the file is laid out ({@link #fill}):
   * 32-bit floats rounded from doubles with {@code singlePrecision}, else 64-bit floats.
   */
  static FlatDataset reserved(String name, boolean singlePrecision, int... dimensions) {
    return new FlatDataset(name, null, dimensions,
        singlePrecision ? Hdf5Type.FLOAT32 : Hdf5Type.FLOAT64);
  }

  /** 64-bit signed integers. */
  static FlatDataset of(String name, long[] data, int... dimensions) {
    return new FlatDataset(name, data, dimensions, Hdf5Type.INT64);
  }

  /** 64-bit unsigned integers (Parthenon's {@code std::size_t} counts). */
  static FlatDataset unsigned(String name, long[] data, int... dimensions) {
    return new FlatDataset(name, data, dimensions, Hdf5Type.UINT64);
  }

  /** 32-bit signed integers. */
  static FlatDataset of(String name, int[] data, int... dimensions) {
    return new FlatDataset(name, data, dimensions, Hdf5Type.INT32);
  }

  /** 8-bit unsigned integers (flags, Parthenon's {@code bool}). */
  static FlatDataset of(String name, byte[] data, int... dimensions) {
    return new FlatDataset(name, data, dimensions, Hdf5Type.UINT8);
  }

  /** The dataset's name in its group. */
  String getName() {
    return name;
  }

  /** Sets attribute {@code a}, replacing one of the same name. */
  void put(Hdf5Attribute a) {
    attributes.put(a.getName(), a);
  }

  /**
   * Lays the dataset out at the end of {@code image}: its header, then its values, or a hole for
   * them when it is reserved. Returns the end of what was laid out.
   */
  long write(Hdf5Image image) {
    // The checksum is a placeholder of the same length until the data are written (a reserved
    // dataset's until fill() ends), so the header's length, and the data's address, are known.
    put(Hdf5Attribute.ints(CHECKSUM_ATTRIBUTE, 0));
    this.image = image;
    headerPosition = image.end();
    headerLength = headerLength();
    image.append(headerLength);
    dataAddress = image.end();
    long bytes = getSizeInBytes();
    if (data == null) {
      image.skip(bytes);
    } else if (bytes <= IN_IMAGE_BYTES) {
      int at = image.append(Math.toIntExact(bytes));
      copyInto(image.nativeOrder(), at, 0, (int) size);
      CRC32C crc = new CRC32C();
      crc.update(image.bytes(), at, (int) bytes);
      put(Hdf5Attribute.ints(CHECKSUM_ATTRIBUTE, (int) crc.getValue()));
    } else {
      image.skip(bytes);
      put(Hdf5Attribute.ints(CHECKSUM_ATTRIBUTE, writeValues(image)));
    }
    writeHeader();
    return image.end();
  }

  /**
   * Writes the values straight to the image's file at {@link #dataAddress}, chunk by chunk;
   * their CRC-32C, which the image also records for the seal.
   */
  private int writeValues(Hdf5Image image) {
    int elementBytes = dataType.getSize();
    int perChunk = IN_IMAGE_BYTES / elementBytes;
    ByteBuffer chunk = DatasetFill.buffer((long) perChunk * elementBytes);
    CRC32C crc = new CRC32C();
    long at = dataAddress;
    try {
      for (long start = 0; start < size; start += perChunk) {
        int count = (int) Math.min(perChunk, size - start);
        copyInto(chunk.clear(), 0, (int) start, count);
        chunk.limit(count * elementBytes);
        crc.update(chunk);
        Hdf5File.writeFully(image.file(), chunk.flip(), at);
        at += (long) count * elementBytes;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write dataset " + name + " at " + at, e);
    }
    int checksum = (int) crc.getValue();
    image.known(new FileSeal.Known(dataAddress, getSizeInBytes(), checksum));
    return checksum;
  }

  /**
   * The values of this reserved dataset, appended in order through the returned fill once the
   * file's structure is written and {@code file} is open on it, converted in {@code buffer}
   * ({@link DatasetFill#buffer}); its checksum then goes into {@link #completeHeader}.
   */
  DatasetFill fill(FileChannel file, ByteBuffer buffer) {
    if (data != null || dataAddress < 0) {
      throw new IllegalStateException("dataset name=" + name + " is not a reserved dataset"
          + " laid out in a file: reserved=" + (data == null) + " address=" + dataAddress);
    }
    return DatasetFill.part(file, name, dataAddress, 0, size, dataType.getSize(), buffer);
  }

  /** Where this dataset's values start in the file; -1 until laid out. */
  long dataAddress() {
    return dataAddress;
  }

  /** Writes this reserved dataset's header again, now recording its data's {@code checksum}. */
  void completeHeader(FileChannel file, int checksum) throws IOException {
    put(Hdf5Attribute.ints(CHECKSUM_ATTRIBUTE, checksum));
    if (headerLength() != headerLength) {
      throw new IllegalStateException("dataset name=" + name + " header length="
          + headerLength() + " differs from the reserved length=" + headerLength);
    }
    writeHeader();
    image.rewrite(file, headerPosition, headerLength);
  }

  private int headerLength() {
    int messages = 4;
    int bodies = dataType.message().length + Hdf5Header.dataspaceSize(dimensions.length)
        + Hdf5Header.FILL_VALUE_SIZE + Hdf5Header.DATA_LAYOUT_SIZE;
    if (!attributes.isEmpty()) {
      messages += 1 + attributes.size();
      bodies += Hdf5Header.ATTRIBUTE_INFO_SIZE;
      for (Hdf5Attribute a : attributes.values()) {
        bodies += a.messageSize();
      }
    }
    return Hdf5Header.length(messages, bodies);
  }

  /** The object header, into the image; its length does not depend on the values it records. */
  private void writeHeader() {
    Hdf5Header h = new Hdf5Header(image, headerPosition, headerLength);
    h.message(Hdf5Header.DATATYPE, dataType.message().length).bytes(dataType.message());
    h.message(Hdf5Header.DATASPACE, Hdf5Header.dataspaceSize(dimensions.length))
        .dataspaceBody(dimensions).noFill().contiguous(dataAddress, getSizeInBytes());
    if (!attributes.isEmpty()) {
      h.attributeInfo();
      for (Hdf5Attribute a : attributes.values()) {
        a.encode(h, image);
      }
    }
    h.finish();
  }

  /**
   * Values {@code [from, from + count)}, in the machine's byte order, into {@code buffer} from
   * index {@code at}.
   */
  private void copyInto(ByteBuffer buffer, int at, int from, int count) {
    ByteBuffer b = buffer.duplicate().order(buffer.order()).position(at);
    if (data instanceof double[] d) {
      b.asDoubleBuffer().put(d, from, count);
    } else if (data instanceof long[] l) {
      b.asLongBuffer().put(l, from, count);
    } else if (data instanceof int[] n) {
      b.asIntBuffer().put(n, from, count);
    } else {
      b.put((byte[]) data, from, count);
    }
  }

  /** The values' bytes as stored. */
  long getSizeInBytes() {
    return size * dataType.getSize();
  }
}
