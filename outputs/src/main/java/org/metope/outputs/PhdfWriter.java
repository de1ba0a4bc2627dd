package org.metope.outputs;

import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import io.jhdf.api.WritableGroup;
import io.jhdf.api.WritableNode;
import java.lang.reflect.Array;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.metope.mesh.BoundaryFace;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexRange;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.UniformCartesian;

/**
 * Writes one file in Parthenon's HDF5 layout (output format version 4), as {@code
 * PHDF5Output::WriteOutputFile} does, on rank 0: everything but the fields' values, whose datasets
 * it reserves ({@link FlatDataset#reserved}) for {@link Hdf5Output} to fill as they arrive:
 *
 * <pre>
 * /Info             attributes: OutputFormatVersion, NCycle, Time, dt, WallTime, NumDims,
 *                   NumMeshBlocks, MaxLevel, IncludesGhost, NGhost, Coordinates, NBNew, NBDel,
 *                   RootLevel, Refine, Multilevel, BlocksPerPE, MeshBlockSize, RootGridDomain,
 *                   RootGridSize, BoundaryConditions, SwarmBoundaryConditions, NumComponents,
 *                   ComponentNames, OutputDatasetNames
 * /Input            attribute File: the effective deck
 * /Params           attributes "package/key" for every number, boolean and string parameter
 * /Blocks/xmin      [nb, ndim]  lower corner of each block's first (ghost) cell
 * /Blocks/loc.lx123 [nb, 3]     logical location; loc.level-gid-lid-cnghost-gflag [nb, 5];
 *                   derefinement_count [nb, 1]
 * /Levels [nb], /LogicalLocations [nb, 3]
 * /Locations/x,y,z [nb, n+1] faces; /VolumeLocations/x,y,z [nb, n] cell centres
 * /&lt;field&gt;         [nb, (shape reversed), nk, nj, ni], attribute TopologicalLocation
 * /SparseInfo       [nb, nsparse] allocation flags, attribute SparseFields; SparseDeallocCount
 * </pre>
 *
 * Levels in {@code loc.level-...} count from the single tree over the root grid; {@code /Levels}
 * counts from the root grid. Attributes that Parthenon writes from a one-element list are scalars,
 * as in Parthenon's files.
 *
 * <p>Differences imposed by jhdf 0.9.4, all read the same by h5py and by Parthenon's {@code
 * phdf.py}: strings are fixed-length UTF-8 instead of variable-length; datasets are contiguous and
 * uncompressed; booleans and {@code SparseInfo} are signed 8-bit integers and {@code
 * NumComponents} signed 64-bit; the root group carries jhdf's {@code _jHDF} attribute.
 *
 * <p>For integrity, every dataset carries an attribute {@code MetopeDataCRC32C} (the CRC-32C of
 * its stored bytes), and {@link Hdf5Output} appends a {@link FileSeal} after the HDF5 data.
 */
final class PhdfWriter {
  /** Parthenon's {@code HDF5::OUTPUT_VERSION_FORMAT}. */
  static final int OUTPUT_FORMAT_VERSION = 4;

  private PhdfWriter() {}

  /**
   * Everything one file holds, on rank 0.
   *
   * @param deck the effective deck
   * @param ncycle cycle
   * @param time simulation time
   * @param dt the step of the next cycle
   * @param wallTime seconds since the run started
   * @param mesh the mesh (structure, packages and configuration; no field values are read)
   * @param ghosts whether values include ghost cells
   * @param singlePrecision whether fields are written as 32-bit floats
   * @param variables the fields written, sorted by name
   * @param sparseNames names of the sparse fields among {@code variables}, in their order
   * @param sparseAllocated [block][sparse field] 1 where allocated
   * @param sparseDeallocCount [block][sparse field] deallocation counters
   * @param derefinementCount per block, in gid order
   */
  record Content(String deck, int ncycle, double time, double dt, double wallTime, Mesh mesh,
      boolean ghosts, boolean singlePrecision, List<OutputVariable> variables,
      List<String> sparseNames, byte[] sparseAllocated,
      int[] sparseDeallocCount, int[] derefinementCount) {}

  /**
   * Writes {@code content} to {@code file} (a new file; the caller renames it into place) and
   * returns the datasets of {@code content.variables()}, in their order, reserved in it for their
   * values.
   */
  static List<FlatDataset> write(Path file, Content content) {
    FlatDataset.checkVersionTextFits();
    try (WritableHdfFile h5 = HdfFile.write(file)) {
      h5.putGroup("Input").putAttribute("File", content.deck());
      writeInfo(h5.putGroup("Info"), content);
      writeParams(h5.putGroup("Params"), content.mesh());
      writeBlocks(h5, content);
      writeCoordinates(h5, content.mesh(), content.ghosts());
      return writeVariables(h5, content);
    }
  }

  /** The index shape of every block: interior cells per active axis, ghosts around them. */
  static IndexShape blockShape(Mesh mesh) {
    int ndim = mesh.ndim();
    return new IndexShape(mesh.config().blockNx1(), ndim > 1 ? mesh.config().blockNx2() : 0,
        ndim > 2 ? mesh.config().blockNx3() : 0, mesh.nghost());
  }

  private static void writeInfo(WritableGroup info, Content c) {
    Mesh mesh = c.mesh();
    IndexShape shape = blockShape(mesh);
    IndexDomain domain = c.ghosts() ? IndexDomain.ENTIRE : IndexDomain.INTERIOR;
    info.putAttribute("OutputFormatVersion", OUTPUT_FORMAT_VERSION);
    info.putAttribute("NCycle", c.ncycle());
    info.putAttribute("Time", c.time());
    info.putAttribute("dt", c.dt());
    info.putAttribute("WallTime", c.wallTime());
    info.putAttribute("NumDims", mesh.ndim());
    info.putAttribute("NumMeshBlocks", mesh.totalBlocks());
    info.putAttribute("MaxLevel", mesh.currentLevel() - mesh.rootLevel());
    info.putAttribute("IncludesGhost", c.ghosts() ? 1 : 0);
    info.putAttribute("NGhost", mesh.nghost());
    info.putAttribute("Coordinates", "UniformCartesian");
    info.putAttribute("NBNew", 0);
    info.putAttribute("NBDel", 0);
    info.putAttribute("RootLevel", mesh.rootLevel());
    info.putAttribute("Refine", mesh.isAdaptive() ? 1 : 0);
    info.putAttribute("Multilevel", mesh.isMultilevel() ? 1 : 0);
    int[] perRank = new int[mesh.nranks()];
    for (int r = 0; r < perRank.length; r++) {
      perRank[r] = mesh.distribution().blockCount(r);
    }
    putInts(info, "BlocksPerPE", perRank);
    info.putAttribute("MeshBlockSize", new int[] {shape.ncellsI(domain), shape.ncellsJ(domain),
        shape.ncellsK(domain)});
    double[] domainBounds = new double[9];
    int[] rootCells = new int[3];
    for (int axis = 0; axis < 3; axis++) {
      domainBounds[3 * axis] = mesh.meshSize().xmin(axis);
      domainBounds[3 * axis + 1] = mesh.meshSize().xmax(axis);
      domainBounds[3 * axis + 2] = 1.0;
      rootCells[axis] = mesh.meshSize().nx(axis);
    }
    info.putAttribute("RootGridDomain", domainBounds);
    info.putAttribute("RootGridSize", rootCells);
    String[] bcs = new String[6];
    String[] swarmBcs = new String[6];
    for (BoundaryFace face : BoundaryFace.values()) {
      String name = mesh.config().boundaryName(face);
      bcs[face.ordinal()] = name;
      swarmBcs[face.ordinal()] = name.equals("periodic") ? name : "outflow";
    }
    info.putAttribute("BoundaryConditions", bcs);
    info.putAttribute("SwarmBoundaryConditions", swarmBcs);
    if (!c.variables().isEmpty()) {
      writeDatasetNames(info, c.variables());
    }
  }

  /** NumComponents, ComponentNames and OutputDatasetNames, one entry per field written. */
  private static void writeDatasetNames(WritableGroup info, List<OutputVariable> variables) {
    long[] components = new long[variables.size()];
    List<String> componentNames = new ArrayList<>();
    String[] names = new String[components.length];
    for (int v = 0; v < components.length; v++) {
      OutputVariable variable = variables.get(v);
      components[v] = variable.componentNames().size();
      componentNames.addAll(variable.componentNames());
      names[v] = variable.label();
    }
    putLongs(info, "NumComponents", components);
    putStrings(info, "ComponentNames", componentNames.toArray(new String[0]));
    putStrings(info, "OutputDatasetNames", names);
  }

  private static void putInts(WritableNode node, String name, int[] values) {
    node.putAttribute(name, values.length == 1 ? (Object) values[0] : values);
  }

  private static void putLongs(WritableNode node, String name, long[] values) {
    node.putAttribute(name, values.length == 1 ? (Object) values[0] : values);
  }

  private static void putStrings(WritableNode node, String name, String[] values) {
    node.putAttribute(name, values.length == 1 ? (Object) values[0] : values);
  }

  /** Parameters Parthenon can write as attributes: numbers, booleans (as 8-bit), strings. */
  private static void writeParams(WritableGroup group, Mesh mesh) {
    for (StateDescriptor pkg : mesh.packages().all()) {
      Params params = pkg.params();
      for (String key : params.keys()) {
        Object value = params.get(key, Object.class);
        String name = pkg.label() + "/" + key;
        if (value instanceof Boolean b) {
          group.putAttribute(name, (byte) (b ? 1 : 0));
        } else if (value instanceof Double || value instanceof Integer || value instanceof Long
            || value instanceof Float || value instanceof String) {
          group.putAttribute(name, value);
        } else if (value instanceof double[] || value instanceof int[]
            || value instanceof long[]) {
          if (Array.getLength(value) > 0) {
            group.putAttribute(name, value);
          }
        }
      }
    }
  }

  private static void writeBlocks(WritableHdfFile h5, Content c) {
    Mesh mesh = c.mesh();
    int nb = mesh.totalBlocks();
    int ndim = mesh.ndim();
    int cnghost = (mesh.nghost() + 1) / 2 + 1;
    double[] xmin = new double[nb * ndim];
    long[] lx123 = new long[nb * 3];
    int[] ids = new int[nb * 5];
    long[] levels = new long[nb];
    for (int gid = 0; gid < nb; gid++) {
      LogicalLocation loc = mesh.location(gid);
      UniformCartesian coords = new UniformCartesian(mesh.blockRegion(loc), mesh.nghost());
      for (int axis = 0; axis < ndim; axis++) {
        xmin[gid * ndim + axis] = coords.xf(axis, 0);
      }
      for (int axis = 0; axis < 3; axis++) {
        lx123[gid * 3 + axis] = loc.l(axis);
      }
      int rank = mesh.rank(gid);
      ids[gid * 5] = loc.level();
      ids[gid * 5 + 1] = gid;
      ids[gid * 5 + 2] = gid - mesh.distribution().firstGid(rank);
      ids[gid * 5 + 3] = cnghost;
      ids[gid * 5 + 4] = 0;
      levels[gid] = loc.level() - mesh.rootLevel();
    }
    WritableGroup blocks = h5.putGroup("Blocks");
    put(blocks, FlatDataset.of(blocks, "xmin", xmin, nb, ndim));
    put(blocks, FlatDataset.of(blocks, "loc.lx123", lx123, nb, 3));
    put(blocks, FlatDataset.of(blocks, "loc.level-gid-lid-cnghost-gflag", ids, nb, 5));
    put(blocks, FlatDataset.of(blocks, "derefinement_count", c.derefinementCount(), nb, 1));
    put(h5, FlatDataset.of(h5, "Levels", levels, nb));
    put(h5, FlatDataset.of(h5, "LogicalLocations", lx123.clone(), nb, 3));
  }

  private static void put(WritableGroup group, FlatDataset dataset) {
    group.putDataset(dataset.getName(), dataset);
  }

  private static void writeCoordinates(WritableHdfFile h5, Mesh mesh, boolean ghosts) {
    IndexShape shape = blockShape(mesh);
    IndexDomain domain = ghosts ? IndexDomain.ENTIRE : IndexDomain.INTERIOR;
    IndexRange[] ranges = {shape.boundsI(domain), shape.boundsJ(domain), shape.boundsK(domain)};
    int nb = mesh.totalBlocks();
    for (boolean face : new boolean[] {true, false}) {
      WritableGroup group = h5.putGroup(face ? "Locations" : "VolumeLocations");
      for (int axis = 0; axis < 3; axis++) {
        IndexRange r = ranges[axis];
        int n = r.size() + (face ? 1 : 0);
        double[] x = new double[nb * n];
        for (int gid = 0; gid < nb; gid++) {
          UniformCartesian coords = new UniformCartesian(mesh.blockRegion(mesh.location(gid)),
              mesh.nghost());
          for (int idx = 0; idx < n; idx++) {
            x[gid * n + idx] = face ? coords.xf(axis, r.s() + idx) : coords.xc(axis, r.s() + idx);
          }
        }
        String name = new String[] {"x", "y", "z"}[axis];
        put(group, FlatDataset.of(group, name, x, nb, n));
      }
    }
  }

  private static List<FlatDataset> writeVariables(WritableHdfFile h5, Content c) {
    int nb = c.mesh().totalBlocks();
    List<FlatDataset> reserved = new ArrayList<>();
    for (OutputVariable variable : c.variables()) {
      int[] dims = new int[variable.blockDimensions().length + 1];
      dims[0] = nb;
      System.arraycopy(variable.blockDimensions(), 0, dims, 1, dims.length - 1);
      FlatDataset dataset = FlatDataset.reserved(h5, variable.label(), c.singlePrecision(),
          dims);
      dataset.putAttribute("TopologicalLocation", variable.field().metadata().topology()
          == MetadataFlag.CELL ? "Cell" : "None");
      put(h5, dataset);
      reserved.add(dataset);
    }
    int nsparse = c.sparseNames().size();
    if (nsparse > 0) {
      FlatDataset info = FlatDataset.of(h5, "SparseInfo", c.sparseAllocated(), nb, nsparse);
      putStrings(info, "SparseFields", c.sparseNames().toArray(new String[0]));
      put(h5, info);
      put(h5, FlatDataset.of(h5, "SparseDeallocCount", c.sparseDeallocCount(), nb, nsparse));
    }
    return reserved;
  }
}
