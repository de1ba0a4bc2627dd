package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jhdf.HdfFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlatDatasetTest {
  @TempDir Path dir;

  @Test
  void givenEveryElementTypeAndRank_thenJhdfReadsBackTheFlatValuesAndDimensions()
      throws IOException {
    Path file = dir.resolve("t.h5");
    double[] d = new double[2 * 3 * 4];
    for (int n = 0; n < d.length; n++) {
      d[n] = n * 0.5 - 3.0;
    }
    FlatDataset f;
    try (FileChannel out = TestFiles.newFile(file);
        Hdf5File h5 = Hdf5File.create(file, out)) {
      h5.root().add(FlatDataset.of("d", d, 2, 3, 4));
      f = FlatDataset.reserved("f", true, 2);
      h5.root().add(f);
      h5.root().add(FlatDataset.of("l", new long[] {-1L, 1L << 40}, 1, 2));
      h5.root().add(FlatDataset.of("i", new int[] {7, -8, 9}, 3));
      h5.root().add(FlatDataset.of("b", new byte[] {0, 1}, 2, 1));
    }
    fill(file, f, new double[] {1.0 / 3, 2.5}, 1);
    try (HdfFile h5 = new HdfFile(file)) {
      assertArrayEquals(new int[] {2, 3, 4}, h5.getDatasetByPath("d").getDimensions());
      assertArrayEquals(d, (double[]) h5.getDatasetByPath("d").getDataFlat());
      assertArrayEquals(new float[] {1.0f / 3, 2.5f},
          (float[]) h5.getDatasetByPath("f").getDataFlat());
      assertArrayEquals(new long[] {-1L, 1L << 40}, (long[]) h5.getDatasetByPath("l").getDataFlat());
      assertArrayEquals(new int[] {7, -8, 9}, (int[]) h5.getDatasetByPath("i").getDataFlat());
      // jhdf reads unsigned 8-bit integers as ints.
      assertArrayEquals(new int[] {0, 1}, (int[]) h5.getDatasetByPath("b").getDataFlat());
    }
  }

  /** Groups and datasets interleaved: every group, its string attribute and dataset read back. */
  @Test
  void givenGroupsAndDatasetsInAnyOrder_thenEveryGroupAndAttributeReadsBack() throws Exception {
    for (int variant = 0; variant < 12; variant++) {
      Path file = dir.resolve("g" + variant + ".h5");
      try (FileChannel out = TestFiles.newFile(file);
          Hdf5File h5 = Hdf5File.create(file, out)) {
        for (int n = 0; n < 4; n++) {
          Hdf5Group g = h5.root().group("G" + variant + "_" + n);
          g.putStrings("a", "group " + n);
          h5.root().add(FlatDataset.of("d" + n + "_" + variant, new double[] {n, variant}, 2));
        }
      }
      try (HdfFile h5 = new HdfFile(file)) {
        for (int n = 0; n < 4; n++) {
          assertEquals("group " + n,
              h5.getByPath("G" + variant + "_" + n).getAttribute("a").getData());
          assertArrayEquals(new double[] {n, variant},
              (double[]) h5.getDatasetByPath("d" + n + "_" + variant).getDataFlat());
        }
      }
    }
  }

  /** Fills reserved dataset {@code dataset} of {@code file} with {@code values}, in chunks. */
  private static void fill(Path file, FlatDataset dataset, double[] values, int chunk)
      throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      DatasetFill fill = dataset.fill(channel, DatasetFill.buffer(16)); // two values a write
      for (int start = 0; start < values.length; start += chunk) {
        fill.append(values, start, Math.min(chunk, values.length - start));
      }
      dataset.completeHeader(channel, fill.checksum());
    }
  }

  /**
   * A reserved dataset filled chunk by chunk after the file is closed holds the values of one
   * written whole, and its checksum attribute is the CRC-32C of its stored bytes (computed here
   * from the bytes jhdf reads back); the file is the same, byte for byte, as one written whole.
   */
  @Test
  void givenAReservedDatasetFilledInChunks_thenTheFileEqualsOneWrittenWhole() throws Exception {
    double[] values = new double[3 * 5 * 7];
    for (int n = 0; n < values.length; n++) {
      values[n] = Math.sin(n) * 1.0e3;
    }
    Path whole = dir.resolve("whole.h5");
    try (FileChannel out = TestFiles.newFile(whole);
        Hdf5File h5 = Hdf5File.create(whole, out)) {
      FlatDataset q = FlatDataset.of("q", values, 3, 5, 7);
      q.put(h5.root().stringAttribute("TopologicalLocation", "Cell"));
      h5.root().add(q);
      h5.root().group("Info").putInts("n", 3);
    }
    Path streamed = dir.resolve("streamed.h5");
    FlatDataset q;
    try (FileChannel out = TestFiles.newFile(streamed);
        Hdf5File h5 = Hdf5File.create(streamed, out)) {
      q = FlatDataset.reserved("q", false, 3, 5, 7);
      q.put(h5.root().stringAttribute("TopologicalLocation", "Cell"));
      h5.root().add(q);
      h5.root().group("Info").putInts("n", 3);
    }
    fill(streamed, q, values, 11);
    assertArrayEquals(Files.readAllBytes(whole), Files.readAllBytes(streamed));
    try (HdfFile h5 = new HdfFile(streamed)) {
      var dataset = (io.jhdf.api.dataset.ContiguousDataset) h5.getDatasetByPath("q");
      java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
      crc.update(dataset.getBuffer());
      assertEquals((int) crc.getValue(),
          dataset.getAttribute(FlatDataset.CHECKSUM_ATTRIBUTE).getData());
      assertArrayEquals(values, (double[]) dataset.getDataFlat());
    }
  }

  /**
   * Values given whole but larger than the structure's image keeps go to the file in chunks: the
   * file equals one whose values were filled into a reserved dataset, whether the large dataset
   * ends the file or another follows it, and its seal made from the known checksums is the seal
   * made by reading every byte.
   */
  @Test
  void givenValuesTooLargeForTheImage_thenTheFileEqualsOneFilledAndItsSealHolds()
      throws Exception {
    double[] values = new double[FlatDataset.IN_IMAGE_BYTES / Double.BYTES + 3]; // 5 x 26215
    for (int n = 0; n < values.length; n++) {
      values[n] = Math.cos(n) * 7.0;
    }
    for (boolean last : new boolean[] {true, false}) {
      Path whole = dir.resolve("large-whole-" + last + ".h5");
      List<FileSeal.Known> known;
      try (FileChannel out = TestFiles.newFile(whole);
          Hdf5File h5 = Hdf5File.create(whole, out)) {
        h5.root().group("Info").putInts("n", 3);
        h5.root().add(FlatDataset.of("big", values, 5, values.length / 5));
        if (!last) {
          h5.root().add(FlatDataset.of("after", new int[] {1, 2}, 2));
        }
        h5.close();
        known = h5.structure();
      }
      Path filled = dir.resolve("large-filled-" + last + ".h5");
      FlatDataset big;
      try (FileChannel out = TestFiles.newFile(filled);
          Hdf5File h5 = Hdf5File.create(filled, out)) {
        h5.root().group("Info").putInts("n", 3);
        big = FlatDataset.reserved("big", false, 5, values.length / 5);
        h5.root().add(big);
        if (!last) {
          h5.root().add(FlatDataset.of("after", new int[] {1, 2}, 2));
        }
      }
      fill(filled, big, values, 100_000);
      assertArrayEquals(Files.readAllBytes(filled), Files.readAllBytes(whole), "last=" + last);
      Path readBack = dir.resolve("large-read-" + last + ".h5");
      Files.copy(whole, readBack);
      FileSeal.append(whole, known);
      FileSeal.append(readBack, List.of());
      assertArrayEquals(Files.readAllBytes(readBack), Files.readAllBytes(whole), "last=" + last);
      assertEquals(null, FileIntegrity.problem(whole), "last=" + last);
    }
  }

  @Test
  void givenAReservedDatasetMissingValues_thenFinishingItNamesTheShortfall() throws Exception {
    Path file = dir.resolve("short.h5");
    FlatDataset q;
    try (FileChannel out = TestFiles.newFile(file);
        Hdf5File h5 = Hdf5File.create(file, out)) {
      q = FlatDataset.reserved("q", false, 4);
      h5.root().add(q);
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      DatasetFill fill = q.fill(channel, DatasetFill.buffer(q.getSizeInBytes()));
      fill.append(new double[] {1, 2, 3}, 0, 3);
      IllegalStateException e = assertThrows(IllegalStateException.class, fill::checksum);
      assertEquals("dataset name=q ended with 1 values missing", e.getMessage());
      assertThrows(IllegalStateException.class, () -> fill.append(new double[2], 0, 2));
    }
  }

  @Test
  void givenDimensionsThatDoNotHoldTheValues_thenMisuseNamesThem() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> FlatDataset.of("q", new double[5], 2, 3));
    assertEquals("dataset name=q dimensions=[2, 3] do not hold length=5", e.getMessage());
  }
}
