package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jhdf.HdfFile;
import io.jhdf.ObjectHeader;
import io.jhdf.api.Attribute;
import io.jhdf.api.Node;
import io.jhdf.checksum.JenkinsLookup3HashLittle;
import io.jhdf.object.datatype.DataType;
import io.jhdf.object.message.AttributeInfoMessage;
import io.jhdf.object.message.AttributeMessage;
import io.jhdf.object.message.DataLayoutMessage.ContiguousDataLayoutMessage;
import io.jhdf.object.message.DataSpace;
import io.jhdf.object.message.DataSpaceMessage;
import io.jhdf.object.message.DataTypeMessage;
import io.jhdf.object.message.FillValueMessage;
import io.jhdf.object.message.GroupInfoMessage;
import io.jhdf.object.message.LinkInfoMessage;
import io.jhdf.object.message.LinkMessage;
import io.jhdf.object.message.Message;
import io.jhdf.storage.HdfBackingStorage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Metope's own object headers and superblock hold jhdf 0.9.4's bytes, which the files had while
 * jhdf encoded them (and which h5py and Parthenon's readers take): each header of a written file
 * equals the header jhdf's {@code ObjectHeaderV2} encodes from jhdf's messages for the same
 * content and addresses.
 */
class Hdf5HeaderTest {
  @TempDir Path dir;

  @Test
  void givenAnyBytes_thenLookup3IsJhdfsJenkinsHash() {
    Random random = new Random(36);
    for (int length = 0; length <= 64; length++) {
      byte[] bytes = new byte[length + 3];
      random.nextBytes(bytes);
      byte[] part = Arrays.copyOfRange(bytes, 3, bytes.length);
      assertEquals(JenkinsLookup3HashLittle.hash(part), Hdf5Header.lookup3(bytes, 3, length),
          "length=" + length);
    }
  }

  @Test
  void givenGroupsDatasetsAndNumericAttributes_thenEveryHeaderIsJhdfs() throws IOException {
    Path file = dir.resolve("h.h5");
    FlatDataset d;
    FlatDataset reserved;
    try (FileChannel out = TestFiles.newFile(file);
        Hdf5File h5 = Hdf5File.create(file, out)) {
      Hdf5Group info = h5.root().group("Info");
      info.putInts("NCycle", 7);
      info.putInts("MeshBlockSize", 16, 16, 1);
      info.putDoubles("Time", 0.25);
      info.putDoubles("RootGridDomain", -0.5, 0.5, 1.0);
      info.put(Hdf5Attribute.integers("NumComponents", Hdf5Type.UINT64, 1, 3));
      info.put(Hdf5Attribute.integers("Refine", Hdf5Type.UINT8, 1));
      info.put(Hdf5Attribute.integers("Big", Hdf5Type.INT64, 1L << 40));
      info.put(Hdf5Attribute.reals("Single", Hdf5Type.FLOAT32, 1.0 / 3));
      d = FlatDataset.of("xmin", new double[] {0.5, -1.5, 2.0, 3.0}, 2, 2);
      h5.root().group("Blocks").add(d);
      reserved = FlatDataset.reserved("advected", false, 2, 1, 1, 4, 4);
      h5.root().add(reserved);
      h5.root().add(FlatDataset.of("ids", new int[] {1, 2, 3}, 3));
    }
    byte[] bytes = Files.readAllBytes(file);
    try (HdfFile h5 = new HdfFile(file)) {
      Node info = h5.getByPath("Info");
      List<Message> infoMessages = groupMessages();
      infoMessages.add(AttributeInfoMessage.create());
      infoMessages.add(attribute("NCycle", Hdf5Type.INT32, true, 7));
      infoMessages.add(attribute("MeshBlockSize", Hdf5Type.INT32, false, 16, 16, 1));
      infoMessages.add(attribute("Time", Hdf5Type.FLOAT64, true, 0.25));
      infoMessages.add(attribute("RootGridDomain", Hdf5Type.FLOAT64, false, -0.5, 0.5, 1.0));
      infoMessages.add(attribute("NumComponents", Hdf5Type.UINT64, false, 1, 3));
      infoMessages.add(attribute("Refine", Hdf5Type.UINT8, true, 1));
      infoMessages.add(attribute("Big", Hdf5Type.INT64, true, 1L << 40));
      infoMessages.add(attribute("Single", Hdf5Type.FLOAT32, true, 1.0 / 3));
      assertHeader(bytes, info.getAddress(), infoMessages);

      List<Message> root = groupMessages();
      for (String child : List.of("Info", "Blocks", "advected", "ids")) {
        root.add(LinkMessage.create(child, h5.getByPath(child).getAddress()));
      }
      assertHeader(bytes, 64, root);

      Node blocks = h5.getByPath("Blocks");
      List<Message> blockMessages = groupMessages();
      blockMessages.add(LinkMessage.create("xmin", h5.getByPath("Blocks/xmin").getAddress()));
      assertHeader(bytes, blocks.getAddress(), blockMessages);

      assertHeader(bytes, h5.getByPath("Blocks/xmin").getAddress(),
          datasetMessages(Hdf5Type.FLOAT64, new int[] {2, 2}, d.dataAddress(), 32,
              checksum(bytes, d.dataAddress(), 32)));
      assertHeader(bytes, h5.getByPath("advected").getAddress(),
          datasetMessages(Hdf5Type.FLOAT64, new int[] {2, 1, 1, 4, 4}, reserved.dataAddress(),
              256, 0));
    }
    ByteBuffer superblock = ByteBuffer.allocate(48);
    superblock.put(bytes, 0, 48);
    io.jhdf.Superblock.SuperblockV2V3 jhdf = new io.jhdf.Superblock.SuperblockV2V3();
    assertArrayEquals(jhdf.toBuffer(bytes.length).array(), superblock.array(), "superblock");
  }

  private static void assertHeader(byte[] file, long address, List<Message> messages) {
    byte[] expected = new ObjectHeader.ObjectHeaderV2(address, messages).toBuffer().array();
    byte[] actual = Arrays.copyOfRange(file, (int) address, (int) address + expected.length);
    assertArrayEquals(expected, actual, "object header at " + address);
  }

  private static List<Message> groupMessages() {
    List<Message> messages = new ArrayList<>();
    messages.add(GroupInfoMessage.createBasic());
    messages.add(LinkInfoMessage.createBasic());
    return messages;
  }

  private static List<Message> datasetMessages(Hdf5Type type, int[] dims, long address,
      long size, int checksum) {
    List<Message> messages = new ArrayList<>();
    messages.add(DataTypeMessage.create(new Reference(type)));
    int[] ones = new int[dims.length];
    Arrays.fill(ones, 1);
    messages.add(DataSpaceMessage.create(DataSpace.modifyDimensions(
        DataSpace.fromObject(java.lang.reflect.Array.newInstance(byte.class, ones)), dims)));
    messages.add(FillValueMessage.NO_FILL);
    messages.add(ContiguousDataLayoutMessage.create(address, size));
    messages.add(AttributeInfoMessage.create());
    messages.add(attribute(FlatDataset.CHECKSUM_ATTRIBUTE, Hdf5Type.INT32, true, checksum));
    return messages;
  }

  private static int checksum(byte[] file, long from, int length) {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(file, (int) from, length);
    return (int) crc.getValue();
  }

  /** jhdf's attribute message of numbers, encoded here in the machine's order. */
  private static Message attribute(String name, Hdf5Type type, boolean scalar, double... values) {
    ByteBuffer data = ByteBuffer.allocate(values.length * type.getSize())
        .order(ByteOrder.nativeOrder());
    for (double v : values) {
      if (type.getDataClass() == 1) {
        if (type.getSize() == 4) {
          data.putFloat((float) v);
        } else {
          data.putDouble(v);
        }
      } else {
        long n = (long) v;
        switch (type.getSize()) {
          case 1 -> data.put((byte) n);
          case 4 -> data.putInt((int) n);
          default -> data.putLong(n);
        }
      }
    }
    return AttributeMessage.create(name, new ReferenceAttribute(name, new Reference(type),
        DataSpace.fromObject(scalar ? (Object) 0 : new byte[values.length]), data));
  }

  private static Message attribute(String name, Hdf5Type type, boolean scalar, long... values) {
    double[] d = new double[values.length];
    for (int n = 0; n < d.length; n++) {
      d[n] = values[n];
    }
    if (type == Hdf5Type.INT64) {
      ByteBuffer data = ByteBuffer.allocate(8 * values.length).order(ByteOrder.nativeOrder());
      for (long v : values) {
        data.putLong(v);
      }
      return AttributeMessage.create(name, new ReferenceAttribute(name, new Reference(type),
          DataSpace.fromObject(scalar ? (Object) 0 : new byte[values.length]), data));
    }
    return attribute(name, type, scalar, d);
  }

  private static Message attribute(String name, Hdf5Type type, boolean scalar, int... values) {
    long[] l = new long[values.length];
    for (int n = 0; n < l.length; n++) {
      l[n] = values[n];
    }
    return attribute(name, type, scalar, l);
  }

  /** A jhdf type whose datatype message is the one Metope writes, its data given encoded. */
  private static final class Reference extends DataType {
    private final Hdf5Type type;

    Reference(Hdf5Type type) {
      super(type.getDataClass(), type.getSize());
      this.type = type;
    }

    @Override
    public ByteBuffer toBuffer() {
      return ByteBuffer.wrap(type.message().clone());
    }

    @Override
    public ByteBuffer encodeData(Object data) {
      return (ByteBuffer) data;
    }

    @Override
    public Class<?> getJavaType() {
      return Object.class;
    }

    @Override
    public Object fillData(ByteBuffer buffer, int[] dimensions, HdfBackingStorage storage) {
      throw new UnsupportedOperationException("write-only");
    }
  }

  /** The parts of jhdf's {@link Attribute} its attribute message reads. */
  private record ReferenceAttribute(String getName, DataType getDataType,
      DataSpace getDataSpace, ByteBuffer getData) implements Attribute {
    @Override
    public Node getNode() {
      throw new UnsupportedOperationException();
    }

    @Override
    public long getSize() {
      return getDataSpace.getTotalLength();
    }

    @Override
    public long getSizeInBytes() {
      return getSize() * getDataType.getSize();
    }

    @Override
    public int[] getDimensions() {
      return getDataSpace.getDimensions();
    }

    @Override
    public Class<?> getJavaType() {
      return Object.class;
    }

    @Override
    public boolean isScalar() {
      return getDimensions().length == 0;
    }

    @Override
    public boolean isEmpty() {
      return false;
    }

    @Override
    public ByteBuffer getBuffer() {
      return getData;
    }
  }
}
