package org.metope.outputs;

import java.nio.ByteBuffer;

/**
 * Writes one version 2 object header (HDF5 file format, section IV.A.1.b) into an {@link
 * Hdf5Image}, message by message, with the encodings jhdf 0.9.4 gives the messages of groups and
 * datasets (its {@code ObjectHeaderV2}, whose bytes Metope's files kept; {@code Hdf5HeaderTest}
 * holds the two equal):
 *
 * <pre>
 * "OHDR", version 2, flags 0x02 (chunk size in 4 bytes), chunk size
 * per message: type (1), body size (2), flags (1, zero), body
 * Jenkins lookup3 checksum of everything before it (4)
 * </pre>
 *
 * The caller gives the header's whole length first ({@link #length} of the message bodies), so
 * that children can be laid out behind it before it is written; all fields are little-endian.
 */
final class Hdf5Header {
  /** Message types (HDF5 file format, section IV.A.2). */
  static final int DATASPACE = 1;
  static final int LINK_INFO = 2;
  static final int DATATYPE = 3;
  static final int FILL_VALUE = 5;
  static final int LINK = 6;
  static final int DATA_LAYOUT = 8;
  static final int GROUP_INFO = 10;
  static final int ATTRIBUTE = 12;
  static final int ATTRIBUTE_INFO = 21;
  /** Body sizes of the messages whose size is fixed. */
  static final int GROUP_INFO_SIZE = 2;
  static final int LINK_INFO_SIZE = 18;
  static final int ATTRIBUTE_INFO_SIZE = 18;
  static final int FILL_VALUE_SIZE = 2;
  static final int DATA_LAYOUT_SIZE = 18;
  private static final byte[] SIGNATURE = {'O', 'H', 'D', 'R'};
  private static final int PREFIX = 10;
  private static final int MESSAGE_PREFIX = 4;
  private static final int CHECKSUM = 4;
  /** Every byte set: HDF5's undefined address. */
  private static final long UNDEFINED = -1L;

  private final ByteBuffer b;
  private final int start;
  private final int last;
  private int at;

  /**
   * Starts the header of {@code length} bytes ({@link #length}) at file position {@code position}
   * of {@code image}, where it has been laid out.
   */
  Hdf5Header(Hdf5Image image, long position, int length) {
    this.b = image.littleEndian();
    this.start = image.index(position);
    this.last = start + length - CHECKSUM;
    b.put(start, SIGNATURE[0]).put(start + 1, SIGNATURE[1]).put(start + 2, SIGNATURE[2])
        .put(start + 3, SIGNATURE[3]).put(start + 4, (byte) 2).put(start + 5, (byte) 0x02)
        .putInt(start + 6, length - PREFIX - CHECKSUM);
    this.at = start + PREFIX;
  }

  /** The length of a header whose messages have bodies of {@code bodies} bytes in all. */
  static int length(int messages, int bodies) {
    return PREFIX + messages * MESSAGE_PREFIX + bodies + CHECKSUM;
  }

  /** Starts a message of {@code type} whose body has {@code size} bytes. */
  Hdf5Header message(int type, int size) {
    return u8(type).u16(size).u8(0);
  }

  Hdf5Header u8(int value) {
    b.put(at, (byte) value);
    at += 1;
    return this;
  }

  Hdf5Header u16(int value) {
    b.putShort(at, (short) value);
    at += 2;
    return this;
  }

  Hdf5Header u32(int value) {
    b.putInt(at, value);
    at += 4;
    return this;
  }

  Hdf5Header u64(long value) {
    b.putLong(at, value);
    at += 8;
    return this;
  }

  Hdf5Header bytes(byte[] value) {
    b.put(at, value);
    at += value.length;
    return this;
  }

  /** Where the next byte goes in the image's array (for values in the machine's order). */
  int index() {
    return at;
  }

  /** Moves past {@code length} bytes written straight into the image's array. */
  Hdf5Header advance(int length) {
    at += length;
    return this;
  }

  /** A group's group info message: no link phase change, no estimates. */
  Hdf5Header groupInfo() {
    return message(GROUP_INFO, GROUP_INFO_SIZE).u8(0).u8(0);
  }

  /** A group's link info message: compact links, no fractal heap, no name index. */
  Hdf5Header linkInfo() {
    return message(LINK_INFO, LINK_INFO_SIZE).u8(0).u8(0).u64(UNDEFINED).u64(UNDEFINED);
  }

  /** The body size of a hard link message to a child named by {@code name} (UTF-8). */
  static int linkSize(byte[] name) {
    return 4 + name.length + 8;
  }

  /** A hard link to the object header at {@code address}: UTF-8 name, one-byte length. */
  Hdf5Header link(byte[] name, long address) {
    if (name.length > 0xFF) {
      throw new IllegalArgumentException("link name of " + name.length
          + " bytes: at most 255 fit this encoding");
    }
    return message(LINK, linkSize(name)).u8(1).u8(0x10).u8(1).u8(name.length).bytes(name)
        .u64(address);
  }

  /** The attribute info message that precedes attributes: no creation order, compact. */
  Hdf5Header attributeInfo() {
    return message(ATTRIBUTE_INFO, ATTRIBUTE_INFO_SIZE).u8(0).u8(0).u64(UNDEFINED)
        .u64(UNDEFINED);
  }

  /** The body size of a simple dataspace of {@code rank} dimensions (0: a scalar). */
  static int dataspaceSize(int rank) {
    return 4 + 8 * rank;
  }

  /** A dataspace body (version 2, no maximum sizes): scalar, or simple of {@code dims}. */
  Hdf5Header dataspaceBody(int... dims) {
    u8(2).u8(dims.length).u8(0).u8(dims.length == 0 ? 0 : 1);
    for (int d : dims) {
      u64(d);
    }
    return this;
  }

  /** A dataset's fill value message: version 3, allocated late, no fill value defined. */
  Hdf5Header noFill() {
    return message(FILL_VALUE, FILL_VALUE_SIZE).u8(3).u8(0x11);
  }

  /** A dataset's contiguous layout: its values' address and size in bytes. */
  Hdf5Header contiguous(long address, long size) {
    return message(DATA_LAYOUT, DATA_LAYOUT_SIZE).u8(3).u8(1).u64(address).u64(size);
  }

  /** Ends the header with its checksum; every byte of its length must have been written. */
  void finish() {
    if (at != last) {
      throw new IllegalStateException("object header length=" + (last + CHECKSUM - start)
          + " but " + (at - start) + " bytes of messages written before the checksum");
    }
    b.putInt(at, lookup3(b.array(), start, at - start));
  }

  /**
   * Bob Jenkins' lookup3 {@code hashlittle} with initial value 0: the checksum of HDF5's version 2
   * metadata (its {@code H5_checksum_lookup3}).
   */
  static int lookup3(byte[] key, int offset, int length) {
    int a = 0xDEADBEEF + length;
    int b = a;
    int c = a;
    int k = offset;
    int remaining = length;
    while (remaining > 12) {
      a += word(key, k, 4);
      b += word(key, k + 4, 4);
      c += word(key, k + 8, 4);
      a -= c;
      a ^= Integer.rotateLeft(c, 4);
      c += b;
      b -= a;
      b ^= Integer.rotateLeft(a, 6);
      a += c;
      c -= b;
      c ^= Integer.rotateLeft(b, 8);
      b += a;
      a -= c;
      a ^= Integer.rotateLeft(c, 16);
      c += b;
      b -= a;
      b ^= Integer.rotateLeft(a, 19);
      a += c;
      c -= b;
      c ^= Integer.rotateLeft(b, 4);
      b += a;
      k += 12;
      remaining -= 12;
    }
    if (remaining == 0) {
      return c;
    }
    a += word(key, k, Math.min(4, remaining));
    b += remaining > 4 ? word(key, k + 4, Math.min(4, remaining - 4)) : 0;
    c += remaining > 8 ? word(key, k + 8, remaining - 8) : 0;
    c ^= b;
    c -= Integer.rotateLeft(b, 14);
    a ^= c;
    a -= Integer.rotateLeft(c, 11);
    b ^= a;
    b -= Integer.rotateLeft(a, 25);
    c ^= b;
    c -= Integer.rotateLeft(b, 16);
    a ^= c;
    a -= Integer.rotateLeft(c, 4);
    b ^= a;
    b -= Integer.rotateLeft(a, 14);
    c ^= b;
    c -= Integer.rotateLeft(b, 24);
    return c;
  }

  /** The little-endian number of the {@code count} (1 to 4) bytes at {@code at}. */
  private static int word(byte[] key, int at, int count) {
    int w = 0;
    for (int n = 0; n < count; n++) {
      w |= (key[at + n] & 0xFF) << (8 * n);
    }
    return w;
  }
}
