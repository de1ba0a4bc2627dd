package org.metope.outputs;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One attribute of a file being written, with the exact HDF5 type Parthenon writes for it ({@link
 * Hdf5Type}): one value is a scalar, several a one-dimensional list, as Parthenon's {@code
 * HDF5WriteAttribute} makes them (it writes no attribute for an empty list), encoded as a version 3
 * attribute message ({@link #encode}).
 */
final class Hdf5Attribute {
  /** The largest message body an object header holds: its size field has two bytes. */
  static final int MAX_MESSAGE = 0xFFFF;

  private final String name;
  private final byte[] nameBytes;
  private final Hdf5Type type;
  /** {@code long[]}, {@code double[]} or {@link StringHeap.Strings}. */
  private final Object values;
  private final int count;
  private final boolean scalar;

  private Hdf5Attribute(String name, Hdf5Type type, Object values, int count) {
    if (count < 1) {
      throw new IllegalArgumentException("attribute name=" + name
          + " has no value: HDF5 files hold no empty attribute");
    }
    this.name = name;
    this.nameBytes = name.getBytes(StandardCharsets.UTF_8);
    this.type = type;
    this.values = values;
    this.count = count;
    this.scalar = count == 1;
    if (messageSize() > MAX_MESSAGE) {
      throw new IllegalArgumentException("attribute name=" + name + " of " + count
          + " values needs a message of " + messageSize() + " bytes: an object header message"
          + " holds at most " + MAX_MESSAGE);
    }
  }

  /** Integers of {@code type}. */
  static Hdf5Attribute integers(String name, Hdf5Type type, long... values) {
    return new Hdf5Attribute(name, type, values.clone(), values.length);
  }

  /** 32-bit signed integers. */
  static Hdf5Attribute ints(String name, int... values) {
    long[] longs = new long[values.length];
    for (int n = 0; n < values.length; n++) {
      longs[n] = values[n];
    }
    return integers(name, Hdf5Type.INT32, longs);
  }

  /** 64-bit floats. */
  static Hdf5Attribute doubles(String name, double... values) {
    return reals(name, Hdf5Type.FLOAT64, values);
  }

  /** Floats of {@code type} (32-bit ones rounded from {@code values}). */
  static Hdf5Attribute reals(String name, Hdf5Type type, double... values) {
    return new Hdf5Attribute(name, type, values.clone(), values.length);
  }

  /** Variable-length strings, kept in {@code heap}. */
  static Hdf5Attribute strings(String name, StringHeap heap, String... values) {
    return new Hdf5Attribute(name, Hdf5Type.VLEN_STRING, heap.add(values), values.length);
  }

  /** The attribute's name. */
  String getName() {
    return name;
  }

  /** The body size of its attribute message. */
  int messageSize() {
    return 10 + nameBytes.length + type.message().length
        + Hdf5Header.dataspaceSize(scalar ? 0 : 1) + count * type.getSize();
  }

  /**
   * Its attribute message: version 3, UTF-8 name with a terminating zero, datatype, dataspace
   * (scalar for one value), then the values: numbers in the machine's order (as the datatype
   * says), strings as {@link StringHeap.Strings} encodes them.
   */
  void encode(Hdf5Header h, Hdf5Image image) {
    h.message(Hdf5Header.ATTRIBUTE, messageSize()).u8(3).u8(0).u16(nameBytes.length + 1)
        .u16(type.message().length).u16(Hdf5Header.dataspaceSize(scalar ? 0 : 1)).u8(1)
        .bytes(nameBytes).u8(0).bytes(type.message());
    h.dataspaceBody(scalar ? new int[0] : new int[] {count});
    if (values instanceof StringHeap.Strings strings) {
      strings.encode(h);
      return;
    }
    ByteBuffer b = image.nativeOrder();
    int at = h.index();
    int size = type.getSize();
    if (values instanceof long[] longs) {
      for (long v : longs) {
        switch (size) {
          case 1 -> b.put(at, (byte) v);
          case 4 -> b.putInt(at, (int) v);
          default -> b.putLong(at, v);
        }
        at += size;
      }
    } else {
      for (double v : (double[]) values) {
        if (size == 4) {
          b.putFloat(at, (float) v);
        } else {
          b.putDouble(at, v);
        }
        at += size;
      }
    }
    h.advance(count * size);
  }
}
