package org.metope.outputs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;

/**
 * An HDF5 file written by Metope: a version 2 superblock, the root group ({@link Hdf5Group}) at
 * byte 64, the global heap of its strings ({@link StringHeap}) right after the root's header, then
 * the groups and {@link FlatDataset}s in the order they were added. Metope encodes the superblock
 * and every object header itself ({@link Hdf5Header}) and chooses every type and address, so that
 * attributes carry Parthenon's types (variable-length strings, unsigned integers), which jhdf's
 * own writer cannot write. The structure is laid out in memory ({@link Hdf5Image}) and written in
 * one write per run of it between reserved datasets' values.
 */
final class Hdf5File implements AutoCloseable {
  /** Where the root group's header starts, after the superblock. */
  private static final long ROOT_GROUP_ADDRESS = 64;
  private static final byte[] SIGNATURE = {(byte) 0x89, 'H', 'D', 'F', '\r', '\n', 0x1A, '\n'};
  private static final int SUPERBLOCK_CHECKED = 44;

  private final Path path;
  /** The open file to write into. */
  private final FileChannel channel;
  private final StringHeap heap = new StringHeap();
  private final Hdf5Group root = new Hdf5Group(heap);
  private final Hdf5Image image = new Hdf5Image();
  private boolean written;

  private Hdf5File(Path path, FileChannel channel) {
    this.path = path;
    this.channel = channel;
  }

  /**
   * A file to be written through {@code channel}, open on the new, empty file {@code path}, when
   * it is closed; the channel stays open.
   */
  static Hdf5File create(Path path, FileChannel channel) {
    return new Hdf5File(path, channel);
  }

  /** The root group. */
  Hdf5Group root() {
    return root;
  }

  /**
   * The file's structure as laid out (after {@link #close}): the bytes outside the reserved
   * datasets' values, whose checksums the seal combines ({@link FileSeal#append}) once the
   * reserved datasets' headers are complete.
   */
  List<FileSeal.Known> structure() {
    return image.known();
  }

  /** Writes the file. */
  @Override
  public void close() {
    if (written) {
      return;
    }
    written = true;
    try {
      write(channel);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + path, e);
    }
  }

  private void write(FileChannel file) throws IOException {
    image.attach(file);
    image.append((int) ROOT_GROUP_ADDRESS);
    long eof = root.write(image, true);
    superblock(eof);
    image.writeTo(file);
  }

  /**
   * The version 2 superblock at byte 0: signature, version 2, 8-byte offsets and lengths, no
   * flags, base address 0, no extension, the end of the file, the root group's address, and the
   * lookup3 checksum of the fields before it.
   */
  private void superblock(long eof) {
    ByteBuffer b = image.littleEndian();
    b.put(0, SIGNATURE).put(8, (byte) 2).put(9, (byte) 8).put(10, (byte) 8).put(11, (byte) 0)
        .putLong(12, 0L).putLong(20, -1L).putLong(28, eof).putLong(36, ROOT_GROUP_ADDRESS);
    b.putInt(SUPERBLOCK_CHECKED, Hdf5Header.lookup3(b.array(), 0, SUPERBLOCK_CHECKED));
  }

  /** Writes all of {@code buffer} at {@code position}. */
  static void writeFully(FileChannel file, ByteBuffer buffer, long position) throws IOException {
    long at = position;
    while (buffer.hasRemaining()) {
      at += file.write(buffer, at);
    }
  }
}
