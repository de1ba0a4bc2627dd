package org.metope.mesh;

import java.util.List;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.RegionSize;
import org.metope.mesh.geometry.UniformCartesian;

/**
 * One block of the mesh owned by this rank: where it is, its cells and coordinates, and its
 * neighbours (Parthenon's {@code MeshBlock}, without the field data, which lives in the rank's
 * block storage).
 *
 * <p>{@link #cellBounds()} indexes the block's cells, ghosts included; {@link #coarseCellBounds()}
 * the coarse buffer used to exchange with coarser neighbours (half the interior cells along each
 * active axis, at least one, with the same ghost width) and is only meaningful on a multilevel
 * mesh. {@link #fineCellBounds()} indexes a {@code FINE} field: twice the interior cells along each
 * active axis, the same ghost width (Parthenon's {@code f_cellbounds}); such a field's coarse
 * buffer is indexed by {@link #cellBounds()}.
 */
public final class MeshBlock {
  private final Mesh mesh;
  private final int gid;
  private final int lid;
  private final LogicalLocation loc;
  private final RegionSize region;
  private final BoundaryFlag[] boundaryFlags;
  private final UniformCartesian coords;
  private final IndexShape cellBounds;
  private final IndexShape coarseCellBounds;
  private final IndexShape fineCellBounds;
  private final double cost;
  /** {@link #fineCoords()}, made on first use (cache builds ask for it per boundary). */
  private UniformCartesian fineCoords;
  private List<NeighborBlock> neighbors = List.of();
  /** {@link #previousLocationLid()}. */
  private int previousLocationLid = -1;
  /** {@link #previousNeighbors()}: null where the neighbourhood stayed the same. */
  private List<NeighborBlock> previousNeighbors;

  MeshBlock(Mesh mesh, int gid, int lid, LogicalLocation loc, RegionSize region,
      BoundaryFlag[] boundaryFlags, double cost) {
    this.mesh = mesh;
    this.gid = gid;
    this.lid = lid;
    this.loc = loc;
    this.region = region;
    this.boundaryFlags = boundaryFlags.clone();
    this.cost = cost;
    int nghost = mesh.nghost();
    int[] nx = new int[3];
    int[] coarseNx = new int[3];
    for (int axis = 0; axis < 3; axis++) {
      boolean active = !region.isSymmetry(axis);
      nx[axis] = active ? region.nx(axis) : 0;
      coarseNx[axis] = active ? Math.max(1, region.nx(axis) / 2) : 0;
    }
    this.cellBounds = new IndexShape(nx[0], nx[1], nx[2], nghost);
    this.coarseCellBounds = mesh.isMultilevel()
        ? new IndexShape(coarseNx[0], coarseNx[1], coarseNx[2], nghost)
        : new IndexShape(nx[0] / 2, nx[1] / 2, nx[2] / 2, 0);
    this.fineCellBounds = cellBounds.refined();
    this.coords = new UniformCartesian(region, nghost);
  }

  /**
   * {@code kept}, a block of the mesh before a remesh at the same location, renumbered: its
   * geometry (immutable) is shared rather than made again; its neighbours are set apart.
   */
  MeshBlock(MeshBlock kept, int gid, int lid, double cost) {
    this.mesh = kept.mesh;
    this.gid = gid;
    this.lid = lid;
    this.loc = kept.loc;
    this.region = kept.region;
    this.boundaryFlags = kept.boundaryFlags;
    this.cost = cost;
    this.cellBounds = kept.cellBounds;
    this.coarseCellBounds = kept.coarseCellBounds;
    this.fineCellBounds = kept.fineCellBounds;
    this.coords = kept.coords;
    this.fineCoords = kept.fineCoords;
  }

  /** The mesh this block belongs to. */
  public Mesh mesh() {
    return mesh;
  }

  /** Global id: position along the Morton curve over all blocks. */
  public int gid() {
    return gid;
  }

  /** Local id: position among this rank's blocks. */
  public int lid() {
    return lid;
  }

  /** The rank that owns this block. */
  public int rank() {
    return mesh.rank(gid);
  }

  /** Logical location in the block tree. */
  public LogicalLocation loc() {
    return loc;
  }

  /** Refinement level counted from the root grid (0 for root blocks). */
  public int physicalLevel() {
    return loc.level() - mesh.rootLevel();
  }

  /** Physical bounds and interior cell counts. */
  public RegionSize region() {
    return region;
  }

  /** What lies beyond {@code face}: another block, a periodic wrap, or a physical boundary. */
  public BoundaryFlag boundaryFlag(BoundaryFace face) {
    return boundaryFlags[face.ordinal()];
  }

  /** Coordinates of the block's cells. */
  public UniformCartesian coords() {
    return coords;
  }

  /** Index space of the block's cells, ghosts included. */
  public IndexShape cellBounds() {
    return cellBounds;
  }

  /** Index space of the coarse buffer (multilevel meshes). */
  public IndexShape coarseCellBounds() {
    return coarseCellBounds;
  }

  /** Index space of a {@code FINE} field on this block, ghosts included. */
  public IndexShape fineCellBounds() {
    return fineCellBounds;
  }

  /**
   * Index space of a field's values ({@code coarse = false}) or of its coarse buffer: a {@code
   * FINE} field's are {@link #fineCellBounds()} and {@link #cellBounds()}, another field's {@link
   * #cellBounds()} and {@link #coarseCellBounds()} (Parthenon's choice in {@code par_for_bndry}).
   */
  public IndexShape bounds(boolean fine, boolean coarse) {
    if (fine) {
      return coarse ? cellBounds : fineCellBounds;
    }
    return coarse ? coarseCellBounds : cellBounds;
  }

  /**
   * Coordinates of a {@code FINE} field's cells: the block's region with twice the cells along
   * each active axis, the same ghost width.
   */
  public UniformCartesian fineCoords() {
    // Two threads may both make it; the copies are equal and immutable.
    UniformCartesian made = fineCoords;
    if (made == null) {
      made = refinedCoords();
      fineCoords = made;
    }
    return made;
  }

  private UniformCartesian refinedCoords() {
    int[] nx = new int[3];
    double[] xmin = new double[3];
    double[] xmax = new double[3];
    boolean[] symmetry = new boolean[3];
    for (int axis = 0; axis < 3; axis++) {
      symmetry[axis] = region.isSymmetry(axis);
      nx[axis] = symmetry[axis] ? region.nx(axis) : 2 * region.nx(axis);
      xmin[axis] = region.xmin(axis);
      xmax[axis] = region.xmax(axis);
    }
    return new UniformCartesian(new RegionSize(xmin, xmax, nx, symmetry), mesh.nghost());
  }

  /** Load-balancing cost. */
  public double cost() {
    return cost;
  }

  /** Every neighbour, in the forest's order (see {@link Mesh#neighbors(int)}). */
  public List<NeighborBlock> neighbors() {
    return neighbors;
  }

  void setNeighbors(List<NeighborBlock> neighbors) {
    this.neighbors = List.copyOf(neighbors);
  }

  /**
   * This rank's lid of the block that had this block's location and neighbours (the same
   * locations in the same order) in the block list before this one ({@link
   * Mesh#blockGeneration()} one less), or -1: a new block, one from another rank, or one whose
   * neighbourhood changed. Plans for such a block differ from its old ones in arena places only.
   */
  public int previousLid() {
    return previousNeighbors == null ? previousLocationLid : -1;
  }

  /**
   * For a block at a location this rank held in the block list before, whose neighbourhood
   * changed ({@link #previousLid()} -1): the old block's neighbours (with the old gids), else
   * null. Plans take the rows of the neighbours still there from the old block's rows.
   */
  public List<NeighborBlock> previousNeighbors() {
    return previousNeighbors;
  }

  /**
   * This rank's lid of the block at this block's location in the block list before this one,
   * whether or not its neighbourhood changed, or -1 (a new block, or one from another rank).
   */
  public int previousLocationLid() {
    return previousLocationLid;
  }

  /**
   * The block at this location in the block list before was this rank's block {@code lid}, with
   * {@code neighbors} (old gids) where its neighbourhood changed, or null where it did not.
   */
  void setPrevious(int lid, List<NeighborBlock> neighbors) {
    this.previousLocationLid = lid;
    this.previousNeighbors = neighbors;
  }

  @Override
  public String toString() {
    return "MeshBlock[gid=" + gid + " lid=" + lid + " loc=" + loc + "]";
  }
}
