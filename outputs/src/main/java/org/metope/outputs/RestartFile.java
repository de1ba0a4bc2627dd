package org.metope.outputs;

import io.jhdf.HdfFile;
import io.jhdf.api.Attribute;
import io.jhdf.api.Dataset;
import io.jhdf.api.Group;
import io.jhdf.api.Node;
import java.lang.reflect.Array;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.input.InputError;

/**
 * A restart file ({@code .rhdf}, written by {@link Hdf5Output} for {@code file_type = rst}) read
 * back to resume a run (Parthenon's {@code RestartReaderHDF5} and {@code
 * ParthenonManager::RestartPackages}): the effective deck, cycle, time and step, the block tree,
 * derefinement counters, and every {@code INDEPENDENT} or {@code RESTART} field with its sparse
 * allocation.
 *
 * <p>Resuming: parse {@link #deck()} (with the command line's overrides) as the run's deck, build
 * the mesh from {@link #locations()} on any number of ranks, then {@link #restoreFields} and
 * {@link #restoreParams}; each rank reads only its own blocks. Ghost cells are filled afterwards
 * by the boundary exchange, as after the problem generator.
 *
 * <p>Errors a user can cause (a missing or damaged file, a file of another kind, one that does not
 * fit the run) are one-line {@link InputError}s naming the file.
 */
public final class RestartFile implements AutoCloseable {
  private static final String EXPECTED =
      "an intact .rhdf file written by a run with a file_type = rst output";
  private final Path path;
  private final HdfFile h5;
  private final List<LogicalLocation> locations;
  private final int[] derefinementCounts;
  private final boolean includesGhost;

  private RestartFile(Path path, HdfFile h5) {
    this.path = path;
    this.h5 = h5;
    int[] ids = intArray(dataset("Blocks/loc.level-gid-lid-cnghost-gflag"));
    long[] lx = longArray(dataset("Blocks/loc.lx123"));
    int nb = infoInt("NumMeshBlocks");
    if (ids.length != 5 * nb || lx.length != 3 * nb) {
      throw broken("Blocks does not describe NumMeshBlocks = " + nb + " blocks");
    }
    List<LogicalLocation> locs = new ArrayList<>(nb);
    for (int b = 0; b < nb; b++) {
      if (ids[5 * b + 1] != b) {
        throw broken("block " + b + " has gid " + ids[5 * b + 1]);
      }
      locs.add(new LogicalLocation(ids[5 * b], lx[3 * b], lx[3 * b + 1], lx[3 * b + 2]));
    }
    this.locations = List.copyOf(locs);
    Dataset counts = optionalDataset("Blocks/derefinement_count");
    this.derefinementCounts = counts == null ? new int[nb] : intArray(counts);
    this.includesGhost = infoInt("IncludesGhost") != 0;
  }

  /**
   * Opens a restart file after checking its integrity seal ({@link FileIntegrity}) and format
   * version, so that a truncated, damaged, edited or incompatible file is refused before any of
   * its values is used.
   *
   * @throws InputError when the file is missing, damaged, not a restart file or of another version
   */
  public static RestartFile open(Path file) {
    if (!Files.isRegularFile(file)) {
      throw InputError.at(file.toString(), "cannot read the restart file (no such file)",
          EXPECTED);
    }
    String damage;
    try {
      damage = FileIntegrity.problem(file);
    } catch (IOException | RuntimeException e) {
      damage = "it cannot be read: " + e.getMessage();
    }
    if (damage != null) {
      throw InputError.at(file.toString(), "cannot read the restart file (" + damage + ")",
          EXPECTED);
    }
    HdfFile h5;
    try {
      h5 = new HdfFile(file);
    } catch (RuntimeException e) {
      throw InputError.at(file.toString(), "cannot read the restart file (not an HDF5 file)",
          EXPECTED);
    }
    try {
      RestartFile restart = new RestartFile(file, h5);
      restart.checkVersion();
      restart.deck();
      RestartChecks.requireClock(file, restart.time(), restart.dt(), restart.ncycle());
      return restart;
    } catch (RuntimeException e) {
      h5.close();
      if (e instanceof InputError) {
        throw e;
      }
      throw InputError.at(file.toString(), "cannot read the restart file (" + e.getMessage()
          + ")", EXPECTED);
    }
  }

  private void checkVersion() {
    int version = infoInt("OutputFormatVersion");
    if (version != PhdfWriter.OUTPUT_FORMAT_VERSION) {
      throw broken("Info/OutputFormatVersion is " + version + ", this Metope reads version "
          + PhdfWriter.OUTPUT_FORMAT_VERSION);
    }
  }

  /** The file's path. */
  public Path path() {
    return path;
  }

  /** The effective deck of the run that wrote the file, output counters included. */
  public String deck() {
    Object deck = attribute("Input", "File");
    if (!(deck instanceof String text)) {
      throw broken("attribute Input/File is " + describe(deck) + ", expected the deck's text");
    }
    return text;
  }

  /** The cycle the file was written at. */
  public int ncycle() {
    return infoInt("NCycle");
  }

  /** The time the file was written at. */
  public double time() {
    return number("Info", "Time").doubleValue();
  }

  /** The step of the next cycle. */
  public double dt() {
    return number("Info", "dt").doubleValue();
  }

  /** Every block's location, by global id. */
  public List<LogicalLocation> locations() {
    return locations;
  }

  /**
   * Every block's location, by global id, after checking that the file's mesh is the one {@code
   * config} describes (dimensions, root grid and block size): a restart keeps its mesh, so a deck
   * or override that changes it is refused in one line.
   *
   * @throws InputError when the mesh of the file and of the run differ
   */
  public List<LogicalLocation> locationsFor(MeshConfiguration config) {
    int ndim = infoInt("NumDims");
    if (ndim != config.ndim()) {
      throw mismatch("the file's mesh has " + ndim + " dimensions, the run's deck "
          + config.ndim());
    }
    int[] rootCells = infoInts("RootGridSize");
    int[] blockCells = infoInts("MeshBlockSize");
    int ghosts = includesGhost ? 2 * infoInt("NGhost") : 0;
    for (int axis = 0; axis < ndim; axis++) {
      String key = "nx" + (axis + 1);
      if (rootCells[axis] != config.meshSize().nx(axis)) {
        throw mismatch("<parthenon/mesh> " + key + " = " + config.meshSize().nx(axis)
            + ", the file's mesh has " + key + " = " + rootCells[axis]
            + " (a restart keeps the mesh it was written with)");
      }
      if (blockCells[axis] - ghosts != config.blockNx(axis)) {
        throw mismatch("<parthenon/meshblock> " + key + " = " + config.blockNx(axis)
            + ", the file's blocks have " + key + " = " + (blockCells[axis] - ghosts)
            + " (a restart keeps the mesh it was written with)");
      }
    }
    RestartChecks.requireTree(path, config, locations);
    return locations;
  }

  private int[] infoInts(String name) {
    Object value = attribute("Info", name);
    if (!(value instanceof int[] ints) || ints.length != 3) {
      throw broken("attribute Info/" + name + " is " + describe(value)
          + ", expected three integers");
    }
    return ints;
  }

  /**
   * Blocks adaptive refinement had created and removed when the file was written ({@code
   * Info/NBNew}, {@code Info/NBDel}), which a resumed run counts on from, as Parthenon's {@code
   * nbnew} and {@code nbdel}.
   */
  public long[] blockCounts() {
    return new long[] {infoInt("NBNew"), infoInt("NBDel")};
  }

  /** Every block's derefinement counter, by global id (zeros when the file has none). */
  public int[] derefinementCounts() {
    return derefinementCounts.clone();
  }

  /**
   * Fills this rank's blocks of {@code mesh} (built from {@link #locations()}) in the first
   * container with the file's values of every {@code INDEPENDENT} or {@code RESTART} field, and
   * allocates the sparse fields the file has allocated, with their deallocation counters ({@code
   * SparseDeallocCount}).
   *
   * @throws InputError when the file's blocks or fields do not match the run
   */
  public void restoreFields(Mesh mesh) {
    try {
      FieldRestart.restore(this, mesh);
    } catch (InputError e) {
      throw e;
    } catch (RuntimeException e) {
      throw broken("its fields cannot be read (" + e.getMessage() + ")");
    }
  }

  /**
   * Sets every parameter added with {@link Params.Mutability#RESTART} to the file's value, where
   * the file has one (Parthenon's {@code Params::ReadFromRestart}).
   */
  public void restoreParams(Mesh mesh) {
    try {
      restoreParamValues(mesh);
    } catch (InputError e) {
      throw e;
    } catch (RuntimeException e) {
      throw broken("its parameters cannot be read (" + e.getMessage() + ")");
    }
  }

  private void restoreParamValues(Mesh mesh) {
    Node node = h5.getChild("Params");
    if (!(node instanceof Group group)) {
      return;
    }
    for (StateDescriptor pkg : mesh.packages().all()) {
      Params params = pkg.params();
      for (String key : params.keys()) {
        Attribute a = group.getAttribute(pkg.label() + "/" + key);
        if (params.mutability(key) != Params.Mutability.RESTART || a == null) {
          continue;
        }
        Object value = a.getData();
        Class<?> type = params.type(key);
        if (type == Boolean.class && value instanceof Number n) {
          value = n.intValue() != 0;
        } else if (type == Double.class && value instanceof Number n) {
          value = n.doubleValue();
        } else if (type == Integer.class && value instanceof Number n) {
          value = n.intValue();
        }
        params.update(key, value);
      }
    }
  }

  /** Copies a nested array of numbers (doubles, floats or ints) into {@code out} from {@code at}. */
  static int flatten(Object nested, double[] out, int at) {
    if (nested instanceof double[] d) {
      System.arraycopy(d, 0, out, at, d.length);
      return at + d.length;
    }
    if (nested instanceof int[] ints) {
      for (int i = 0; i < ints.length; i++) {
        out[at + i] = ints[i];
      }
      return at + ints.length;
    }
    if (nested instanceof float[] f) {
      for (int i = 0; i < f.length; i++) {
        out[at + i] = f[i];
      }
      return at + f.length;
    }
    int n = at;
    for (int i = 0; i < Array.getLength(nested); i++) {
      n = flatten(Array.get(nested, i), out, n);
    }
    return n;
  }

  /**
   * Adds the file's particles of every swarm this run writes to restart files ({@code
   * INDEPENDENT} or {@code RESTART}) to this rank's blocks of {@code mesh}, each block's in the
   * file's order (the slots the written run had after its defragmentation).
   *
   * @throws InputError when the file lacks a swarm or variable, or its counts do not fit
   */
  public void restoreSwarms(Mesh mesh) {
    try {
      SwarmRestart.restore(this, mesh);
    } catch (InputError e) {
      throw e;
    } catch (RuntimeException e) {
      throw broken("its particles cannot be read (" + e.getMessage() + ")");
    }
  }

  Dataset dataset(String path) {
    Dataset d = optionalDataset(path);
    if (d == null) {
      throw broken("it has no dataset " + path);
    }
    return d;
  }

  /** The file's top-level object {@code name}, or null. */
  Node node(String name) {
    return h5.getChild(name);
  }

  /** Whether the file's fields hold ghost cells ({@code Info/IncludesGhost}). */
  boolean includesGhost() {
    return includesGhost;
  }

  Dataset optionalDataset(String path) {
    try {
      return h5.getByPath(path) instanceof Dataset d ? d : null;
    } catch (RuntimeException e) {
      return null;
    }
  }

  private Object attribute(String group, String name) {
    Node node = h5.getChild(group);
    Attribute a = node == null ? null : node.getAttribute(name);
    if (a == null) {
      throw broken("it has no attribute " + group + "/" + name);
    }
    Object value = a.getData();
    return value.getClass().isArray() && Array.getLength(value) == 1 ? Array.get(value, 0) : value;
  }

  private int infoInt(String name) {
    Number n = number("Info", name);
    if (n instanceof Double || n instanceof Float || n.longValue() != n.intValue()) {
      throw broken("attribute Info/" + name + " is " + describe(n) + ", expected an integer");
    }
    return n.intValue();
  }

  private Number number(String group, String name) {
    Object value = attribute(group, name);
    if (!(value instanceof Number n)) {
      throw broken("attribute " + group + "/" + name + " is " + describe(value)
          + ", expected a number");
    }
    return n;
  }

  /** How a message shows a value of unexpected type, e.g. {@code a String ("abc")}. */
  private static String describe(Object value) {
    String text = value.getClass().isArray() ? value.getClass().getComponentType().getSimpleName()
        + "[" + Array.getLength(value) + "]" : String.valueOf(value);
    if (text.length() > 40) {
      text = text.substring(0, 40) + "...";
    }
    return "a " + value.getClass().getSimpleName() + " (" + text.replace('\n', ' ') + ")";
  }

  static int[] intArray(Dataset d) {
    long[] longs = longArray(d);
    int[] ints = new int[longs.length];
    for (int i = 0; i < longs.length; i++) {
      ints[i] = (int) longs[i];
    }
    return ints;
  }

  static byte[] byteArray(Dataset d) {
    long[] longs = longArray(d);
    byte[] bytes = new byte[longs.length];
    for (int i = 0; i < longs.length; i++) {
      bytes[i] = (byte) (longs[i] != 0 ? 1 : 0);
    }
    return bytes;
  }

  /** Any integer or boolean dataset's values as longs. */
  static long[] longArray(Dataset d) {
    Object flat = d.getDataFlat();
    int n = Array.getLength(flat);
    long[] longs = new long[n];
    for (int i = 0; i < n; i++) {
      Object value = Array.get(flat, i);
      if (value instanceof Boolean b) {
        longs[i] = b ? 1 : 0;
      } else if (value instanceof Number number && !(number instanceof Double || number instanceof Float)) {
        longs[i] = number.longValue();
      } else {
        throw new IllegalStateException("dataset " + d.getPath() + " holds "
            + value.getClass().getSimpleName() + " values, expected integers");
      }
    }
    return longs;
  }

  private InputError broken(String what) {
    return broken(path, what);
  }

  /** The one line that refuses this file because of {@code what} (a value it holds). */
  public InputError unusable(String what) {
    return broken(path, what);
  }

  /** The one line that refuses restart file {@code path} because of {@code what}. */
  static InputError broken(Path path, String what) {
    return InputError.at(path.toString(), "not a usable restart file: " + what, EXPECTED);
  }

  InputError mismatch(String what) {
    return InputError.at(path.toString(), "the restart file does not fit this run: " + what,
        "a restart file written by the same application and mesh");
  }

  @Override
  public void close() {
    h5.close();
  }

}
