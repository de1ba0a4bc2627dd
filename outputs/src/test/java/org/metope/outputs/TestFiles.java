package org.metope.outputs;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Test files: a new, empty file open for {@link Hdf5File#create(Path, FileChannel)}. */
final class TestFiles {
  private TestFiles() {}

  /** {@code path} created or emptied, open to write. */
  static FileChannel newFile(Path path) throws IOException {
    return FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE);
  }
}
