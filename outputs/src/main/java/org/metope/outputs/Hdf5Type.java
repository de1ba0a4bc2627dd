package org.metope.outputs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The HDF5 element types of Metope's files, each encoded as HDF5's C library encodes the type
 * Parthenon writes for the same content (its {@code getHDF5Type}): signed 32- and 64-bit and
 * unsigned 8- and 64-bit integers, 32- and 64-bit IEEE floats, and variable-length strings
 * ({@code H5T_C_S1} of size {@code H5T_VARIABLE}: ASCII, null-terminated, over unsigned chars).
 * Numbers are stored in the machine's byte order, as jhdf and Parthenon store them.
 *
 * <p>A variable-length string element is 16 bytes: its length in bytes, the address of the global
 * heap collection holding it and its index there ({@link StringHeap}).
 */
final class Hdf5Type {
  private static final int FIXED_POINT = 0;
  private static final int FLOATING_POINT = 1;
  private static final int VARIABLE_LENGTH = 9;

  /** 32-bit signed integers (Parthenon's {@code int}). */
  static final Hdf5Type INT32 = new Hdf5Type(FIXED_POINT, 4, true);
  /** 64-bit signed integers ({@code int64_t}). */
  static final Hdf5Type INT64 = new Hdf5Type(FIXED_POINT, 8, true);
  /** 8-bit unsigned integers (Parthenon's {@code bool}, HDF5's {@code H5T_NATIVE_HBOOL}). */
  static final Hdf5Type UINT8 = new Hdf5Type(FIXED_POINT, 1, false);
  /** 64-bit unsigned integers ({@code size_t}, {@code uint64_t}). */
  static final Hdf5Type UINT64 = new Hdf5Type(FIXED_POINT, 8, false);
  /** 32-bit IEEE floats. */
  static final Hdf5Type FLOAT32 = new Hdf5Type(FLOATING_POINT, 4, true);
  /** 64-bit IEEE floats. */
  static final Hdf5Type FLOAT64 = new Hdf5Type(FLOATING_POINT, 8, true);
  /** Variable-length ASCII strings in the file's global heap. */
  static final Hdf5Type VLEN_STRING = new Hdf5Type(VARIABLE_LENGTH, 16, false);

  private final int dataClass;
  private final int size;
  private final boolean signed;
  /** The datatype message's body ({@link #toBuffer}), encoded once. */
  private final byte[] message;

  private Hdf5Type(int dataClass, int size, boolean signed) {
    this.dataClass = dataClass;
    this.size = size;
    this.signed = signed;
    ByteBuffer body = toBuffer();
    this.message = new byte[body.remaining()];
    body.get(message);
  }

  /** The HDF5 type class: fixed point 0, floating point 1, variable length 9. */
  int getDataClass() {
    return dataClass;
  }

  /** Bytes per element. */
  int getSize() {
    return size;
  }

  /** The datatype message's body, as {@link #toBuffer} encodes it (not to be changed). */
  byte[] message() {
    return message;
  }

  /** The datatype message, as HDF5's {@code H5O_dtype_encode} writes it (version 1). */
  private ByteBuffer toBuffer() {
    ByteBuffer b = ByteBuffer.allocate(getDataClass() == FLOATING_POINT ? 20
        : getDataClass() == FIXED_POINT ? 12 : 20).order(ByteOrder.LITTLE_ENDIAN);
    boolean bigEndian = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN;
    b.put((byte) (0x10 | getDataClass()));
    if (getDataClass() == FIXED_POINT) {
      b.put((byte) ((bigEndian ? 1 : 0) | (signed ? 0x08 : 0))).put((byte) 0).put((byte) 0);
      b.putInt(getSize()).putShort((short) 0).putShort((short) (8 * getSize()));
    } else if (getDataClass() == FLOATING_POINT) {
      boolean dbl = getSize() == 8;
      // Byte order, implied leading mantissa bit (normalization 2), sign bit position.
      b.put((byte) ((bigEndian ? 1 : 0) | 0x20)).put((byte) (dbl ? 63 : 31)).put((byte) 0);
      b.putInt(getSize()).putShort((short) 0).putShort((short) (8 * getSize()));
      b.put((byte) (dbl ? 52 : 23)).put((byte) (dbl ? 11 : 8));
      b.put((byte) 0).put((byte) (dbl ? 52 : 23)).putInt(dbl ? 1023 : 127);
    } else {
      // A string (type 1), null-terminated padding (0), ASCII (0), over unsigned chars.
      b.put((byte) 1).put((byte) 0).put((byte) 0).putInt(getSize());
      b.put((byte) 0x10).put((byte) (bigEndian ? 1 : 0)).put((byte) 0).put((byte) 0);
      b.putInt(1).putShort((short) 0).putShort((short) 8);
    }
    return b.flip();
  }
}
