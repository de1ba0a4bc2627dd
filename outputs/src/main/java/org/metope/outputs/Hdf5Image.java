package org.metope.outputs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The bytes of a file's structure as {@link Hdf5File} lays it out: superblock, object headers, the
 * string heap and the values of datasets given whole (up to {@link FlatDataset#IN_IMAGE_BYTES}
 * each), at their file positions, in one growable array. The values of {@link
 * FlatDataset#reserved} datasets are holes: they come into the file later; larger values given
 * whole are holes too, written straight to the file as they are laid out. The structure then
 * goes to the file in one write per run of bytes between holes, and its checksums come from memory
 * ({@link #known}), so sealing the file reads none of it back.
 *
 * <pre>
 * file:   [ run 0 ........ | hole (values) | run 1 .... | hole | run 2 ... ]
 * array:  [ run 0 ........ | run 1 .... | run 2 ... ]
 * </pre>
 */
final class Hdf5Image {
  private byte[] bytes = new byte[1 << 16];
  private ByteBuffer littleEndian = view(ByteOrder.LITTLE_ENDIAN);
  private ByteBuffer nativeOrder = view(ByteOrder.nativeOrder());
  /** Bytes of the array in use. */
  private int used;
  /** The file position after the last byte laid out, holes included. */
  private long end;
  /** Per run: its first file position and where it starts in the array. */
  private long[] runStart = new long[8];
  private int[] runOffset = new int[8];
  private int runs;
  /** The file being written, for values written straight to it ({@link #known(FileSeal.Known)}). */
  private FileChannel file;
  /** Bytes of the file written straight to it, with their CRC-32C. */
  private final List<FileSeal.Known> direct = new ArrayList<>();

  private ByteBuffer view(ByteOrder order) {
    return ByteBuffer.wrap(bytes).order(order);
  }

  /** Lays the file out for {@code file}, which values too large to copy are written to. */
  void attach(FileChannel file) {
    this.file = file;
  }

  /** The file the image is for ({@link #attach}). */
  FileChannel file() {
    return file;
  }

  /** Records bytes written straight to the file, and their CRC-32C, for the seal. */
  void known(FileSeal.Known written) {
    direct.add(written);
  }

  /** The file position after everything laid out so far. */
  long end() {
    return end;
  }

  /**
   * Lays out {@code length} bytes (zero until written) at {@link #end}; their index in the
   * array.
   */
  int append(int length) {
    if (runs == 0 || runStart[runs - 1] + (used - runOffset[runs - 1]) != end) {
      if (runs == runStart.length) {
        runStart = Arrays.copyOf(runStart, 2 * runs);
        runOffset = Arrays.copyOf(runOffset, 2 * runs);
      }
      runStart[runs] = end;
      runOffset[runs] = used;
      runs++;
    }
    if (used + length > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, used + length));
      littleEndian = view(ByteOrder.LITTLE_ENDIAN);
      nativeOrder = view(ByteOrder.nativeOrder());
    }
    int at = used;
    used += length;
    end += length;
    return at;
  }

  /** Leaves {@code length} bytes of the file to be written later: a hole in the image. */
  void skip(long length) {
    end += length;
  }

  /** The array index of file position {@code position}, which must be laid out in the image. */
  int index(long position) {
    for (int r = runs - 1; r >= 0; r--) {
      if (position >= runStart[r]) {
        long at = runOffset[r] + (position - runStart[r]);
        if (at >= runEnd(r)) {
          break;
        }
        return (int) at;
      }
    }
    throw new IllegalArgumentException("file position=" + position + " is not in the image");
  }

  private int runEnd(int r) {
    return r + 1 < runs ? runOffset[r + 1] : used;
  }

  /** The array, for structures written in little-endian order (HDF5's own fields). */
  ByteBuffer littleEndian() {
    return littleEndian;
  }

  /** The array in the machine's byte order (values, as HDF5 datatypes here declare them). */
  ByteBuffer nativeOrder() {
    return nativeOrder;
  }

  /** The array itself. */
  byte[] bytes() {
    return bytes;
  }

  /**
   * Writes every run of the image to {@code file} at its position, and makes the file as long as
   * the layout (a zero for the last byte of a hole at the end, where nothing was written yet).
   */
  void writeTo(FileChannel file) throws IOException {
    for (int r = 0; r < runs; r++) {
      Hdf5File.writeFully(file, ByteBuffer.wrap(bytes, runOffset[r], runEnd(r) - runOffset[r]),
          runStart[r]);
    }
    if (file.size() < end) {
      Hdf5File.writeFully(file, ByteBuffer.allocate(1), end - 1);
    }
  }

  /** Writes bytes {@code [position, position + length)} of the image to {@code file} again. */
  void rewrite(FileChannel file, long position, int length) throws IOException {
    Hdf5File.writeFully(file, ByteBuffer.wrap(bytes, index(position), length), position);
  }

  /**
   * Every run of the image, and the values written straight to the file, as bytes of the file
   * whose CRC-32C is known, in file order.
   */
  List<FileSeal.Known> known() {
    List<FileSeal.Known> known = new ArrayList<>(direct);
    CRC32C crc = new CRC32C();
    for (int r = 0; r < runs; r++) {
      crc.reset();
      int length = runEnd(r) - runOffset[r];
      crc.update(bytes, runOffset[r], length);
      known.add(new FileSeal.Known(runStart[r], length, (int) crc.getValue()));
    }
    known.sort(Comparator.comparingLong(FileSeal.Known::start));
    return known;
  }
}
