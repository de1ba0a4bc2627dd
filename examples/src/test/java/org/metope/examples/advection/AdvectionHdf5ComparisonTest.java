package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import io.jhdf.api.Attribute;
import io.jhdf.api.Dataset;
import java.lang.reflect.Array;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.metope.examples.PhdfTypes;

/**
 * Runs Parthenon's decks with an HDF5 output and compares Metope's final {@code .phdf} with the one
 * Parthenon's advection example wrote (test resources {@code parthenon/hdf5}, see the README):
 * the same blocks, matched by level and logical location, the same coordinates, attributes and
 * datasets, every written field's values to 1e-12, and the same HDF5 types ({@link PhdfTypes});
 * for {@code static2d} also the final restart file's types. {@code gauss2d.in} ({@code vl2}) runs
 * with Parthenon's stage update, as {@link AdvectionParthenonComparisonTest} says why.
 */
public class AdvectionHdf5ComparisonTest {
  @TempDir Path dir;

  private static Path resource(String name) {
    try {
      return Path.of(AdvectionHdf5ComparisonTest.class.getResource("/parthenon/hdf5/" + name)
          .toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @ParameterizedTest
  @CsvSource({"gauss2d.in, gauss2d.out9.final.phdf,", "sphere3d_rk1.in, sphere.out9.final.phdf,",
      "static2d.in, rs.out1.final.phdf, rs.out0.final.rhdf",
      "static3d.in, static3d.out0.final.phdf,"})
  void givenAParthenonDeckWithAnHdf5Output_thenTheFinalFileHasParthenonsBlocksAndValues(
      String deck, String file, String restart) {
    if (deck.equals("gauss2d.in")) {
      AdvectionRuns.run(resource(deck), dir, AdvectionParthenonComparisonTest.PARTHENON_VL2);
    } else {
      AdvectionRuns.run(resource(deck), dir);
    }
    assertSameAsParthenons(dir.resolve(file), resource(file));
    if (restart != null) {
      PhdfTypes.assertSameTypes(dir.resolve(restart), resource(restart));
    }
  }

  /**
   * {@code ours} has the blocks of Parthenon's file {@code theirs} (matched by level and logical
   * location), the same attributes (with the blocks adaptive refinement created and removed), the
   * same coordinates and sparse information, every written field's values to 1e-12, and the same
   * HDF5 types and shapes of every group, dataset and attribute ({@link PhdfTypes}).
   */
  public static void assertSameAsParthenons(Path oursFile, Path theirsFile) {
    assertSameAsParthenons(oursFile, theirsFile, 0.0);
  }

  /**
   * As {@link #assertSameAsParthenons(Path, Path)}, with the time and time step attributes equal
   * to {@code timeTolerance} relative instead of in every bit.
   */
  public static void assertSameAsParthenons(Path oursFile, Path theirsFile,
      double timeTolerance) {
    PhdfTypes.assertSameTypes(oursFile, theirsFile);
    try (HdfFile ours = new HdfFile(oursFile);
        HdfFile theirs = new HdfFile(theirsFile)) {
      for (String name : List.of("NumMeshBlocks", "NumDims", "MaxLevel", "RootLevel",
          "IncludesGhost", "NGhost", "NCycle", "Time", "dt", "MeshBlockSize", "RootGridSize",
          "RootGridDomain", "BoundaryConditions", "OutputDatasetNames", "ComponentNames",
          "NumComponents", "Multilevel", "Refine", "OutputFormatVersion", "NBNew", "NBDel")) {
        Attribute theirValue = theirs.getByPath("Info").getAttribute(name);
        Attribute ourValue = ours.getByPath("Info").getAttribute(name);
        if (timeTolerance > 0 && (name.equals("Time") || name.equals("dt"))) {
          double expected = Double.parseDouble(text(theirValue));
          double actual = Double.parseDouble(text(ourValue));
          assertTrue(Math.abs(expected - actual) <= timeTolerance * Math.abs(expected),
              "Info/" + name + ": " + actual + " against " + expected);
          continue;
        }
        assertEquals(text(theirValue), text(ourValue), "Info/" + name);
      }
      int[] order = blockOrder(ours, theirs);
      for (String name : List.of("Locations/x", "Locations/y", "Locations/z",
          "VolumeLocations/x", "VolumeLocations/y", "VolumeLocations/z", "Blocks/xmin")) {
        assertSameBlocks(ours.getDatasetByPath(name), theirs.getDatasetByPath(name), order, 0.0);
      }
      Object names = theirs.getByPath("Info").getAttribute("OutputDatasetNames").getData();
      for (String name : names instanceof String s ? new String[] {s} : (String[]) names) {
        assertSameBlocks(ours.getDatasetByPath(name), theirs.getDatasetByPath(name), order,
            1e-12);
      }
      if (theirs.getChild("SparseInfo") != null) {
        assertSameBlocks(ours.getDatasetByPath("SparseInfo"),
            theirs.getDatasetByPath("SparseInfo"), order, 0.0);
      }
    }
  }

  /** For each of our blocks, the index of Parthenon's block at the same level and location. */
  private static int[] blockOrder(HdfFile ours, HdfFile theirs) {
    Map<String, Integer> theirIndex = new HashMap<>();
    List<String> theirKeys = locationKeys(theirs);
    for (int b = 0; b < theirKeys.size(); b++) {
      theirIndex.put(theirKeys.get(b), b);
    }
    List<String> ourKeys = locationKeys(ours);
    assertEquals(theirKeys.size(), ourKeys.size(), "number of blocks");
    int[] order = new int[ourKeys.size()];
    for (int b = 0; b < order.length; b++) {
      Integer match = theirIndex.get(ourKeys.get(b));
      assertNotNull(match, "Parthenon has no block at " + ourKeys.get(b));
      order[b] = match;
    }
    return order;
  }

  private static List<String> locationKeys(HdfFile h5) {
    long[] lx = numbers(h5.getDatasetByPath("Blocks/loc.lx123"));
    long[] ids = numbers(h5.getDatasetByPath("Blocks/loc.level-gid-lid-cnghost-gflag"));
    String[] keys = new String[lx.length / 3];
    for (int b = 0; b < keys.length; b++) {
      keys[b] = ids[5 * b] + ":" + lx[3 * b] + "," + lx[3 * b + 1] + "," + lx[3 * b + 2];
    }
    return List.of(keys);
  }

  private static void assertSameBlocks(Dataset ours, Dataset theirs, int[] order,
      double tolerance) {
    assertArrayEquals(theirs.getDimensions(), ours.getDimensions(), theirs.getPath());
    double[] a = doubles(ours.getDataFlat());
    double[] b = doubles(theirs.getDataFlat());
    int perBlock = a.length / order.length;
    double worst = 0;
    for (int block = 0; block < order.length; block++) {
      for (int n = 0; n < perBlock; n++) {
        double x = a[block * perBlock + n];
        double y = b[order[block] * perBlock + n];
        worst = Math.max(worst, Math.abs(x - y) / Math.max(1.0, Math.abs(y)));
      }
    }
    assertTrue(worst <= tolerance, theirs.getPath() + ": largest difference " + worst);
  }

  private static String text(Attribute a) {
    Object v = a.getData();
    if (v.getClass().isArray()) {
      int n = Array.getLength(v);
      Object[] boxed = new Object[n];
      for (int i = 0; i < n; i++) {
        boxed[i] = normalise(Array.get(v, i));
      }
      return n == 1 ? String.valueOf(boxed[0]) : Arrays.toString(boxed);
    }
    return String.valueOf(normalise(v));
  }

  private static Object normalise(Object v) {
    return v instanceof Number n && !(v instanceof Double) && !(v instanceof Float)
        ? (Object) n.longValue() : v;
  }

  private static long[] numbers(Dataset d) {
    double[] values = doubles(d.getDataFlat());
    long[] out = new long[values.length];
    for (int n = 0; n < values.length; n++) {
      out[n] = (long) values[n];
    }
    return out;
  }

  private static double[] doubles(Object flat) {
    int n = Array.getLength(flat);
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      Object v = Array.get(flat, i);
      out[i] = v instanceof Boolean b ? (b ? 1 : 0) : ((Number) v).doubleValue();
    }
    return out;
  }
}
