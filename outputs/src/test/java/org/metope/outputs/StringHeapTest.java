package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jhdf.HdfFile;
import io.jhdf.api.Node;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The global heap holds every string of a file, also when it is larger than the image's first
 * array (64 KiB), as a deck over 64 KiB makes it (Parthenon's {@code Input/File} attribute holds
 * the whole deck): h5py, which shares no code with the writer, reads each string back.
 */
class StringHeapTest {
  @TempDir Path dir;

  @Test
  void givenStringsLargerThanTheImagesFirstArray_thenH5pyReadsEveryOne() throws Exception {
    String deck = "x".repeat(100_000);
    String[] names = new String[3000];
    for (int n = 0; n < names.length; n++) {
      names[n] = "name" + n;
    }
    Path file = dir.resolve("strings.h5");
    try (FileChannel out = TestFiles.newFile(file);
        Hdf5File h5 = Hdf5File.create(file, out)) {
      h5.root().group("Input").putStrings("File", deck);
      h5.root().group("Info").putStrings("Names", names);
    }
    List<String> lines = IndependentReaderTest.runPython(String.join("\n",
        "import sys, h5py",
        "f = h5py.File(sys.argv[1], 'r')",
        "s = lambda v: v.decode() if isinstance(v, bytes) else str(v)",
        "d = s(f['Input'].attrs['File'])",
        "print(len(d), d.count('x'))",
        "n = [s(v) for v in f['Info'].attrs['Names']]",
        "print(len(n), n[0], n[-1], sum(a == 'name%d' % i for i, a in enumerate(n)))"), file);
    assertEquals(List.of("100000 100000", "3000 name0 name2999 3000"), lines);
    try (HdfFile h5 = new HdfFile(file)) {
      Node info = h5.getByPath("Info");
      assertArrayEquals(names, (String[]) info.getAttribute("Names").getData());
    }
  }
}
