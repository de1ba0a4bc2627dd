package org.metope.outputs;

import io.jhdf.AbstractWritableNode;
import io.jhdf.HdfFile;
import io.jhdf.ObjectHeader;
import io.jhdf.api.Attribute;
import io.jhdf.api.NodeType;
import io.jhdf.api.WritableDataset;
import io.jhdf.exceptions.HdfWritingException;
import io.jhdf.filter.PipelineFilterWithData;
import io.jhdf.object.message.AttributeInfoMessage;
import io.jhdf.object.message.AttributeMessage;
import io.jhdf.object.message.DataLayout;
import io.jhdf.object.message.DataLayoutMessage.ContiguousDataLayoutMessage;
import io.jhdf.object.message.DataSpace;
import io.jhdf.object.message.DataSpaceMessage;
import io.jhdf.object.message.DataTypeMessage;
import io.jhdf.object.message.FillValueMessage;
import io.jhdf.object.message.Message;
import io.jhdf.storage.HdfFileChannel;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * Its header is written again when the values are complete, with their checksum.
 */
final class FlatDataset extends AbstractWritableNode implements WritableDataset {
  private static final int CHUNK_BYTES = 1 << 20;
  /**
   * The attribute every dataset carries: the CRC-32C of its raw data bytes as stored, which
   * {@link FileIntegrity} uses to name the damaged dataset of a file whose seal does not match.
   */
  static final String CHECKSUM_ATTRIBUTE = "MetopeDataCRC32C";

  /** The values, or null for a {@link #reserved} dataset. */
  private final Object data;
  private final int[] dimensions;
  private final Hdf5Type dataType;
  private final DataSpace dataSpace;
  /** Where jhdf put a reserved dataset's header and data; -1 until it has written the file. */
  private long headerPosition = -1;
  private long dataAddress = -1;
  private int headerLength = -1;

  private FlatDataset(String name, Object data, int[] dimensions, Hdf5Type dataType) {
    super(null, name);
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
    this.data = data;
    this.dimensions = dimensions.clone();
    this.dataType = dataType;
    this.dataSpace = DataSpace.modifyDimensions(
        DataSpace.fromObject(Array.newInstance(byte.class, ones(dimensions.length))),
        dimensions);
  }

  private static int[] ones(int rank) {
    int[] ones = new int[rank];
    Arrays.fill(ones, 1);
    return ones;
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

  /** Sets attribute {@code a}, replacing one of the same name. */
  void put(Hdf5Attribute a) {
    getAttributes().put(a.getName(), a);
  }

  @Override
  public Attribute putAttribute(String name, Object value) {
    throw new UnsupportedOperationException("attribute " + name + " of dataset " + getName()
        + ": give its HDF5 type with put(Hdf5Attribute)");
  }

  @Override
  public long write(HdfFileChannel channel, long position) {
    // The checksum is a placeholder of the same length until the data are written (a reserved
    // dataset's until fill() ends), so the header's length, and the data's address, are known.
    put(Hdf5Attribute.ints(CHECKSUM_ATTRIBUTE, 0));
    long address = position + header(position, Long.MAX_VALUE - 1, 0).limit();
    long size = getSizeInBytes();
    if (data == null) {
      reserve(channel.getFileChannel(), address + size - 1);
    } else {
      put(Hdf5Attribute.ints(CHECKSUM_ATTRIBUTE, writeData(channel.getFileChannel(), address)));
    }
    ByteBuffer header = header(position, address, size);
    headerPosition = position;
    headerLength = header.remaining();
    dataAddress = address;
    channel.write(header, position);
    return address + size;
  }

  /** Extends the file to {@code lastByte}, so that jhdf records the length with the data in it. */
  private void reserve(FileChannel file, long lastByte) {
    try {
      file.write(ByteBuffer.allocate(1), lastByte);
    } catch (IOException e) {
      throw new HdfWritingException("cannot reserve dataset " + getName() + " up to " + lastByte,
          e);
    }
  }

  /**
   * The values of this reserved dataset, appended in order through the returned fill once jhdf
   * has written (and closed) the file {@code file} is open on; its checksum then goes into
   * {@link #completeHeader}.
   */
  DatasetFill fill(FileChannel file) {
    if (data != null || dataAddress < 0) {
      throw new IllegalStateException("dataset name=" + getName() + " is not a reserved dataset"
          + " laid out in a file: reserved=" + (data == null) + " address=" + dataAddress);
    }
    return DatasetFill.part(file, getName(), dataAddress, 0, getSize(), dataType.getSize());
  }

  /** Where this dataset's values start in the file; -1 until jhdf has written it. */
  long dataAddress() {
    return dataAddress;
  }

  /** Writes this reserved dataset's header again, now recording its data's {@code checksum}. */
  void completeHeader(FileChannel file, int checksum) throws IOException {
    put(Hdf5Attribute.ints(CHECKSUM_ATTRIBUTE, checksum));
    ByteBuffer header = header(headerPosition, dataAddress, getSizeInBytes());
    if (header.remaining() != headerLength) {
      throw new IllegalStateException("dataset name=" + getName() + " header length="
          + header.remaining() + " differs from the reserved length=" + headerLength);
    }
    long at = headerPosition;
    while (header.hasRemaining()) {
      at += file.write(header, at);
    }
  }

  /** The object header; its length does not depend on the address and size it records. */
  private ByteBuffer header(long position, long dataAddress, long size) {
    List<Message> messages = new ArrayList<>();
    messages.add(DataTypeMessage.create(dataType));
    messages.add(DataSpaceMessage.create(dataSpace));
    messages.add(FillValueMessage.NO_FILL);
    messages.add(ContiguousDataLayoutMessage.create(dataAddress, size));
    Map<String, Attribute> attributes = getAttributes();
    if (!attributes.isEmpty()) {
      messages.add(AttributeInfoMessage.create());
      for (Map.Entry<String, Attribute> a : attributes.entrySet()) {
        messages.add(AttributeMessage.create(a.getKey(), a.getValue()));
      }
    }
    return new ObjectHeader.ObjectHeaderV2(position, messages).toBuffer();
  }

  /** Writes the data at {@code address}; returns their CRC-32C, computed on the way. */
  private int writeData(FileChannel file, long address) {
    CRC32C crc = new CRC32C();
    long[] at = {address};
    try {
      forEachChunk(buffer -> {
        buffer.mark();
        crc.update(buffer);
        buffer.reset();
        while (buffer.hasRemaining()) {
          at[0] += file.write(buffer, at[0]);
        }
      });
    } catch (UncheckedIOException e) {
      throw new HdfWritingException("cannot write dataset " + getName() + " at " + at[0],
          e.getCause());
    }
    return (int) crc.getValue();
  }

  /** Hands the data, in stored byte order, to {@code sink} one chunk of at most 1 MiB at a time. */
  private void forEachChunk(ChunkSink sink) {
    int elementBytes = dataType.getSize();
    int length = Array.getLength(data);
    int perChunk = Math.max(1, CHUNK_BYTES / elementBytes);
    ByteBuffer buffer = ByteBuffer.allocate(Math.min(length, perChunk) * elementBytes)
        .order(ByteOrder.nativeOrder());
    for (int start = 0; start < length; start += perChunk) {
      int end = Math.min(length, start + perChunk);
      buffer.clear();
      copyInto(buffer, start, end);
      buffer.flip();
      try {
        sink.accept(buffer);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** Receives one chunk of data bytes (position to limit). */
  @FunctionalInterface
  private interface ChunkSink {
    void accept(ByteBuffer chunk) throws IOException;
  }

  private void copyInto(ByteBuffer buffer, int start, int end) {
    if (data instanceof double[] d) {
      buffer.asDoubleBuffer().put(d, start, end - start);
    } else if (data instanceof long[] l) {
      buffer.asLongBuffer().put(l, start, end - start);
    } else if (data instanceof int[] n) {
      buffer.asIntBuffer().put(n, start, end - start);
    } else {
      buffer.put((byte[]) data, start, end - start);
    }
    buffer.position((end - start) * dataType.getSize());
  }

  @Override
  public long getSize() {
    return dataSpace.getTotalLength();
  }

  @Override
  public long getSizeInBytes() {
    return getSize() * dataType.getSize();
  }

  @Override
  public long getStorageInBytes() {
    return getSizeInBytes();
  }

  @Override
  public int[] getDimensions() {
    return dimensions.clone();
  }

  @Override
  public boolean isScalar() {
    return false;
  }

  @Override
  public boolean isEmpty() {
    return false;
  }

  @Override
  public boolean isCompound() {
    return false;
  }

  @Override
  public boolean isVariableLength() {
    return false;
  }

  @Override
  public long[] getMaxSize() {
    return dataSpace.getMaxSizes();
  }

  @Override
  public DataLayout getDataLayout() {
    return DataLayout.CONTIGUOUS;
  }

  @Override
  public Object getData() {
    return data;
  }

  @Override
  public Object getDataFlat() {
    return data;
  }

  @Override
  public Object getData(long[] sliceOffset, int[] sliceDimensions) {
    throw new UnsupportedOperationException("slices of a dataset being written: name="
        + getName());
  }

  @Override
  public Class<?> getJavaType() {
    if (data == null) {
      return dataType.getSize() == 4 ? float.class : double.class;
    }
    return data.getClass().getComponentType();
  }

  @Override
  public Hdf5Type getDataType() {
    return dataType;
  }

  @Override
  public Object getFillValue() {
    return null;
  }

  @Override
  public List<PipelineFilterWithData> getFilters() {
    return List.of();
  }

  @Override
  public NodeType getType() {
    return NodeType.DATASET;
  }

  @Override
  public boolean isGroup() {
    return false;
  }

  @Override
  public File getFile() {
    throw new UnsupportedOperationException("dataset " + getName() + " is being written");
  }

  @Override
  public Path getFileAsPath() {
    throw new UnsupportedOperationException("dataset " + getName() + " is being written");
  }

  @Override
  public HdfFile getHdfFile() {
    throw new UnsupportedOperationException("dataset " + getName() + " is being written");
  }

  @Override
  public long getAddress() {
    throw new UnsupportedOperationException("address unknown until written: name=" + getName());
  }

  @Override
  public boolean isLink() {
    return false;
  }

  @Override
  public boolean isAttributeCreationOrderTracked() {
    return false;
  }
}
