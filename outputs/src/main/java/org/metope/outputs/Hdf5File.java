package org.metope.outputs;

import io.jhdf.Superblock;
import io.jhdf.WritableHdfFile;
import io.jhdf.storage.HdfFileChannel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An HDF5 file written by Metope: a version 2 superblock, the root group ({@link Hdf5Group}) at
 * byte 64, the global heap of its strings ({@link StringHeap}) right after the root's header, then
 * the groups and {@link FlatDataset}s in the order they were added. jhdf supplies the object
 * header and message encodings; this class and the nodes choose every type and address, so that
 * attributes carry Parthenon's types (variable-length strings, unsigned integers), which jhdf's
 * own writer cannot write.
 */
final class Hdf5File implements AutoCloseable {
  private final Path path;
  private final StringHeap heap = new StringHeap();
  private final Hdf5Group root = new Hdf5Group(heap);
  private boolean written;

  private Hdf5File(Path path) {
    this.path = path;
  }

  /** A file to be written at {@code path} (created or replaced) when it is closed. */
  static Hdf5File create(Path path) {
    return new Hdf5File(path);
  }

  /** The root group. */
  Hdf5Group root() {
    return root;
  }

  /** Writes the file. */
  @Override
  public void close() {
    if (written) {
      return;
    }
    written = true;
    try (FileChannel file = FileChannel.open(path, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      Superblock.SuperblockV2V3 superblock = new Superblock.SuperblockV2V3();
      long end = root.write(new HdfFileChannel(file, superblock),
          WritableHdfFile.ROOT_GROUP_ADDRESS, true);
      long eof = Math.max(end, file.size());
      writeFully(file, superblock.toBuffer(eof), 0L);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + path, e);
    }
  }

  /** Writes all of {@code buffer} at {@code position}. */
  static void writeFully(FileChannel file, ByteBuffer buffer, long position) throws IOException {
    long at = position;
    while (buffer.hasRemaining()) {
      at += file.write(buffer, at);
    }
  }
}
