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
 * mesh.
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
  private final double cost;
  private List<NeighborBlock> neighbors = List.of();

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
    this.coords = new UniformCartesian(region, nghost);
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

  @Override
  public String toString() {
    return "MeshBlock[gid=" + gid + " lid=" + lid + " loc=" + loc + "]";
  }
}
