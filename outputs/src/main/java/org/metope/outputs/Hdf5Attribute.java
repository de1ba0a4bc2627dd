package org.metope.outputs;

import io.jhdf.api.Attribute;
import io.jhdf.api.Node;
import io.jhdf.object.datatype.DataType;
import io.jhdf.object.message.DataSpace;
import java.nio.ByteBuffer;

/**
 * One attribute of a file being written, with the exact HDF5 type Parthenon writes for it ({@link
 * Hdf5Type}): one value is a scalar, several a one-dimensional list, as Parthenon's {@code
 * HDF5WriteAttribute} makes them (it writes no attribute for an empty list). jhdf's object header
 * encodes it as an attribute message; it is never read back through this class.
 */
final class Hdf5Attribute implements Attribute {
  private final String name;
  private final Hdf5Type type;
  /** {@code long[]}, {@code double[]} or {@link StringHeap.Strings}. */
  private final Object values;
  private final boolean scalar;

  private Hdf5Attribute(String name, Hdf5Type type, Object values, int count) {
    if (count < 1) {
      throw new IllegalArgumentException("attribute name=" + name
          + " has no value: HDF5 files hold no empty attribute");
    }
    this.name = name;
    this.type = type;
    this.values = values;
    this.scalar = count == 1;
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

  private int count() {
    return values instanceof StringHeap.Strings s ? s.count()
        : java.lang.reflect.Array.getLength(values);
  }

  @Override
  public Node getNode() {
    throw new UnsupportedOperationException("attribute " + name + " is being written");
  }

  @Override
  public String getName() {
    return name;
  }

  @Override
  public long getSize() {
    return count();
  }

  @Override
  public long getSizeInBytes() {
    return (long) count() * type.getSize();
  }

  @Override
  public int[] getDimensions() {
    return scalar ? new int[0] : new int[] {count()};
  }

  /** What {@link Hdf5Type#encodeData} encodes (jhdf's attribute message passes it there). */
  @Override
  public Object getData() {
    return values;
  }

  @Override
  public Class<?> getJavaType() {
    return type.getJavaType();
  }

  @Override
  public boolean isScalar() {
    return scalar;
  }

  @Override
  public boolean isEmpty() {
    return false;
  }

  @Override
  public ByteBuffer getBuffer() {
    return type.encodeData(values);
  }

  @Override
  public DataSpace getDataSpace() {
    return DataSpace.fromObject(scalar ? (Object) 0 : new byte[count()]);
  }

  @Override
  public DataType getDataType() {
    return type;
  }
}
