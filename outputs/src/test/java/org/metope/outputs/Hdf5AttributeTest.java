package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An attribute message's body size has two bytes in its object header (HDF5 file format, section
 * IV.A.1.b), so an attribute whose message needs more is refused by name instead of written as a
 * header that HDF5 cannot read.
 */
class Hdf5AttributeTest {
  @TempDir Path dir;

  /**
   * The body of a one-dimensional attribute of doubles named by 5 bytes: version 3's 9 fixed
   * bytes, the name and its zero (6), the datatype (20), the dataspace (12), 8 per value.
   */
  private static int doublesMessage(int values) {
    return 9 + 6 + 20 + 12 + 8 * values;
  }

  @Test
  void givenTheLargestMessageThatFits_thenItIsWrittenAndReadBack() throws Exception {
    int values = (Hdf5Attribute.MAX_MESSAGE - doublesMessage(0)) / 8;
    assertEquals(Hdf5Attribute.MAX_MESSAGE, doublesMessage(values), "the edge itself");
    double[] edges = new double[values];
    for (int n = 0; n < values; n++) {
      edges[n] = 0.5 * n;
    }
    Hdf5Attribute a = Hdf5Attribute.doubles("Edges", edges);
    assertEquals(Hdf5Attribute.MAX_MESSAGE, a.messageSize());
    Path file = dir.resolve("edge.h5");
    try (FileChannel out = TestFiles.newFile(file);
        Hdf5File h5 = Hdf5File.create(file, out)) {
      h5.root().group("Info").put(a);
      h5.root().add(FlatDataset.of("ids", new int[] {1, 2, 3}, 3));
    }
    try (HdfFile h5 = new HdfFile(file)) {
      assertArrayEquals(edges, (double[]) h5.getByPath("Info").getAttribute("Edges").getData());
      assertArrayEquals(new int[] {1, 2, 3}, (int[]) h5.getDatasetByPath("ids").getData());
    }
  }

  @Test
  void givenOneValueMore_thenTheAttributeIsRefusedByName() {
    int values = (Hdf5Attribute.MAX_MESSAGE - doublesMessage(0)) / 8 + 1;
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Hdf5Attribute.doubles("Edges", new double[values]));
    assertTrue(e.getMessage().startsWith("attribute name=Edges of " + values + " values"),
        e.getMessage());
  }

  @Test
  void givenManyStrings_thenTheLimitCountsTheirSixteenByteReferences() {
    StringHeap heap = new StringHeap();
    String[] fits = new String[(Hdf5Attribute.MAX_MESSAGE - 9 - 6 - 20 - 12) / 16];
    Arrays.fill(fits, "v");
    assertTrue(Hdf5Attribute.strings("Names", heap, fits).messageSize()
        <= Hdf5Attribute.MAX_MESSAGE);
    String[] over = Arrays.copyOf(fits, fits.length + 1);
    over[fits.length] = "v";
    assertThrows(IllegalArgumentException.class,
        () -> Hdf5Attribute.strings("Names", heap, over));
  }
}
