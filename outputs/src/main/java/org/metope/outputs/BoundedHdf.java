package org.metope.outputs;

import io.jhdf.HdfFile;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Opens an HDF5 file that may be damaged so that following its structure costs bounded memory:
 * jhdf reads the file through a read-only mapping of it, where every size and address a header
 * records becomes a view of the mapped bytes, and one that points past the end of the file is an
 * exception instead of an allocation of that size (through a file channel, jhdf allocates a
 * buffer of whatever length a header says: a flipped bit in one asked for gigabytes).
 */
public final class BoundedHdf {
  private BoundedHdf() {}

  /**
   * The file, mapped; null when it is too long for one mapping (2 GiB), which the caller reports
   * as it sees fit.
   *
   * @throws IOException when it cannot be read
   */
  public static HdfFile open(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      if (size > Integer.MAX_VALUE) {
        return null;
      }
      MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
      return HdfFile.fromByteBuffer(mapped);
    }
  }
}
