package org.metope.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Samples of the fields of a {@code .phdf} file small enough to commit where the file is not: for
 * every block (named by level and logical location) and every component of every written field,
 * the minimum, the maximum and the sum of absolute values over the block's cells, and every
 * {@code stride}th cell, printed with 17 significant digits. A field's cells per block are the
 * last three extents of its dataset (a {@code FINE} field's are twice the block's along each
 * active axis). A line is {@code KEY VALUE ...} with {@code KEY = block|cell LEVEL:LX1,LX2,LX3
 * FIELD COMPONENT [CELL]}.
 *
 * <pre>
 * java -cp ... org.metope.examples.PhdfSamples FILE.phdf SAMPLES.txt [STRIDE]
 * </pre>
 */
public final class PhdfSamples {
  /** Every this many cells of a block component are sampled, unless a stride is given. */
  public static final int STRIDE = 401;

  private PhdfSamples() {}

  /** Writes the samples of {@code args[0]} to {@code args[1]}, every {@code args[2]}th cell. */
  public static void main(String[] args) throws IOException {
    int stride = args.length > 2 ? Integer.parseInt(args[2]) : STRIDE;
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, double[]> e : samples(Path.of(args[0]), stride).entrySet()) {
      StringBuilder line = new StringBuilder(e.getKey());
      for (double v : e.getValue()) {
        line.append(String.format(Locale.ROOT, " %.16e", v));
      }
      lines.add(line.toString());
    }
    Files.write(Path.of(args[1]), lines);
  }

  /** The samples of {@code file} with the default stride, by key, in file order. */
  public static Map<String, double[]> samples(Path file) {
    return samples(file, STRIDE);
  }

  /** The samples of {@code file}, every {@code stride}th cell, by key, in file order. */
  public static Map<String, double[]> samples(Path file, int stride) {
    Map<String, double[]> out = new LinkedHashMap<>();
    try (HdfFile h5 = new HdfFile(file)) {
      long[] lx = longs(h5.getDatasetByPath("Blocks/loc.lx123").getDataFlat());
      long[] ids = longs(h5.getDatasetByPath("Blocks/loc.level-gid-lid-cnghost-gflag")
          .getDataFlat());
      int nblocks = lx.length / 3;
      Object names = h5.getByPath("Info").getAttribute("OutputDatasetNames").getData();
      for (String name : names instanceof String s ? new String[] {s} : (String[]) names) {
        int[] dims = h5.getDatasetByPath(name).getDimensions();
        int cells = dims[dims.length - 1] * dims[dims.length - 2] * dims[dims.length - 3];
        double[] values = doubles(h5.getDatasetByPath(name).getDataFlat());
        int ncomp = values.length / nblocks / cells;
        for (int b = 0; b < nblocks; b++) {
          String where = ids[5 * b] + ":" + lx[3 * b] + "," + lx[3 * b + 1] + "," + lx[3 * b + 2];
          for (int c = 0; c < ncomp; c++) {
            int first = (b * ncomp + c) * cells;
            double min = Double.MAX_VALUE;
            double max = -Double.MAX_VALUE;
            double sumAbs = 0;
            for (int n = 0; n < cells; n++) {
              double v = values[first + n];
              min = Math.min(min, v);
              max = Math.max(max, v);
              sumAbs += Math.abs(v);
              if (n % stride == 0) {
                out.put("cell " + where + " " + name + " " + c + " " + n, new double[] {v});
              }
            }
            out.put("block " + where + " " + name + " " + c, new double[] {min, max, sumAbs});
          }
        }
      }
    }
    return out;
  }

  /** Reads a samples file written by {@link #main}. */
  public static Map<String, double[]> read(Path file) throws IOException {
    Map<String, double[]> out = new LinkedHashMap<>();
    for (String line : Files.readAllLines(file)) {
      String[] w = line.split(" ");
      int values = w[0].equals("cell") ? 1 : 3;
      String key = String.join(" ", java.util.Arrays.copyOf(w, w.length - values));
      double[] v = new double[values];
      for (int n = 0; n < values; n++) {
        v[n] = Double.parseDouble(w[w.length - values + n]);
      }
      out.put(key, v);
    }
    return out;
  }

  /**
   * Asserts that {@code ours} has the keys of {@code theirs} (the same blocks, fields and sampled
   * cells) and every value within {@code tolerance} of theirs, relative to {@code max(1, |theirs|)}.
   */
  public static void assertSame(Map<String, double[]> theirs, Map<String, double[]> ours,
      double tolerance) {
    assertEquals(theirs.keySet(), ours.keySet(), "blocks, fields and sampled cells");
    double worst = 0;
    String where = "";
    for (Map.Entry<String, double[]> e : theirs.entrySet()) {
      double[] expected = e.getValue();
      double[] actual = ours.get(e.getKey());
      for (int n = 0; n < expected.length; n++) {
        double d = Math.abs(expected[n] - actual[n]) / Math.max(1.0, Math.abs(expected[n]));
        if (d > worst) {
          worst = d;
          where = e.getKey();
        }
      }
    }
    assertTrue(worst <= tolerance, "largest difference " + worst + " at " + where);
    assertTrue(theirs.size() > 100, List.copyOf(theirs.keySet()).toString());
  }

  private static long[] longs(Object flat) {
    double[] d = doubles(flat);
    long[] out = new long[d.length];
    for (int n = 0; n < d.length; n++) {
      out[n] = (long) d[n];
    }
    return out;
  }

  private static double[] doubles(Object flat) {
    int n = Array.getLength(flat);
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      out[i] = ((Number) Array.get(flat, i)).doubleValue();
    }
    return out;
  }
}
