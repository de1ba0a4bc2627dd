package org.metope.mesh;

import java.util.ArrayList;
import java.util.List;
import org.metope.mesh.field.SparseConfig;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.geometry.RegionSize;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;

/**
 * Reads {@code <parthenon/mesh>}, {@code <parthenon/meshblock>} and {@code
 * <parthenon/static_refinementN>} with Parthenon's keys and defaults, and applies Parthenon's mesh
 * validity checks plus ours (ghost width, boundary names). Every failure is one {@code InputError}
 * line naming the deck line and key.
 */
final class MeshConfigurationReader {
  /** Cells narrower than this many ulps of their coordinates are refused. */
  private static final double MIN_CELL_ULPS = 16;

  static final String MESH = "parthenon/mesh";
  static final String MESHBLOCK = "parthenon/meshblock";
  static final String STATIC_PREFIX = "parthenon/static_refinement";

  /** Parthenon's smallest block along an active axis. */
  static final int MIN_BLOCK_CELLS = 4;

  private final ParameterInput pin;

  private MeshConfigurationReader(ParameterInput pin) {
    this.pin = pin;
  }

  static MeshConfiguration read(ParameterInput pin, List<String> userBoundaryNames) {
    return new MeshConfigurationReader(pin).read(userBoundaryNames);
  }

  private MeshConfiguration read(List<String> userBoundaryNames) {
    RegionSize meshSize = readMeshSize();
    int ndim = meshSize.ndim();
    Refinement refinement = Refinement.valueOf(pin.getOrAddString(MESH, "refinement", "none",
        List.of("none", "static", "adaptive")).toUpperCase(java.util.Locale.ROOT));
    int numLevel = 1;
    pin.declareKnown(MESH, "numlevel");
    pin.declareKnown(MESHBLOCK, "nx1", "nx2", "nx3");
    if (refinement == Refinement.ADAPTIVE) {
      numLevel = pin.getOrAddInteger(MESH, "numlevel", 1);
      if (numLevel < 1) {
        throw pin.error(MESH, "numlevel", "an integer >= 1 (1 means the root grid only)");
      }
    }
    int nghost = readNghost(refinement);
    int packSize = pin.getOrAddInteger(MESH, "pack_size", -1);
    List<String> boundaryNames = readBoundaryNames(ndim, userBoundaryNames);
    int[] blockNx = readBlockSize(meshSize, refinement);
    for (int axis = 0; axis < ndim; axis++) {
      if (nghost > blockNx[axis]) {
        throw pin.error(MESH, "nghost", "at most the block width " + MESHBLOCK + "/nx"
            + (axis + 1) + " = " + blockNx[axis]);
      }
    }
    checkSize(meshSize, blockNx, nghost);
    int rootLevel = rootLevel(meshSize, blockNx, numLevel);
    List<StaticRefinementRegion> regions = refinement == Refinement.NONE
        ? List.of()
        : readStaticRegions(meshSize, refinement, numLevel, rootLevel);
    boolean multigrid = pin.getOrAddBoolean(MESH, "multigrid", false);
    if (multigrid && refinement == Refinement.ADAPTIVE) {
      throw pin.error(MESH, "multigrid", "false when " + MESH + "/refinement = adaptive"
          + " (Metope builds the multigrid levels of meshes without refinement or with static"
          + " refinement only)");
    }
    MeshConfiguration config = new MeshConfiguration(meshSize, blockNx[0], blockNx[1],
        blockNx[2], boundaryNames, refinement, numLevel, nghost, packSize, regions,
        SparseConfig.fromInput(pin), multigrid, 1);
    if (multigrid) {
      checkMultigridTrees(config);
    }
    return config;
  }

  /** {@code <parthenon/mesh> nghost}: at least 1, and even on a mesh with refinement. */
  private int readNghost(Refinement refinement) {
    int nghost = pin.getOrAddInteger(MESH, "nghost", 2);
    if (nghost < 1) {
      throw pin.error(MESH, "nghost", "an integer >= 1");
    }
    if (refinement != Refinement.NONE && nghost % 2 != 0) {
      // Ghosts facing a coarser block are prolongated from the nghost / 2 coarse layers beyond
      // the boundary, which cover 2 * (nghost / 2) fine layers: one short when nghost is odd.
      // Parthenon refuses odd nghost on any multilevel mesh for the same reason.
      throw pin.error(MESH, "nghost", "an even number when " + MESH + "/refinement = "
          + refinement.name().toLowerCase(java.util.Locale.ROOT) + " (prolongation fills fine"
          + " ghost cells in pairs, as in Parthenon)");
    }
    return nghost;
  }

  /**
   * The level of the root grid: the smallest {@code l} with {@code 2^l} at least the root grid's
   * blocks along every axis; with its {@code numLevel} levels the mesh must stay within {@link
   * LogicalLocation#MAX_LEVEL}.
   */
  private int rootLevel(RegionSize meshSize, int[] blockNx, int numLevel) {
    int largest = 1;
    for (int axis = 0; axis < 3; axis++) {
      largest = Math.max(largest, meshSize.nx(axis) / blockNx[axis]);
    }
    int rootLevel = 32 - Integer.numberOfLeadingZeros(largest - 1);
    if (rootLevel + numLevel - 1 > LogicalLocation.MAX_LEVEL) {
      throw pin.error(MESH, "numlevel", "at most " + (LogicalLocation.MAX_LEVEL - rootLevel + 1));
    }
    return rootLevel;
  }

  /**
   * Multigrid levels coarsen each root block alone, so every root block must be a tree of its
   * own, as Parthenon groups them.
   */
  private void checkMultigridTrees(MeshConfiguration config) {
    int trees = new BlockGeometry(config).treeCount();
    if (trees != config.rootGrid().rootBlockCount()) {
      // Parthenon's coarse levels then merge the root blocks of a tree into one block first.
      throw pin.error(MESH, "multigrid", "false on this root grid: Parthenon groups its "
          + config.rootGrid().rootBlockCount() + " root blocks into " + trees
          + (trees == 1 ? " tree" : " trees") + ", whose multigrid levels merge blocks, and"
          + " Metope builds levels that coarsen each root block alone (one tree per root"
          + " block: 1D, 2D, or a 3D root grid with an odd number of root blocks along some"
          + " axis)");
    }
  }

  private RegionSize readMeshSize() {
    int[] nx = new int[3];
    double[] xmin = new double[3];
    double[] xmax = new double[3];
    for (int axis = 0; axis < 3; axis++) {
      String n = Integer.toString(axis + 1);
      nx[axis] = pin.getInteger(MESH, "nx" + n);
      if (nx[axis] < 1) {
        throw pin.error(MESH, "nx" + n, "an integer >= 1");
      }
    }
    for (int axis = 0; axis < 3; axis++) {
      String n = Integer.toString(axis + 1);
      xmin[axis] = pin.getReal(MESH, "x" + n + "min");
      xmax[axis] = pin.getReal(MESH, "x" + n + "max");
      if (!(xmax[axis] > xmin[axis])) {
        throw pin.error(MESH, "x" + n + "max",
            "a value larger than " + MESH + "/x" + n + "min = " + format(xmin[axis]));
      }
      requireResolvableCells(n, xmin[axis], xmax[axis], nx[axis]);
    }
    if (nx[1] == 1 && nx[2] > 1) {
      throw pin.error(MESH, "nx3",
          "1 when nx2 = 1 (2D problems in the x1-x3 plane are not supported)");
    }
    boolean[] symmetry = {false, nx[1] == 1, nx[2] == 1};
    return new RegionSize(xmin, xmax, nx, symmetry);
  }

  /**
   * Refuses an extent that overflows (a domain from -1.7e308 to 1.7e308) or cells narrower than
   * {@link #MIN_CELL_ULPS} units in the last place of their coordinates (a domain 1e-16 wide at
   * x = 1): their faces would round onto each other, and the run would fill nothing right.
   */
  private void requireResolvableCells(String n, double xmin, double xmax, int cells) {
    double width = (xmax - xmin) / cells;
    double resolution = MIN_CELL_ULPS * Math.ulp(Math.max(Math.abs(xmin), Math.abs(xmax)));
    if (!Double.isFinite(xmax - xmin) || width < resolution) {
      throw pin.error(MESH, "x" + n + "max", "a domain whose " + cells + " cells along x" + n
          + " are finite and wider than " + MIN_CELL_ULPS + " units in the last place of their"
          + " coordinates (" + format(resolution) + "): (x" + n + "max - x" + n + "min) / nx" + n
          + " = " + format(width));
    }
  }

  private List<String> readBoundaryNames(int ndim, List<String> userBoundaryNames) {
    List<String> accepted = new ArrayList<>(MeshConfiguration.BUILT_IN_BOUNDARY_NAMES);
    for (String name : userBoundaryNames) {
      if (!accepted.contains(name)) {
        accepted.add(name);
      }
    }
    List<String> names = new ArrayList<>();
    for (BoundaryFace face : BoundaryFace.values()) {
      String name = pin.getOrAddString(MESH, face.deckKey(), "outflow");
      if (!accepted.contains(name)) {
        throw pin.error(MESH, face.deckKey(), "a boundary condition: one of "
            + String.join(", ", accepted));
      }
      names.add(name);
    }
    for (int axis = 0; axis < ndim; axis++) {
      BoundaryFace inner = BoundaryFace.of(axis, false);
      BoundaryFace outer = BoundaryFace.of(axis, true);
      boolean innerPeriodic = "periodic".equals(names.get(inner.ordinal()));
      boolean outerPeriodic = "periodic".equals(names.get(outer.ordinal()));
      if (innerPeriodic != outerPeriodic) {
        BoundaryFace odd = innerPeriodic ? outer : inner;
        BoundaryFace other = innerPeriodic ? inner : outer;
        throw pin.error(MESH, odd.deckKey(), "periodic, as " + MESH + "/" + other.deckKey()
            + " is (both sides of an axis must be periodic)");
      }
    }
    return names;
  }

  private int[] readBlockSize(RegionSize meshSize, Refinement refinement) {
    int[] blockNx = new int[3];
    for (int axis = 0; axis < 3; axis++) {
      String key = "nx" + (axis + 1);
      if (meshSize.isSymmetry(axis)) {
        // Not read by default, but a value given must fit the one-cell axis, as in Parthenon.
        if (pin.doesParameterExist(MESHBLOCK, key)
            && pin.getInteger(MESHBLOCK, key) != meshSize.nx(axis)) {
          throw pin.error(MESHBLOCK, key, meshSize.nx(axis) + ", as " + MESH + "/" + key + " = "
              + meshSize.nx(axis) + " (the axis is inactive)");
        }
        blockNx[axis] = meshSize.nx(axis);
        continue;
      }
      int nx = pin.getOrAddInteger(MESHBLOCK, key, meshSize.nx(axis));
      if (nx < 1) {
        throw pin.error(MESHBLOCK, key, "a positive integer");
      }
      if (meshSize.nx(axis) % nx != 0) {
        throw pin.error(MESHBLOCK, key, "a divisor of " + MESH + "/" + key + " = "
            + meshSize.nx(axis) + " (the mesh must be evenly divisible by the meshblock)");
      }
      if (nx < MIN_BLOCK_CELLS) {
        throw pin.error(MESHBLOCK, key, "at least " + MIN_BLOCK_CELLS + " cells");
      }
      if (refinement != Refinement.NONE && nx % 2 != 0) {
        throw pin.error(MESHBLOCK, key, "an even number of cells, since " + MESH
            + "/refinement = " + refinement.deckName());
      }
      blockNx[axis] = nx;
    }
    return blockNx;
  }

  /**
   * Refuses a block too large for one array and a root grid whose tree alone cannot fit in this
   * JVM ({@link MemoryBudget}), before anything is allocated.
   */
  private void checkSize(RegionSize meshSize, int[] blockNx, int nghost) {
    long cells = 1;
    long rootBlocks = 1;
    for (int axis = 0; axis < meshSize.ndim(); axis++) {
      cells *= blockNx[axis] + 2L * nghost;
      rootBlocks *= meshSize.nx(axis) / blockNx[axis];
    }
    if (cells > MemoryBudget.MAX_ARENA_VALUES / 2) {
      throw pin.error(MESHBLOCK, "nx1", "a block of at most 2^30 cells with ghosts (" + cells
          + " given): use smaller blocks, " + MESHBLOCK + "/nx1, nx2, nx3");
    }
    double treeBytes = (double) MemoryBudget.TREE_BYTES_PER_BLOCK * rootBlocks;
    if (rootBlocks > Integer.MAX_VALUE / 2 || treeBytes > MemoryBudget.available()) {
      throw InputError.at(pin.deckName(), "the mesh of " + meshSize.nx(0) + "x" + meshSize.nx(1)
          + "x" + meshSize.nx(2) + " cells in blocks of " + blockNx[0] + "x" + blockNx[1] + "x"
          + blockNx[2] + " has " + rootBlocks + " MeshBlocks, whose tree alone needs "
          + MemoryBudget.format(treeBytes) + " but this JVM may use "
          + MemoryBudget.format(MemoryBudget.available()), "fewer, larger blocks ("
          + MESHBLOCK + "/nx1, nx2, nx3) or a larger -Xmx in METOPE_JAVA_OPTS");
    }
  }

  private List<StaticRefinementRegion> readStaticRegions(RegionSize meshSize,
      Refinement refinement, int numLevel, int rootLevel) {
    List<StaticRefinementRegion> regions = new ArrayList<>();
    int ndim = meshSize.ndim();
    for (String block : pin.blockNamesWithPrefix(STATIC_PREFIX)) {
      double[] lo = new double[3];
      double[] hi = new double[3];
      for (int axis = 0; axis < 3; axis++) {
        String n = Integer.toString(axis + 1);
        if (axis < ndim) {
          lo[axis] = pin.getReal(block, "x" + n + "min");
          hi[axis] = pin.getReal(block, "x" + n + "max");
          checkRegionAxis(block, n, lo[axis], hi[axis], meshSize, axis);
        } else {
          lo[axis] = meshSize.xmin(axis);
          hi[axis] = meshSize.xmax(axis);
        }
      }
      int level = pin.getInteger(block, "level");
      if (level < 1) {
        throw pin.error(block, "level", "an integer >= 1 (the root grid is level 0)");
      }
      if (refinement == Refinement.ADAPTIVE && level > numLevel - 1) {
        throw pin.error(block, "level", "at most " + (numLevel - 1) + ", since " + MESH
            + "/numlevel = " + numLevel);
      }
      if (rootLevel + level > LogicalLocation.MAX_LEVEL) {
        throw pin.error(block, "level", "at most " + (LogicalLocation.MAX_LEVEL - rootLevel));
      }
      checkRegionBlocks(block, meshSize, lo, hi, level);
      regions.add(new StaticRefinementRegion(block, lo[0], hi[0], lo[1], hi[1], lo[2], hi[2],
          level));
    }
    return regions;
  }

  private void checkRegionAxis(String block, String n, double lo, double hi, RegionSize mesh,
      int axis) {
    if (lo > hi) {
      throw pin.error(block, "x" + n + "max", "a value >= x" + n + "min = " + format(lo));
    }
    if (lo < mesh.xmin(axis)) {
      throw pin.error(block, "x" + n + "min", "a value inside the mesh, >= " + MESH + "/x" + n
          + "min = " + format(mesh.xmin(axis)));
    }
    if (hi > mesh.xmax(axis)) {
      throw pin.error(block, "x" + n + "max", "a value inside the mesh, <= " + MESH + "/x" + n
          + "max = " + format(mesh.xmax(axis)));
    }
  }

  /**
   * Refuses a static refinement region whose finest level alone would hold more blocks than the
   * tree can keep: at least (region width / block width at that level) blocks along each axis.
   */
  private void checkRegionBlocks(String block, RegionSize mesh, double[] lo, double[] hi,
      int level) {
    double blocks = 1;
    for (int axis = 0; axis < mesh.ndim(); axis++) {
      double rootBlocks = mesh.nx(axis) / (double) pin.getOrAddInteger(MESHBLOCK,
          "nx" + (axis + 1), mesh.nx(axis));
      double width = (mesh.xmax(axis) - mesh.xmin(axis)) / rootBlocks / Math.pow(2, level);
      blocks *= Math.max(1, Math.floor((hi[axis] - lo[axis]) / width));
    }
    double treeBytes = blocks * MemoryBudget.TREE_BYTES_PER_BLOCK;
    if (blocks > Integer.MAX_VALUE / 2 || treeBytes > MemoryBudget.available()) {
      throw pin.error(block, "level", "a level at which the region holds fewer blocks: it"
          + " would be refined into at least " + String.format(java.util.Locale.ROOT, "%.3g",
          blocks) + " MeshBlocks, whose tree alone needs " + MemoryBudget.format(treeBytes)
          + " but this JVM may use " + MemoryBudget.format(MemoryBudget.available()));
    }
  }

  /** A real as a user wrote it: integers without a fraction, others in full precision. */
  static String format(double value) {
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    return Double.toString(value);
  }
}
