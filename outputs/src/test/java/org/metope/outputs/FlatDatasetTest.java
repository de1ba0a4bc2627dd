package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import io.jhdf.api.WritableGroup;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlatDatasetTest {
  @TempDir Path dir;

  @Test
  void givenEveryElementTypeAndRank_thenJhdfReadsBackTheFlatValuesAndDimensions() {
    Path file = dir.resolve("t.h5");
    double[] d = new double[2 * 3 * 4];
    for (int n = 0; n < d.length; n++) {
      d[n] = n * 0.5 - 3.0;
    }
    try (WritableHdfFile h5 = HdfFile.write(file)) {
      h5.putDataset("d", FlatDataset.of(h5, "d", d, 2, 3, 4));
      h5.putDataset("f", FlatDataset.singlePrecision(h5, "f", new double[] {1.0 / 3, 2.5}, 2));
      h5.putDataset("l", FlatDataset.of(h5, "l", new long[] {-1L, 1L << 40}, 1, 2));
      h5.putDataset("i", FlatDataset.of(h5, "i", new int[] {7, -8, 9}, 3));
      h5.putDataset("b", FlatDataset.of(h5, "b", new byte[] {0, 1}, 2, 1));
    }
    try (HdfFile h5 = new HdfFile(file)) {
      assertArrayEquals(new int[] {2, 3, 4}, h5.getDatasetByPath("d").getDimensions());
      assertArrayEquals(d, (double[]) h5.getDatasetByPath("d").getDataFlat());
      assertArrayEquals(new float[] {1.0f / 3, 2.5f},
          (float[]) h5.getDatasetByPath("f").getDataFlat());
      assertArrayEquals(new long[] {-1L, 1L << 40}, (long[]) h5.getDatasetByPath("l").getDataFlat());
      assertArrayEquals(new int[] {7, -8, 9}, (int[]) h5.getDatasetByPath("i").getDataFlat());
      assertArrayEquals(new byte[] {0, 1}, (byte[]) h5.getDatasetByPath("b").getDataFlat());
    }
  }

  /**
   * jhdf 0.9.4 with its own datasets damages a group written after the last dataset; with
   * FlatDataset every group stays readable, whatever order the names give (tried with many).
   */
  @Test
  void givenGroupsAndDatasetsInAnyOrder_thenEveryGroupAndAttributeReadsBack() {
    for (int variant = 0; variant < 12; variant++) {
      Path file = dir.resolve("g" + variant + ".h5");
      try (WritableHdfFile h5 = HdfFile.write(file)) {
        for (int n = 0; n < 4; n++) {
          WritableGroup g = h5.putGroup("G" + variant + "_" + n);
          g.putAttribute("a", "group " + n);
          h5.putDataset("d" + n + "_" + variant,
              FlatDataset.of(h5, "d" + n + "_" + variant, new double[] {n, variant}, 2));
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

  @Test
  void givenDimensionsThatDoNotHoldTheValues_thenMisuseNamesThem() {
    try (WritableHdfFile h5 = HdfFile.write(dir.resolve("x.h5"))) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> FlatDataset.of(h5, "q", new double[5], 2, 3));
      assertEquals("dataset name=q dimensions=[2, 3] do not hold length=5", e.getMessage());
      h5.putDataset("ok", FlatDataset.of(h5, "ok", new double[] {1}, 1));
    }
  }
}
