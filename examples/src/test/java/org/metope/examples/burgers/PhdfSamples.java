package org.metope.examples.burgers;

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
 * {@value #STRIDE}th cell, printed with 17 significant digits. A line is {@code KEY VALUE ...}
 * with {@code KEY = block|cell LEVEL:LX1,LX2,LX3 FIELD COMPONENT [CELL]}.
 *
 * <pre>
 * java -cp ... org.metope.examples.burgers.PhdfSamples FILE.phdf SAMPLES.txt
 * </pre>
 */
public final class PhdfSamples {
  /** Every this many cells of a block component are sampled. */
  static final int STRIDE = 401;

  private PhdfSamples() {}

  /** Writes the samples of {@code args[0]} to {@code args[1]}. */
  public static void main(String[] args) throws IOException {
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, double[]> e : samples(Path.of(args[0])).entrySet()) {
      StringBuilder line = new StringBuilder(e.getKey());
      for (double v : e.getValue()) {
        line.append(String.format(Locale.ROOT, " %.16e", v));
      }
      lines.add(line.toString());
    }
    Files.write(Path.of(args[1]), lines);
  }

  /** The samples of {@code file}, by key, in file order. */
  static Map<String, double[]> samples(Path file) {
    Map<String, double[]> out = new LinkedHashMap<>();
    try (HdfFile h5 = new HdfFile(file)) {
      long[] lx = longs(h5.getDatasetByPath("Blocks/loc.lx123").getDataFlat());
      long[] ids = longs(h5.getDatasetByPath("Blocks/loc.level-gid-lid-cnghost-gflag")
          .getDataFlat());
      int nblocks = lx.length / 3;
      long[] size = longs(h5.getByPath("Info").getAttribute("MeshBlockSize").getData());
      int cells = (int) (size[0] * size[1] * size[2]);
      Object names = h5.getByPath("Info").getAttribute("OutputDatasetNames").getData();
      for (String name : names instanceof String s ? new String[] {s} : (String[]) names) {
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
              if (n % STRIDE == 0) {
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
  static Map<String, double[]> read(Path file) throws IOException {
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
