package org.metope.outputs.plot;

import io.jhdf.HdfFile;
import io.jhdf.api.Attribute;
import io.jhdf.api.Dataset;
import io.jhdf.api.Node;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.input.InputError;
import org.metope.outputs.BoundedHdf;
import org.metope.outputs.FileIntegrity;

/**
 * A Parthenon-layout HDF5 output ({@code .phdf}, written by Parthenon or by Metope's {@code
 * Hdf5Output}) read for plotting: the domain, every block's cell faces and refinement level, and
 * the cell values of one component of one field.
 *
 * <p>What is read: {@code /Info} attributes ({@code NumDims}, {@code MeshBlockSize}, {@code
 * RootGridDomain}, {@code OutputDatasetNames}, {@code NumComponents}, {@code ComponentNames},
 * {@code IncludesGhost}, {@code NGhost}, {@code Time}, {@code NCycle}), {@code /Locations/x|y|z}
 * (faces per block, {@code blocks x (n + 1)}, ghosts included when the file has them), {@code
 * /Levels} (level relative to the root grid) and one dataset per field shaped {@code blocks x
 * components x k x j x i} (or {@code blocks x k x j x i} for one component). Any other layout is a
 * one-line {@link InputError} naming the file.
 */
public final class PhdfFile implements AutoCloseable {
  private static final String EXPECTED = "a .phdf output in Parthenon's layout";

  private final Path path;
  private final int numDims;
  private final int numBlocks;
  private final int[] blockCells;
  private final double[] domain;
  private final int[] levels;
  private final double[][][] faces;
  private final List<String> datasets;
  private final int[] componentsPerDataset;
  private final List<String> componentNames;
  private final double time;
  private final int cycle;
  private final int ghosts;
  private final HdfFile h5;

  private PhdfFile(Path path, HdfFile h5) {
    this.path = path;
    this.h5 = h5;
    numDims = intAttribute("NumDims");
    numBlocks = intAttribute("NumMeshBlocks");
    blockCells = ints(infoAttribute("MeshBlockSize"));
    domain = doubles(infoAttribute("RootGridDomain"));
    // An output without fields (swarms only) has none of the three, as Parthenon writes it.
    boolean fields = optionalInfoAttribute("OutputDatasetNames") != null
        || optionalInfoAttribute("NumComponents") != null
        || optionalInfoAttribute("ComponentNames") != null;
    datasets = fields ? List.of(strings(infoAttribute("OutputDatasetNames"))) : List.of();
    componentsPerDataset = fields ? ints(infoAttribute("NumComponents")) : new int[0];
    componentNames = fields ? List.of(strings(infoAttribute("ComponentNames"))) : List.of();
    time = ((Number) infoAttribute("Time")).doubleValue();
    cycle = intAttribute("NCycle");
    ghosts = optionalInt("IncludesGhost") != 0 ? optionalInt("NGhost") : 0;
    if (blockCells.length != 3 || domain.length != 9 || numDims < 1 || numDims > 3
        || componentsPerDataset.length != datasets.size()) {
      throw broken("its /Info attributes do not describe a mesh");
    }
    levels = ints(dataset("Levels").getDataFlat());
    if (levels.length != numBlocks) {
      throw broken("/Levels holds " + levels.length + " blocks, /Info NumMeshBlocks = "
          + numBlocks);
    }
    faces = new double[3][][];
    String[] names = {"x", "y", "z"};
    for (int axis = 0; axis < 3; axis++) {
      faces[axis] = blockFaces("Locations/" + names[axis], axis);
    }
    checkGeometry(names);
  }

  /**
   * Refuses what no mesh has before it is drawn (before: an index error for a negative level, a
   * picture of nothing for an empty domain or NaN faces): levels from 0 to 60, a finite domain of
   * positive, finite extent along each axis of the mesh, and finite, increasing faces in it.
   */
  private void checkGeometry(String[] names) {
    for (int b = 0; b < numBlocks; b++) {
      if (levels[b] < 0 || levels[b] > LogicalLocation.MAX_LEVEL) {
        throw broken("/Levels holds level " + levels[b] + " for block " + b
            + ", expected levels from 0 to " + LogicalLocation.MAX_LEVEL);
      }
    }
    for (int axis = 0; axis < numDims; axis++) {
      double min = domainMin(axis);
      double max = domainMax(axis);
      if (!(Double.isFinite(max - min) && max > min)) {
        throw broken("/Info RootGridDomain spans [" + min + ", " + max + "] along "
            + names[axis] + ", expected a finite domain of positive extent");
      }
      for (int b = 0; b < numBlocks; b++) {
        double[] f = faces[axis][b];
        for (int n = 0; n < f.length; n++) {
          if (!Double.isFinite(f[n]) || (n > 0 && !(f[n] > f[n - 1]))) {
            throw broken("/Locations/" + names[axis] + " of block " + b + " holds " + f[n]
                + " at face " + n + ", expected finite, increasing cell faces");
          }
        }
      }
    }
  }

  /**
   * Opens a {@code .phdf} file.
   *
   * @throws InputError when the file is missing, not HDF5, damaged or cut short (a file Metope
   *     sealed is checked against its seal first, {@link FileIntegrity}), or not in Parthenon's
   *     layout
   */
  public static PhdfFile open(Path file) {
    if (!Files.isRegularFile(file)) {
      throw InputError.at(file.toString(), "cannot read the file (no such file)", EXPECTED);
    }
    String damage;
    try {
      damage = FileIntegrity.problemIfSealed(file);
    } catch (IOException | RuntimeException e) {
      damage = null; // read again below, which says what is wrong with it
    }
    if (damage != null) {
      throw InputError.at(file.toString(), "cannot read the file (" + damage + ")", EXPECTED);
    }
    HdfFile h5;
    try {
      h5 = BoundedHdf.open(file); // an unsealed file may be damaged: bounded memory
      if (h5 == null) {
        h5 = new HdfFile(file);
      }
    } catch (IOException | RuntimeException e) {
      throw InputError.at(file.toString(), "cannot read the file (not an HDF5 file)", EXPECTED);
    }
    try {
      return new PhdfFile(file, h5);
    } catch (RuntimeException e) {
      h5.close();
      if (e instanceof InputError) {
        throw e;
      }
      throw InputError.at(file.toString(), "cannot read the file (" + e.getMessage() + ")",
          EXPECTED);
    }
  }

  /** Whether the file holds an object (group or dataset) at {@code path}. */
  boolean has(String path) {
    try {
      return h5.getByPath(path) != null;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** The file's path. */
  public Path path() {
    return path;
  }

  /** Number of dimensions of the mesh (1, 2 or 3). */
  public int numDims() {
    return numDims;
  }

  /** Number of blocks in the file. */
  public int numBlocks() {
    return numBlocks;
  }

  /** Interior cells of a block along {@code axis} (0, 1, 2 for x1, x2, x3). */
  public int blockCells(int axis) {
    return blockCells[axis];
  }

  /** The domain's lower bound along {@code axis}. */
  public double domainMin(int axis) {
    return domain[3 * axis];
  }

  /** The domain's upper bound along {@code axis}. */
  public double domainMax(int axis) {
    return domain[3 * axis + 1];
  }

  /** Refinement level of block {@code b}, relative to the root grid (0 = coarsest). */
  public int level(int b) {
    return levels[b];
  }

  /** The lower face of block {@code b}'s interior along {@code axis}. */
  public double blockMin(int b, int axis) {
    return faces[axis][b][ghostOffset(axis)];
  }

  /** The upper face of block {@code b}'s interior along {@code axis}. */
  public double blockMax(int b, int axis) {
    return faces[axis][b][ghostOffset(axis) + blockCells[axis]];
  }

  /** Simulation time of the output. */
  public double time() {
    return time;
  }

  /** Cycle of the output. */
  public int cycle() {
    return cycle;
  }

  /** The field datasets, in the file's order. */
  public List<String> datasetNames() {
    return datasets;
  }

  /** Number of components of dataset {@code name}. */
  public int components(String name) {
    return componentsPerDataset[datasets.indexOf(name)];
  }

  /**
   * Resolves what the user asked to plot: {@code NAME} (component 0 of dataset NAME), {@code
   * NAME:N} (component N) or a name of {@code /Info ComponentNames}; null picks the first field.
   *
   * @throws InputError naming the choices when nothing matches
   */
  public FieldComponent field(String request) {
    if (datasets.isEmpty()) {
      throw InputError.at(path.toString(), "it has no fields",
          "--blocks, which draws its block structure");
    }
    if (request == null) {
      return new FieldComponent(datasets.get(0), 0);
    }
    if (datasets.contains(request)) {
      return new FieldComponent(request, 0);
    }
    int colon = request.lastIndexOf(':');
    if (colon > 0 && datasets.contains(request.substring(0, colon))) {
      String name = request.substring(0, colon);
      String index = request.substring(colon + 1);
      int n = components(name);
      if (!index.matches("[0-9]{1,6}") || Integer.parseInt(index) >= n) {
        throw InputError.at(path.toString(), "variable \"" + request + "\"",
            "a component index from 0 to " + (n - 1) + " after the colon");
      }
      return new FieldComponent(name, Integer.parseInt(index));
    }
    int first = 0;
    for (int d = 0; d < datasets.size(); d++) {
      for (int c = 0; c < componentsPerDataset[d]; c++) {
        if (first + c < componentNames.size() && componentNames.get(first + c).equals(request)) {
          return new FieldComponent(datasets.get(d), c);
        }
      }
      first += componentsPerDataset[d];
    }
    throw InputError.at(path.toString(), "no variable \"" + request + "\"",
        "one of " + String.join(", ", datasets) + " (NAME:N for component N)");
  }

  /** One component of one field dataset. */
  public record FieldComponent(String dataset, int component) {
    /** How plots name it: the dataset, with {@code :N} when it is not component 0. */
    public String label() {
      return component == 0 ? dataset : dataset + ":" + component;
    }
  }

  /**
   * The interior cell values of {@code field}, one array per block indexed {@code (k * nj + j) *
   * ni + i} with the block sizes of {@link #blockCells}.
   */
  public double[][] values(FieldComponent field) {
    Dataset data = dataset(field.dataset());
    int[] dims = data.getDimensions();
    int rank = dims.length;
    if (rank < 4 || dims[0] != numBlocks) {
      throw broken("dataset " + field.dataset() + " has shape " + Arrays.toString(dims)
          + ", not blocks x components x k x j x i");
    }
    int nk = dims[rank - 3];
    int nj = dims[rank - 2];
    int ni = dims[rank - 1];
    long perComponent = (long) nk * nj * ni;
    long total = 1;
    for (int d : dims) {
      total *= d;
    }
    int ncomp = (int) (total / numBlocks / perComponent);
    if (field.component() >= ncomp) {
      throw broken("dataset " + field.dataset() + " has " + ncomp + " components");
    }
    if (fine(nk, 2) || fine(nj, 1) || fine(ni, 0)) {
      throw InputError.at(path.toString(), "field " + field.dataset() + " is FINE (twice the"
          + " block's cells along each axis)", "a field of the block's resolution");
    }
    int gk = offset(nk, 2);
    int gj = offset(nj, 1);
    int gi = offset(ni, 0);
    double[] flat;
    try {
      flat = doubles(data.getDataFlat());
    } catch (RuntimeException e) {
      throw broken("dataset " + field.dataset() + " cannot be read: " + e.getMessage());
    }
    double[][] values = new double[numBlocks][];
    int nx = blockCells[0];
    int ny = blockCells[1];
    int nz = blockCells[2];
    for (int b = 0; b < numBlocks; b++) {
      double[] block = new double[nx * ny * nz];
      long base = ((long) b * ncomp + field.component()) * perComponent;
      for (int k = 0; k < nz; k++) {
        for (int j = 0; j < ny; j++) {
          long row = base + ((long) (k + gk) * nj + j + gj) * ni + gi;
          System.arraycopy(flat, (int) row, block, (k * ny + j) * nx, nx);
        }
      }
      values[b] = block;
    }
    return values;
  }

  /** Closes the file. */
  @Override
  public void close() {
    h5.close();
  }

  /** Whether a dataset dimension of {@code length} is a FINE field's interior along an axis. */
  private boolean fine(int length, int axis) {
    return blockCells[axis] > 1 && length == 2 * blockCells[axis];
  }

  /** Where interior cells start in a dataset dimension of {@code length} along {@code axis}. */
  private int offset(int length, int axis) {
    if (length == blockCells[axis]) {
      return 0;
    }
    if (length == blockCells[axis] + 2 * ghosts) {
      return ghosts;
    }
    throw broken("a field has " + length + " cells along x" + (axis + 1) + ", blocks have "
        + blockCells[axis]);
  }

  private int ghostOffset(int axis) {
    return faces[axis][0].length == blockCells[axis] + 1 ? 0 : ghosts;
  }

  private double[][] blockFaces(String name, int axis) {
    Dataset locations = dataset(name);
    double[] flat = doubles(locations.getDataFlat());
    int perBlock = flat.length / Math.max(1, numBlocks);
    boolean plain = perBlock == blockCells[axis] + 1;
    boolean withGhosts = ghosts > 0 && blockCells[axis] > 1
        && perBlock == blockCells[axis] + 2 * ghosts + 1;
    if (flat.length != (long) perBlock * numBlocks || !(plain || withGhosts)) {
      throw broken(name + " does not hold the faces of " + numBlocks + " blocks");
    }
    double[][] perBlockFaces = new double[numBlocks][];
    for (int b = 0; b < numBlocks; b++) {
      perBlockFaces[b] = Arrays.copyOfRange(flat, b * perBlock, (b + 1) * perBlock);
    }
    return perBlockFaces;
  }

  /** Dataset {@code name}; a file without it cannot be plotted. */
  Dataset dataset(String name) {
    Node node;
    try {
      node = h5.getByPath(name);
    } catch (RuntimeException e) {
      throw broken("it has no dataset /" + name);
    }
    if (!(node instanceof Dataset d)) {
      throw broken("/" + name + " is not a dataset");
    }
    return d;
  }

  private Object infoAttribute(String name) {
    Attribute a = optionalInfoAttribute(name);
    if (a == null) {
      throw broken("it has no /Info attribute " + name);
    }
    return a.getData();
  }

  private Attribute optionalInfoAttribute(String name) {
    try {
      return h5.getByPath("Info").getAttribute(name);
    } catch (RuntimeException e) {
      return null;
    }
  }

  private int intAttribute(String name) {
    return ints(infoAttribute(name))[0];
  }

  private int optionalInt(String name) {
    try {
      return intAttribute(name);
    } catch (InputError e) {
      return 0;
    }
  }

  InputError broken(String what) {
    return InputError.at(path.toString(), "cannot plot the file (" + what + ")", EXPECTED);
  }

  static int[] ints(Object data) {
    if (data instanceof int[] a) {
      return a;
    }
    if (data instanceof long[] a) {
      return Arrays.stream(a).mapToInt(Math::toIntExact).toArray();
    }
    if (data instanceof Number n) {
      return new int[] {n.intValue()};
    }
    if (data instanceof Number[] a) {
      return Arrays.stream(a).mapToInt(Number::intValue).toArray();
    }
    if (data instanceof byte[] a) {
      int[] out = new int[a.length];
      for (int n = 0; n < a.length; n++) {
        out[n] = a[n];
      }
      return out;
    }
    throw new IllegalArgumentException("expected integers, found " + describe(data));
  }

  static double[] doubles(Object data) {
    if (data instanceof double[] a) {
      return a;
    }
    if (data instanceof float[] a) {
      double[] out = new double[a.length];
      for (int n = 0; n < a.length; n++) {
        out[n] = a[n];
      }
      return out;
    }
    if (data instanceof Number n) {
      return new double[] {n.doubleValue()};
    }
    throw new IllegalArgumentException("expected floating-point values, found "
        + describe(data));
  }

  private static String[] strings(Object data) {
    if (data instanceof String[] a) {
      return a;
    }
    if (data instanceof String s) {
      return new String[] {s};
    }
    throw new IllegalArgumentException("expected strings, found " + describe(data));
  }

  private static String describe(Object data) {
    return data == null ? "nothing" : data.getClass().getSimpleName();
  }
}
