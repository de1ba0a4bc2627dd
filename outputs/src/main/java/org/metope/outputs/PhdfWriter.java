package org.metope.outputs;

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.metope.mesh.BoundaryFace;
import org.metope.mesh.Mesh;
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
 * /&lt;swarm&gt;/counts, offsets [nb] unsigned 64-bit: particles per block, index of its first
 * /&lt;swarm&gt;/SwarmVars/&lt;variable&gt; [(shape), np] per particle, in gid then slot order (none
 *                   when the swarm is empty); an {@code id} of 0.. np-1 when the swarm has none
 * </pre>
 *
 * Levels in {@code loc.level-...} count from the single tree over the root grid; {@code /Levels}
 * counts from the root grid. {@code NBNew} and {@code NBDel} count the blocks adaptive refinement
 * has created and removed since the run began (restarts continue the counts), as Parthenon's
 * {@code nbnew} and {@code nbdel}.
 *
 * <p>Every attribute and dataset has the HDF5 type class, size, sign and string kind of
 * Parthenon's for the same content ({@link Hdf5Type}): variable-length ASCII strings, {@code
 * NumComponents} unsigned 64-bit, booleans and {@code SparseInfo} unsigned 8-bit, one value a
 * scalar. The parameters written are those a package adds, less those it adds with {@link
 * Params#addUnwritten} (values Parthenon's package does not write). Differences from Parthenon's
 * files, none of which its readers look at: datasets are contiguous and uncompressed, and for
 * integrity every dataset carries an attribute {@code MetopeDataCRC32C} (the CRC-32C of its
 * stored bytes), and {@link Hdf5Output} appends a {@link FileSeal} after the HDF5 data.
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
   * @param blocksCreated blocks created by adaptive refinement so far (Parthenon's {@code nbnew})
   * @param blocksDestroyed blocks removed by adaptive refinement so far ({@code nbdel})
   * @param timeLoop whether a time loop runs the clock; without one (a solve) the file has no
   *     {@code NCycle}, {@code Time} and {@code dt}, as Parthenon's without a {@code SimTime}
   * @param swarms the particles of the swarms written, gathered on rank 0
   */
  record Content(String deck, int ncycle, double time, double dt, double wallTime, Mesh mesh,
      boolean ghosts, boolean singlePrecision, List<OutputVariable> variables,
      List<String> sparseNames, byte[] sparseAllocated,
      int[] sparseDeallocCount, int[] derefinementCount, long blocksCreated,
      long blocksDestroyed, boolean timeLoop, List<OutputSwarms.Gathered> swarms,
      boolean swarmPositions) {}

  /**
   * A file {@link #write} has written: the datasets of the content's variables, in their order,
   * reserved for their values, and the file, whose {@link Hdf5File#structure} the seal needs.
   */
  record Layout(List<FlatDataset> reserved, Hdf5File file) {}

  /**
   * Writes {@code content} to {@code file} (a new file, open in {@code channel}; the caller
   * renames it into place), with the datasets of {@code content.variables()} reserved in it for
   * their values.
   */
  static Layout write(Path file, FileChannel channel, Content content) {
    try (Hdf5File h5 = Hdf5File.create(file, channel)) {
      Hdf5Group root = h5.root();
      writeInfo(root.group("Info"), content);
      root.group("Input").putStrings("File", content.deck());
      writeParams(root.group("Params"), content.mesh());
      UniformCartesian[] coords = blockCoordinates(content.mesh());
      writeBlocks(root, content, coords);
      writeCoordinates(root, content.mesh(), content.ghosts(), coords);
      List<FlatDataset> reserved = writeVariables(root, content);
      for (OutputSwarms.Gathered swarm : content.swarms()) {
        writeSwarm(root.group(swarm.selected().swarm()), swarm, content.swarmPositions());
      }
      return new Layout(reserved, h5);
    }
  }

  /** The index shape of every block: interior cells per active axis, ghosts around them. */
  static IndexShape blockShape(Mesh mesh) {
    int ndim = mesh.ndim();
    return new IndexShape(mesh.config().blockNx1(), ndim > 1 ? mesh.config().blockNx2() : 0,
        ndim > 2 ? mesh.config().blockNx3() : 0, mesh.nghost());
  }

  private static void writeInfo(Hdf5Group info, Content c) {
    Mesh mesh = c.mesh();
    IndexShape shape = blockShape(mesh);
    IndexDomain domain = c.ghosts() ? IndexDomain.ENTIRE : IndexDomain.INTERIOR;
    info.putInts("OutputFormatVersion", OUTPUT_FORMAT_VERSION);
    if (c.timeLoop()) {
      info.putInts("NCycle", c.ncycle());
      info.putDoubles("Time", c.time());
      info.putDoubles("dt", c.dt());
    }
    info.putDoubles("WallTime", c.wallTime());
    info.putInts("NumDims", mesh.ndim());
    info.putInts("NumMeshBlocks", mesh.totalBlocks());
    info.putInts("MaxLevel", mesh.currentLevel() - mesh.rootLevel());
    info.putInts("IncludesGhost", c.ghosts() ? 1 : 0);
    info.putInts("NGhost", mesh.nghost());
    info.putStrings("Coordinates", "UniformCartesian");
    info.putInts("NBNew", Math.toIntExact(c.blocksCreated()));
    info.putInts("NBDel", Math.toIntExact(c.blocksDestroyed()));
    info.putInts("RootLevel", mesh.rootLevel());
    info.putInts("Refine", mesh.isAdaptive() ? 1 : 0);
    info.putInts("Multilevel", mesh.isMultilevel() ? 1 : 0);
    int[] perRank = new int[mesh.nranks()];
    for (int r = 0; r < perRank.length; r++) {
      perRank[r] = mesh.distribution().blockCount(r);
    }
    info.putInts("BlocksPerPE", perRank);
    info.putInts("MeshBlockSize", shape.ncellsI(domain), shape.ncellsJ(domain),
        shape.ncellsK(domain));
    double[] domainBounds = new double[9];
    int[] rootCells = new int[3];
    for (int axis = 0; axis < 3; axis++) {
      domainBounds[3 * axis] = mesh.meshSize().xmin(axis);
      domainBounds[3 * axis + 1] = mesh.meshSize().xmax(axis);
      domainBounds[3 * axis + 2] = 1.0;
      rootCells[axis] = mesh.meshSize().nx(axis);
    }
    info.putDoubles("RootGridDomain", domainBounds);
    info.putInts("RootGridSize", rootCells);
    String[] bcs = new String[6];
    String[] swarmBcs = new String[6];
    for (BoundaryFace face : BoundaryFace.values()) {
      String name = mesh.config().boundaryName(face);
      bcs[face.ordinal()] = name;
      swarmBcs[face.ordinal()] = name.equals("periodic") ? name : "outflow";
    }
    info.putStrings("BoundaryConditions", bcs);
    info.putStrings("SwarmBoundaryConditions", swarmBcs);
    if (!c.variables().isEmpty()) {
      writeDatasetNames(info, c.variables());
    }
  }

  /** NumComponents, ComponentNames and OutputDatasetNames, one entry per field written. */
  private static void writeDatasetNames(Hdf5Group info, List<OutputVariable> variables) {
    long[] components = new long[variables.size()];
    List<String> componentNames = new ArrayList<>();
    String[] names = new String[components.length];
    for (int v = 0; v < components.length; v++) {
      OutputVariable variable = variables.get(v);
      components[v] = variable.componentNames().size();
      componentNames.addAll(variable.componentNames());
      names[v] = variable.label();
    }
    info.put(Hdf5Attribute.integers("NumComponents", Hdf5Type.UINT64, components));
    info.putStrings("ComponentNames", componentNames.toArray(new String[0]));
    info.putStrings("OutputDatasetNames", names);
  }

  /**
   * The parameters Parthenon's {@code Params::WriteAllToHDF5} writes, with its types: booleans
   * (unsigned 8-bit), {@code int} (32-bit), {@code long} (64-bit), floats, doubles and strings,
   * single or in non-empty arrays; other values, and those added with {@link
   * Params#addUnwritten}, are left out.
   */
  private static void writeParams(Hdf5Group group, Mesh mesh) {
    for (StateDescriptor pkg : mesh.packages().all()) {
      Params params = pkg.params();
      for (String key : params.keys()) {
        if (params.written(key)) {
          Hdf5Attribute a = param(group, pkg.label() + "/" + key, params.get(key, Object.class));
          if (a != null) {
            group.put(a);
          }
        }
      }
    }
  }

  /** The attribute Parthenon writes for a parameter's value, or null where it writes none. */
  private static Hdf5Attribute param(Hdf5Group group, String name, Object value) {
    if (value instanceof Boolean b) {
      return Hdf5Attribute.integers(name, Hdf5Type.UINT8, b ? 1 : 0);
    } else if (value instanceof Integer n) {
      return Hdf5Attribute.ints(name, n);
    } else if (value instanceof Long n) {
      return Hdf5Attribute.integers(name, Hdf5Type.INT64, n);
    } else if (value instanceof Double d) {
      return Hdf5Attribute.doubles(name, d);
    } else if (value instanceof Float f) {
      return Hdf5Attribute.reals(name, Hdf5Type.FLOAT32, f);
    } else if (value instanceof String text) {
      return group.stringAttribute(name, text);
    } else if (value instanceof double[] d && d.length > 0) {
      return Hdf5Attribute.doubles(name, d);
    } else if (value instanceof int[] n && n.length > 0) {
      return Hdf5Attribute.ints(name, n);
    } else if (value instanceof long[] n && n.length > 0) {
      return Hdf5Attribute.integers(name, Hdf5Type.INT64, n);
    } else if (value instanceof String[] texts && texts.length > 0) {
      return group.stringAttribute(name, texts);
    }
    return null;
  }

  /** Every block's coordinates, in gid order. */
  private static UniformCartesian[] blockCoordinates(Mesh mesh) {
    UniformCartesian[] coords = new UniformCartesian[mesh.totalBlocks()];
    for (int gid = 0; gid < coords.length; gid++) {
      coords[gid] = new UniformCartesian(mesh.blockRegion(mesh.location(gid)), mesh.nghost());
    }
    return coords;
  }

  private static void writeBlocks(Hdf5Group root, Content c, UniformCartesian[] coords) {
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
      for (int axis = 0; axis < ndim; axis++) {
        xmin[gid * ndim + axis] = coords[gid].xf(axis, 0);
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
    Hdf5Group blocks = root.group("Blocks");
    blocks.add(FlatDataset.of("xmin", xmin, nb, ndim));
    blocks.add(FlatDataset.of("loc.lx123", lx123, nb, 3));
    blocks.add(FlatDataset.of("loc.level-gid-lid-cnghost-gflag", ids, nb, 5));
    blocks.add(FlatDataset.of("derefinement_count", c.derefinementCount(), nb, 1));
    root.add(FlatDataset.of("Levels", levels, nb));
    root.add(FlatDataset.of("LogicalLocations", lx123.clone(), nb, 3));
  }

  private static void writeCoordinates(Hdf5Group root, Mesh mesh, boolean ghosts,
      UniformCartesian[] coords) {
    IndexShape shape = blockShape(mesh);
    IndexDomain domain = ghosts ? IndexDomain.ENTIRE : IndexDomain.INTERIOR;
    IndexRange[] ranges = {shape.boundsI(domain), shape.boundsJ(domain), shape.boundsK(domain)};
    int nb = mesh.totalBlocks();
    for (boolean face : new boolean[] {true, false}) {
      Hdf5Group group = root.group(face ? "Locations" : "VolumeLocations");
      for (int axis = 0; axis < 3; axis++) {
        IndexRange r = ranges[axis];
        int n = r.size() + (face ? 1 : 0);
        double[] x = new double[nb * n];
        int s = r.s();
        for (int gid = 0; gid < nb; gid++) {
          UniformCartesian block = coords[gid];
          for (int idx = 0; idx < n; idx++) {
            x[gid * n + idx] = face ? block.xf(axis, s + idx) : block.xc(axis, s + idx);
          }
        }
        String name = new String[] {"x", "y", "z"}[axis];
        group.add(FlatDataset.of(name, x, nb, n));
      }
    }
  }

  private static List<FlatDataset> writeVariables(Hdf5Group root, Content c) {
    int nb = c.mesh().totalBlocks();
    List<FlatDataset> reserved = new ArrayList<>();
    for (OutputVariable variable : c.variables()) {
      int[] dims = new int[variable.blockDimensions().length + 1];
      dims[0] = nb;
      System.arraycopy(variable.blockDimensions(), 0, dims, 1, dims.length - 1);
      FlatDataset dataset = FlatDataset.reserved(variable.label(), c.singlePrecision(), dims);
      dataset.put(root.stringAttribute("TopologicalLocation", variable.topologicalLocation()));
      root.add(dataset);
      reserved.add(dataset);
    }
    int nsparse = c.sparseNames().size();
    if (nsparse > 0) {
      FlatDataset info = FlatDataset.of("SparseInfo", c.sparseAllocated(), nb, nsparse);
      info.put(root.stringAttribute("SparseFields", c.sparseNames().toArray(new String[0])));
      root.add(info);
      root.add(FlatDataset.of("SparseDeallocCount", c.sparseDeallocCount(), nb, nsparse));
    }
    return reserved;
  }

  /**
   * One swarm's group as Parthenon's {@code PHDF5Output} writes it; with {@code positions} (its
   * {@code write_swarm_xdmf}) also {@code swarm_positions} {@code [np, 3]}, each particle's x, y,
   * z, which the {@code .swarm.xdmf} companion reads.
   */
  private static void writeSwarm(Hdf5Group group, OutputSwarms.Gathered swarm,
      boolean positions) {
    int nb = swarm.counts().length;
    group.add(FlatDataset.unsigned("counts", swarm.counts(), nb));
    group.add(FlatDataset.unsigned("offsets", swarm.offsets(), nb));
    Hdf5Group vars = group.group("SwarmVars");
    int total = swarm.total();
    if (total == 0) {
      return;
    }
    boolean hasId = false;
    for (int v = 0; v < swarm.selected().variables().size(); v++) {
      var variable = swarm.selected().variables().get(v);
      int[] dims = OutputSwarms.dimensions(variable, total);
      Object values = swarm.values().get(v);
      vars.add(values instanceof int[] ints ? FlatDataset.of(variable.name(), ints, dims)
          : FlatDataset.of(variable.name(), (double[]) values, dims));
      hasId |= variable.name().equals("id");
    }
    if (positions) {
      vars.add(FlatDataset.of("swarm_positions", interleavedPositions(swarm), total, 3));
    }
    if (!hasId) {
      int[] ids = new int[total];
      for (int p = 0; p < total; p++) {
        ids[p] = p;
      }
      vars.add(FlatDataset.of("id", ids, total));
    }
  }

  /** x, y, z of each particle in turn (positions are the first three variables written). */
  private static double[] interleavedPositions(OutputSwarms.Gathered swarm) {
    int total = swarm.total();
    double[] xyz = new double[3 * total];
    for (int axis = 0; axis < 3; axis++) {
      double[] x = (double[]) swarm.values().get(axis);
      for (int p = 0; p < total; p++) {
        xyz[3 * p + axis] = x[p];
      }
    }
    return xyz;
  }
}
