package org.metope.outputs;

import io.jhdf.object.datatype.DataType;
import io.jhdf.storage.HdfBackingStorage;
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
final class Hdf5Type extends DataType {
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

  private final boolean signed;

  private Hdf5Type(int dataClass, int size, boolean signed) {
    super(dataClass, size);
    this.signed = signed;
  }

  /** Whether the elements are strings. */
  boolean isString() {
    return getDataClass() == VARIABLE_LENGTH;
  }

  /** The datatype message, as HDF5's {@code H5O_dtype_encode} writes it (version 1). */
  @Override
  public ByteBuffer toBuffer() {
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

  /**
   * The stored bytes of {@code data}: a {@code long[]} for integer types, a {@code double[]} for
   * floats, {@link StringHeap.Strings} for strings.
   */
  @Override
  public ByteBuffer encodeData(Object data) {
    if (data instanceof StringHeap.Strings strings) {
      return strings.encode();
    }
    ByteBuffer b;
    if (data instanceof long[] values && getDataClass() == FIXED_POINT) {
      b = ByteBuffer.allocate(values.length * getSize()).order(ByteOrder.nativeOrder());
      for (long v : values) {
        switch (getSize()) {
          case 1 -> b.put((byte) v);
          case 4 -> b.putInt((int) v);
          default -> b.putLong(v);
        }
      }
    } else if (data instanceof double[] values && getDataClass() == FLOATING_POINT) {
      b = ByteBuffer.allocate(values.length * getSize()).order(ByteOrder.nativeOrder());
      for (double v : values) {
        if (getSize() == 4) {
          b.putFloat((float) v);
        } else {
          b.putDouble(v);
        }
      }
    } else {
      throw new IllegalArgumentException("type class=" + getDataClass() + " size=" + getSize()
          + " cannot hold " + (data == null ? "null" : data.getClass().getSimpleName()));
    }
    return b.flip();
  }

  @Override
  public Class<?> getJavaType() {
    return isString() ? String.class : getDataClass() == FLOATING_POINT ? double.class
        : long.class;
  }

  /** Write-only: files are read with jhdf's own types. */
  @Override
  public Object fillData(ByteBuffer buffer, int[] dimensions, HdfBackingStorage storage) {
    throw new UnsupportedOperationException("Hdf5Type is for writing only");
  }
}
