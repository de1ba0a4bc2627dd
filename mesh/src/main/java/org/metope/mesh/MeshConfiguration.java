package org.metope.mesh;

import java.util.List;
import org.metope.mesh.field.SparseConfig;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.forest.RootGrid;
import org.metope.mesh.geometry.RegionSize;
import org.metope.mesh.input.ParameterInput;

/**
 * The validated shape of a mesh, as {@code <parthenon/mesh>}, {@code <parthenon/meshblock>} and
 * the static refinement sections of a deck describe it. Build it with {@link #fromInput}, which
 * rejects every invalid combination with one {@code InputError} line.
 *
 * @param meshSize the whole domain and its cell counts; axes with one cell are inactive
 * @param blockNx1 cells per block along x1
 * @param blockNx2 cells per block along x2 (1 when inactive)
 * @param blockNx3 cells per block along x3 (1 when inactive)
 * @param boundaryNames the six boundary condition names in {@link BoundaryFace} order
 * @param refinement none, static or adaptive
 * @param numLevel number of levels allowed with adaptive refinement (1 = root grid only)
 * @param nghost ghost cells on each side of an active axis
 * @param packSize blocks per pack ({@code pack_size}); below 1 means a rank's blocks shared by
 *     {@code packsPerRank} packs
 * @param staticRegions static refinement regions, in deck order (empty unless multilevel)
 * @param sparse the {@code <parthenon/sparse>} settings
 * @param multigrid {@code multigrid}: whether the geometric multigrid levels are built ({@link
 *     MultigridLevels})
 * @param packsPerRank how many packs share a rank's blocks when {@code packSize} is below 1: 1
 *     (Parthenon's one pack per rank) unless the run has several task threads ({@link
 *     #withPacksPerRank})
 */
public record MeshConfiguration(
    RegionSize meshSize,
    int blockNx1,
    int blockNx2,
    int blockNx3,
    List<String> boundaryNames,
    Refinement refinement,
    int numLevel,
    int nghost,
    int packSize,
    List<StaticRefinementRegion> staticRegions,
    SparseConfig sparse,
    boolean multigrid,
    int packsPerRank) {

  /** Boundary condition names every mesh accepts. */
  public static final List<String> BUILT_IN_BOUNDARY_NAMES =
      List.of("periodic", "outflow", "reflecting", "user");

  /** Copies the lists and checks their sizes. */
  public MeshConfiguration {
    boundaryNames = List.copyOf(boundaryNames);
    staticRegions = List.copyOf(staticRegions);
    if (boundaryNames.size() != 6) {
      throw new IllegalArgumentException("six boundary names needed: got=" + boundaryNames);
    }
    if (packsPerRank < 1) {
      throw new IllegalArgumentException("packsPerRank must be >= 1: packsPerRank="
          + packsPerRank);
    }
  }

  /**
   * This configuration with {@code packs} packs per rank where the deck leaves {@code pack_size}
   * below 1, so that several task threads have partitions to share.
   */
  public MeshConfiguration withPacksPerRank(int packs) {
    return new MeshConfiguration(meshSize, blockNx1, blockNx2, blockNx3, boundaryNames,
        refinement, numLevel, nghost, packSize, staticRegions, sparse, multigrid, packs);
  }

  /**
   * Blocks per pack on a rank of {@code blocks} blocks: {@code pack_size}, or when it is below 1
   * the rank's blocks over {@code packsPerRank} packs, rounded up (at least 1). A rank's packs are
   * consecutive groups of this many blocks, the last possibly smaller.
   */
  public int blocksPerPack(int blocks) {
    if (packSize >= 1) {
      return packSize;
    }
    return Math.max(1, (blocks + packsPerRank - 1) / packsPerRank);
  }

  /**
   * Reads and validates the mesh sections of a deck, accepting the built-in boundary names.
   *
   * @throws org.metope.mesh.input.InputError for any invalid value or combination
   */
  public static MeshConfiguration fromInput(ParameterInput pin) {
    return MeshConfigurationReader.read(pin, List.of());
  }

  /**
   * Reads and validates the mesh sections of a deck, also accepting the boundary condition names
   * an application registers.
   *
   * @throws org.metope.mesh.input.InputError for any invalid value or combination
   */
  public static MeshConfiguration fromInput(ParameterInput pin, List<String> userBoundaryNames) {
    return MeshConfigurationReader.read(pin, userBoundaryNames);
  }

  /** Number of active axes: 1, 2 or 3. */
  public int ndim() {
    return meshSize.ndim();
  }

  /** Cells per block along {@code axis}. */
  public int blockNx(int axis) {
    return axis == 0 ? blockNx1 : axis == 1 ? blockNx2 : blockNx3;
  }

  /** Root blocks along {@code axis}. */
  public int rootBlocks(int axis) {
    return meshSize.nx(axis) / blockNx(axis);
  }

  /** Whether the mesh may have more than one level (static or adaptive refinement). */
  public boolean isMultilevel() {
    return refinement != Refinement.NONE;
  }

  /** Whether refinement follows the solution. */
  public boolean isAdaptive() {
    return refinement == Refinement.ADAPTIVE;
  }

  /** The deck name of the condition at mesh face {@code face}. */
  public String boundaryName(BoundaryFace face) {
    return boundaryNames.get(face.ordinal());
  }

  /** The flag of mesh face {@code face}: periodic or a named (user) condition. */
  public BoundaryFlag boundaryFlag(BoundaryFace face) {
    return BoundaryFlag.ofName(boundaryName(face));
  }

  /** Whether {@code axis} is active and periodic. */
  public boolean isPeriodic(int axis) {
    return axis < ndim() && boundaryFlag(BoundaryFace.of(axis, false)) == BoundaryFlag.PERIODIC;
  }

  /** The root grid: root blocks per axis and periodicity. */
  public RootGrid rootGrid() {
    return new RootGrid(ndim(), rootBlocks(0), rootBlocks(1), rootBlocks(2), isPeriodic(0),
        isPeriodic(1), isPeriodic(2));
  }

  /**
   * Deepest tree level a block may reach: the root level without refinement, {@code numlevel - 1}
   * levels above it with adaptive refinement, and the tree's limit with static refinement (whose
   * regions set their own levels).
   */
  public int maxLevel() {
    int root = rootGrid().rootLevel();
    return switch (refinement) {
      case NONE -> root;
      case ADAPTIVE -> root + numLevel - 1;
      case STATIC -> LogicalLocation.MAX_LEVEL;
    };
  }

  /**
   * How many times the blocks of this mesh can be coarsened by two along every active axis
   * (Parthenon's rule for the multigrid levels below the root grid): the fewest trailing zero
   * bits of an active block width.
   */
  public int multigridCoarsenings() {
    int times = Integer.MAX_VALUE;
    for (int axis = 0; axis < ndim(); axis++) {
      times = Math.min(times, Integer.numberOfTrailingZeros(blockNx(axis)));
    }
    return times;
  }

  /**
   * The configuration of a refined mesh's multigrid levels: one pack per rank ({@code pack_size =
   * -1}), and, for the root grid and below ({@code unrefined}), no refinement.
   */
  public MeshConfiguration multigridLevel(boolean unrefined) {
    return new MeshConfiguration(meshSize, blockNx1, blockNx2, blockNx3, boundaryNames,
        unrefined ? Refinement.NONE : refinement, unrefined ? 1 : numLevel, nghost, -1,
        unrefined ? List.of() : staticRegions, sparse, multigrid, 1);
  }

  /**
   * The next multigrid level below this one: the same domain, root blocks and boundary names,
   * half the cells along every active axis in the mesh and in each block, and one ghost layer
   * (what the solvers' stencils and prolongation read; a block may have one cell).
   *
   * @throws IllegalStateException when a block width is odd or the mesh has refinement
   */
  public MeshConfiguration coarsened() {
    if (multigridCoarsenings() < 1 || refinement != Refinement.NONE) {
      throw new IllegalStateException("cannot coarsen: blockNx=" + blockNx1 + "x" + blockNx2
          + "x" + blockNx3 + " refinement=" + refinement);
    }
    double[] xmin = new double[3];
    double[] xmax = new double[3];
    int[] nx = new int[3];
    boolean[] symmetry = new boolean[3];
    int[] block = new int[3];
    for (int axis = 0; axis < 3; axis++) {
      xmin[axis] = meshSize.xmin(axis);
      xmax[axis] = meshSize.xmax(axis);
      symmetry[axis] = meshSize.isSymmetry(axis);
      int by = axis < ndim() ? 2 : 1;
      nx[axis] = meshSize.nx(axis) / by;
      block[axis] = blockNx(axis) / by;
    }
    return new MeshConfiguration(new RegionSize(xmin, xmax, nx, symmetry), block[0], block[1],
        block[2], boundaryNames, refinement, numLevel, 1, packSize, staticRegions, sparse,
        multigrid, packsPerRank);
  }
}
