package org.metope.mesh;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.metope.comm.Communicator;
import org.metope.mesh.field.BlockShape;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.ResolvedState;
import org.metope.mesh.field.SwarmStorage;
import org.metope.mesh.forest.Forest;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.forest.NeighborLocation;
import org.metope.mesh.forest.RootGrid;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.RegionSize;

/**
 * The mesh (Parthenon's {@code Mesh}): the block forest, every block's location, global id, owning
 * rank and cost, and the {@link MeshBlock}s of this rank with their neighbours.
 *
 * <p>Every rank builds the same structure from the same configuration: global ids follow the
 * Morton curve ({@link Forest#resolveGids()}), ranks own contiguous gid ranges ({@link
 * LoadBalance}), and this rank's blocks are those of its range, in gid order (local id = gid -
 * first gid of the rank).
 */
public final class Mesh {
  private final MeshConfiguration config;
  private final Forest forest;
  private final BlockGeometry geometry;
  /** {@link #rootLevel()}, fixed with the root grid; read per block and cycle by the tagging. */
  private final int rootLevel;
  private final int myRank;
  private List<LogicalLocation> locations;
  private double[] costs;
  private BlockDistribution distribution;
  private List<MeshBlock> blocks;
  /** {@link #blockGeneration()}. */
  private int blockGeneration;
  private Communicator communicator;
  private Packages packages;
  private ResolvedState resolved;
  private List<String> containers = List.of();
  private FieldStorage fields;
  private SwarmStorage swarms;
  private final Map<String, List<MeshData>> partitions = new HashMap<>();
  private MeshRefinement refinement;

  private Mesh(MeshConfiguration config, Forest forest, int nranks, int myRank) {
    this.config = config;
    this.forest = forest;
    this.geometry = new BlockGeometry(config);
    this.rootLevel = forest.grid().rootLevel();
    this.myRank = myRank;
    this.locations = forest.resolveGids();
    this.costs = new double[locations.size()];
    Arrays.fill(costs, 1.0);
    this.distribution = LoadBalance.distribute(costs, nranks);
    buildBlockList();
  }

  /**
   * Builds the initial mesh: the root grid refined by the static refinement regions, distributed
   * over {@code nranks} ranks with cost 1 per block.
   *
   * @param config the validated mesh configuration
   * @param nranks number of ranks
   * @param myRank this rank, in {@code [0, nranks)}
   */
  public static Mesh build(MeshConfiguration config, int nranks, int myRank) {
    if (nranks < 1 || myRank < 0 || myRank >= nranks) {
      throw new IllegalArgumentException("need 0 <= myRank < nranks: myRank=" + myRank
          + " nranks=" + nranks);
    }
    RootGrid grid = config.rootGrid();
    MemoryBudget.requireRootGrid((long) grid.nrbx1() * grid.nrbx2() * grid.nrbx3(), nranks);
    Forest forest = new Forest(grid, config.maxLevel());
    if (config.isMultilevel()) {
      StaticRefinement.apply(forest, config);
    }
    return new Mesh(config, forest, nranks, myRank);
  }

  /**
   * Builds a mesh whose blocks are exactly {@code leaves} (a 2:1-balanced set of locations, as a
   * remeshed mesh has), distributed over {@code nranks} ranks with cost 1 per block: for describing
   * the mesh that start-up refinement produced ({@code -m}).
   */
  public static Mesh build(MeshConfiguration config, List<LogicalLocation> leaves, int nranks,
      int myRank) {
    if (nranks < 1 || myRank < 0 || myRank >= nranks) {
      throw new IllegalArgumentException("need 0 <= myRank < nranks: myRank=" + myRank
          + " nranks=" + nranks);
    }
    Forest forest = new Forest(config.rootGrid(), config.maxLevel());
    for (LogicalLocation leaf : leaves) {
      forest.addMeshBlock(leaf);
    }
    if (forest.leafCount() != leaves.size()) {
      throw new IllegalArgumentException("leaves are not a 2:1-balanced block set: leaves="
          + leaves.size() + " forest=" + forest.leafCount());
    }
    return new Mesh(config, forest, nranks, myRank);
  }

  /**
   * Builds the initial mesh distributed over the ranks of {@code communicator}, which the mesh
   * keeps for everything that talks to other ranks.
   */
  public static Mesh build(MeshConfiguration config, Communicator communicator) {
    Mesh mesh = build(config, communicator.size(), communicator.rank());
    mesh.communicator = communicator;
    return mesh;
  }

  /**
   * Builds the mesh whose blocks are exactly {@code leaves} (e.g. the tree of a restart file),
   * distributed over the ranks of {@code communicator} with cost 1 per block.
   *
   * @throws IllegalArgumentException when {@code leaves} is not a 2:1-balanced tree of {@code
   *     config}'s root grid and levels
   */
  public static Mesh build(MeshConfiguration config, Communicator communicator,
      List<LogicalLocation> leaves) {
    Forest forest = new Forest(config.rootGrid(), config.maxLevel());
    int root = config.rootGrid().rootLevel();
    for (LogicalLocation leaf : leaves) {
      for (int level = root; level < leaf.level(); level++) {
        LogicalLocation ancestor = leaf.ancestor(leaf.level() - level);
        if (forest.isLeaf(ancestor)) {
          forest.refine(ancestor);
        }
      }
    }
    List<LogicalLocation> built = forest.resolveGids();
    if (!new HashSet<>(built).equals(new HashSet<>(leaves))) {
      throw new IllegalArgumentException("leaves=" + leaves.size() + " do not form a balanced"
          + " tree of the root grid (refining their ancestors gives " + built.size() + ")");
    }
    Mesh mesh = new Mesh(config, forest, communicator.size(), communicator.rank());
    mesh.communicator = communicator;
    return mesh;
  }

  /**
   * Resolves the packages, and their flux functions in the result ({@link
   * Packages#resolveFluxFunctions}), and allocates the field storage of this rank's blocks for the
   * given stage containers (base container first). Dense fields start at zero, sparse fields
   * unallocated.
   *
   * @throws org.metope.mesh.field.SetupError from a flux function that cannot find its fields
   */
  public void initializeFields(Packages packages, List<String> containerNames) {
    ResolvedState state = packages.resolve();
    packages.resolveFluxFunctions(state);
    this.packages = packages;
    this.resolved = state;
    this.containers = List.copyOf(containerNames);
    rebuildStorage(null);
    swarms = new SwarmStorage(packages.swarmLayouts(), blocks.size());
  }

  /**
   * Allocates storage for the current block list, at start and after a remesh (reusing the old
   * arena array {@code recycled} where it fits; null at start).
   */
  private void rebuildStorage(AtomicReference<double[]> recycled) {
    BlockShape cells = extents(cellShape());
    BlockShape fine = extents(cellShape().refined());
    BlockShape coarse = null;
    if (isMultilevel()) {
      IndexShape ccb = blocks.isEmpty() ? cellShape() : blocks.get(0).coarseCellBounds();
      coarse = extents(ccb);
    }
    long values = FieldStorage.denseValues(resolved, cells, coarse, fine, blocks.size(),
        containers.size());
    MemoryBudget.requireArena(values, blocks.size(), locations.size(),
        cells.ni() + "x" + cells.nj() + "x" + cells.nk());
    fields = recycled == null ? new FieldStorage(resolved, cells, coarse, fine, blocks, containers)
        : new FieldStorage(resolved, cells, coarse, fine, blocks, containers, recycled);
    if (!config.sparse().enabled()) {
      allocateEverySparseField();
    }
    partitions.clear();
  }

  /** With {@code enable_sparse = false} sparse fields are dense: allocated on every block. */
  private void allocateEverySparseField() {
    for (FieldInfo field : resolved.fields()) {
      if (field.isSparse()) {
        for (int block = 0; block < fields.numBlocks(); block++) {
          fields.allocateSparse(field.id(), block);
        }
      }
    }
  }

  private IndexShape cellShape() {
    return new IndexShape(config.blockNx1(), ndim() > 1 ? config.blockNx2() : 0,
        ndim() > 2 ? config.blockNx3() : 0, nghost());
  }

  private static BlockShape extents(IndexShape shape) {
    return new BlockShape(shape.entireNcells(0), shape.entireNcells(1), shape.entireNcells(2));
  }

  /**
   * Replaces the block list by the forest's current leaves after a remesh: new locations by gid
   * (from {@link Forest#resolveGids()}) with their costs, a new distribution over the ranks, this
   * rank's new blocks with their neighbours, and fresh storage (dense fields zero, sparse fields
   * unallocated, swarms empty); the partitions are rebuilt on next use. The old storage is dropped
   * first, so that it can be freed before the new one is allocated: read what is needed from it
   * (fields and particles) before.
   */
  public void replaceBlocks(List<LogicalLocation> newLocations, double[] newCosts) {
    replaceBlocks(newLocations, newCosts,
        LoadBalance.distribute(newCosts, distribution.nranks()));
  }

  /**
   * {@link #replaceBlocks(List, double[])} with the new distribution already made (a remesh
   * plan's), so that a remesh balances the costs once: it must be {@link LoadBalance#distribute}
   * of {@code newCosts} over this mesh's ranks, as every rank makes it.
   */
  public void replaceBlocks(List<LogicalLocation> newLocations, double[] newCosts,
      BlockDistribution newDistribution) {
    requireFields();
    if (newLocations.size() != newCosts.length
        || newDistribution.totalBlocks() != newCosts.length
        || newDistribution.nranks() != distribution.nranks()) {
      throw new IllegalArgumentException("one cost and one rank per block: locations="
          + newLocations.size() + " costs=" + newCosts.length + " distributed="
          + newDistribution.totalBlocks() + " over ranks=" + newDistribution.nranks() + " of "
          + distribution.nranks());
    }
    AtomicReference<double[]> recycled = new AtomicReference<>(fields.data());
    fields = null;
    partitions.clear();
    locations = List.copyOf(newLocations);
    costs = newCosts.clone();
    distribution = newDistribution;
    buildBlockList();
    rebuildStorage(recycled);
    swarms = new SwarmStorage(packages.swarmLayouts(), blocks.size());
  }

  /** Attaches the adaptive refinement that tags and remeshes this mesh (adaptive meshes only). */
  public void setRefinement(MeshRefinement refinement) {
    if (!isAdaptive()) {
      throw new IllegalStateException("adaptive refinement on a mesh with refinement="
          + config.refinement().deckName());
    }
    this.refinement = refinement;
  }

  /** The adaptive refinement of this mesh, or null when there is none. */
  public MeshRefinement refinement() {
    return refinement;
  }

  /** The communicator of this run; null for a mesh built only to be described ({@code -m}). */
  public Communicator communicator() {
    return communicator;
  }

  /** The packages given to {@link #initializeFields}. */
  public Packages packages() {
    return requireFields().packages;
  }

  /** The parameters of the package labelled {@code label}, seen from partition {@code md}. */
  public static Params params(MeshData md, String label) {
    return md.block(0).mesh().packages().get(label).params();
  }

  /** The resolved fields of every package, in id order. */
  public ResolvedState resolvedPackages() {
    return requireFields().resolved;
  }

  /** This rank's swarms, one set per block (empty when no package declares a swarm). */
  public SwarmStorage swarms() {
    return requireFields().swarms;
  }

  /** This rank's field storage. */
  public FieldStorage fields() {
    return requireFields().fields;
  }

  /**
   * The partitions of {@code container} (Parthenon's {@code mesh_data.GetOrAdd(stage, i)}), in
   * groups of {@link #defaultPackSize()} blocks, built once and reused until the next remesh.
   *
   * @throws DriverError for a container the fields were not allocated for (one sentence)
   */
  public List<MeshData> meshData(String container) {
    requireFields();
    List<MeshData> parts = partitions.get(container);
    if (parts == null) {
      if (!containers.contains(container)) {
        throw new DriverError("container '" + container + "' was asked for but the fields were "
            + "allocated for " + containers + " only (an application lists every container it "
            + "uses in containerNames)");
      }
      parts = List.copyOf(fields.partitions(container, defaultPackSize()));
      partitions.put(container, parts);
    }
    return parts;
  }

  private Mesh requireFields() {
    if (fields == null) {
      throw new IllegalStateException("fields are not initialised: call initializeFields first");
    }
    return this;
  }

  /** This rank's blocks of the current distribution ({@link BlockList}). */
  private void buildBlockList() {
    blocks = BlockList.build(this, geometry, blocks == null ? List.of() : blocks);
    blockGeneration++;
  }

  /**
   * How many times this rank's block list was made: once at start, once per {@link
   * #replaceBlocks}. {@link MeshBlock#previousLid()} names a block of the generation before.
   */
  public int blockGeneration() {
    return blockGeneration;
  }

  /** The configuration the mesh was built from. */
  public MeshConfiguration config() {
    return config;
  }

  /** Number of active axes. */
  public int ndim() {
    return config.ndim();
  }

  /** Ghost cells on each side of an active axis. */
  public int nghost() {
    return config.nghost();
  }

  /** Whether the mesh may have several levels. */
  public boolean isMultilevel() {
    return config.isMultilevel();
  }

  /** Whether refinement follows the solution. */
  public boolean isAdaptive() {
    return config.isAdaptive();
  }

  /** The root grid. */
  public RootGrid rootGrid() {
    return forest.grid();
  }

  /** The block forest (shared; changes must be followed by a rebuild of the block list). */
  public Forest forest() {
    return forest;
  }

  /** Number of trees Parthenon splits the root grid into (one per root block in 1D and 2D). */
  public int treeCount() {
    return geometry.treeCount();
  }

  /**
   * The level Parthenon reports for {@code loc} (its "logical level", counted inside its trees):
   * the physical level plus the level of the root blocks inside a tree.
   */
  public int logicalLevel(LogicalLocation loc) {
    return geometry.logicalLevel(loc);
  }

  /** Tree level of the root blocks. */
  public int rootLevel() {
    return rootLevel;
  }

  /** Deepest tree level a block may reach. */
  public int maxLevel() {
    return forest.maxLevel();
  }

  /** Deepest tree level of any block now. */
  public int currentLevel() {
    int deepest = rootLevel();
    for (LogicalLocation loc : locations) {
      deepest = Math.max(deepest, loc.level());
    }
    return deepest;
  }

  /** The physical extent of the whole mesh. */
  public RegionSize meshSize() {
    return config.meshSize();
  }

  /** Number of blocks on all ranks. */
  public int totalBlocks() {
    return locations.size();
  }

  /** Location of block {@code gid}. */
  public LogicalLocation location(int gid) {
    return locations.get(gid);
  }

  /** Locations of all blocks, by gid. */
  public List<LogicalLocation> locations() {
    return locations;
  }

  /** The rank owning block {@code gid}. */
  public int rank(int gid) {
    return distribution.rank(gid);
  }

  /** The load-balancing cost of block {@code gid}. */
  public double cost(int gid) {
    return costs[gid];
  }

  /** Which rank owns which gids. */
  public BlockDistribution distribution() {
    return distribution;
  }

  /** Number of ranks. */
  public int nranks() {
    return distribution.nranks();
  }

  /** This rank. */
  public int myRank() {
    return myRank;
  }

  /** This rank's blocks in gid order; index = local id. */
  public List<MeshBlock> blocks() {
    return blocks;
  }

  /** The block of this rank with global id {@code gid}. */
  public MeshBlock block(int gid) {
    int lid = gid - distribution.firstGid(myRank);
    if (lid < 0 || lid >= blocks.size()) {
      throw new IllegalArgumentException("block not on this rank: gid=" + gid + " rank=" + myRank);
    }
    return blocks.get(lid);
  }

  /**
   * Blocks per pack: {@code pack_size}, or when it is below 1 this rank's blocks shared by the
   * configuration's packs per rank ({@link MeshConfiguration#blocksPerPack}).
   */
  public int defaultPackSize() {
    return config.blocksPerPack(blocks.size());
  }

  /** Physical bounds and cell counts of the block at {@code loc}. */
  public RegionSize blockRegion(LogicalLocation loc) {
    return geometry.region(loc);
  }

  /**
   * Every neighbour of block {@code gid} (on any rank), in the forest's order: one entry per
   * shared element and neighbouring block, including the block itself across periodic
   * boundaries.
   */
  public List<NeighborBlock> neighbors(int gid) {
    LogicalLocation loc = locations.get(gid);
    List<NeighborLocation> found = forest.findNeighbors(loc);
    List<NeighborBlock> out = new ArrayList<>(found.size());
    for (NeighborLocation n : found) {
      int ngid = forest.gid(n.location());
      out.add(new NeighborBlock(ngid, distribution.rank(ngid), n.location(), n.originLocation(),
          n.element(), n.fi1(), n.fi2(), n.levelDifference(loc)));
    }
    return out;
  }
}
