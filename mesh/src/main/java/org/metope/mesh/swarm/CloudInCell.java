package org.metope.mesh.swarm;

import java.util.List;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.view.BlockView;
import org.metope.mesh.view.SwarmPack;
import org.metope.mesh.view.SwarmReal;

/**
 * Cloud-in-cell (linear) weighting between a swarm and a cell field: {@link #deposit} spreads
 * each particle's weight over the {@code 2^ndim} cells whose centres surround it, and {@link
 * #interpolate} gives each particle the field's linear interpolation from the same cells.
 * Parthenon's examples deposit nearest-grid-point only ({@link Deposition}); this is Metope's own.
 *
 * <p>A particle near its block's edge has part of its cloud in ghost cells. {@link #deposit} sends
 * that part, as a record {@code [gid, x1, x2, x3, mass, level]} with the ghost cell's centre
 * (wrapped through periodic faces; through an outflow face the mass leaves the mesh) and the
 * sender's level, to the block holding that centre, on this rank or another ({@link
 * RecordTransport}). Between blocks of one level the ghost cell is the receiver's cell holding
 * the centre. Across levels the mass moves as Parthenon moves a conserved quantity between
 * levels: a finer sender's ghost cell lies inside one coarse cell, which takes it whole (the
 * restriction of its density); a coarser sender's ghost cell covers {@code 2^ndim} finer cells
 * (block sizes are even), which share it equally (the piecewise-constant prolongation of its
 * density). Mass is conserved on every level. The order of additions is fixed (each block's
 * particles in slot order, then the records, sources in rank order), so the field has the same
 * bits on any number of ranks.
 *
 * <p>{@link #interpolate} reads ghost cells: fill them first (a boundary exchange). Linear fields
 * are interpolated exactly (to rounding), since the weights are those of linear interpolation
 * between cell centres.
 */
public final class CloudInCell {
  private static final int TAG = 0;
  /** gid, x1, x2, x3, mass, the sender's level. */
  private static final int RECORD = 6;

  private final Mesh mesh;
  private final RecordTransport transport;
  /** Clouds know periodic and outflow faces only (a user condition moves particles). */
  private final SwarmBoundaryFunctions builtInOnly = new SwarmBoundaryFunctions();
  private SwarmExchangePlan plan;
  private final int[] lower = new int[3];
  private final double[] fraction = new double[3];
  private final int[] cell = new int[3];
  private final double[] centre = new double[3];
  private final int[] interiorCells = new int[3];
  private List<MeshData> viewPartitions;
  private String viewSwarm;
  private String viewField;
  private SwarmPack[] packs;
  private SwarmReal[][] positions;
  private BlockView[] views;

  /**
   * The cloud-in-cell weighting of {@code mesh}'s swarms. Collective: every rank makes it in the
   * same order (it takes a duplicate of the mesh's communicator).
   *
   * @throws org.metope.mesh.field.SetupError for a mesh face condition particles do not know
   */
  public CloudInCell(Mesh mesh) {
    this.mesh = mesh;
    this.transport = new RecordTransport(mesh.communicator().duplicate(), TAG);
    currentPlan();
  }

  /**
   * Collective: sets component 0 of cell field {@code field}'s interior, on every block of this
   * rank, to the density of real swarm variable {@code weight} of {@code swarm} (partitions of
   * {@code container}): zero, then each particle's weight times its cloud weights over the cell
   * volume.
   *
   * @throws IllegalStateException for a particle outside its block (exchange the swarm first)
   */
  public void deposit(String container, String swarm, String weight, String field) {
    SwarmExchangePlan p = currentPlan();
    List<MeshData> partitions = mesh.meshData(container);
    depositViews(partitions, swarm, field);
    transport.clear();
    for (int q = 0; q < partitions.size(); q++) {
      MeshData md = partitions.get(q);
      SwarmPack pack = packs[q];
      for (int b = 0; b < md.numBlocks(); b++) {
        BlockView f = views[md.block(b).lid()];
        Deposition.zeroInterior(f, md.block(b).coords(), interior(md, b));
        depositBlock(p, md, b, pack, positions[q], pack.real(weight), f);
      }
    }
    transport.post();
    transport.waitAll();
    for (int k = 0; k < transport.sources(); k++) {
      addRecords(transport.source(k), transport.sourceLength(k));
    }
  }

  /**
   * The swarm packs (by partition) and field views (by local block) of a deposit, made again
   * only when the partitions (a remesh), the swarm or the field change, so that a deposit
   * allocates nothing.
   */
  private void depositViews(List<MeshData> partitions, String swarm, String field) {
    if (partitions == viewPartitions && swarm.equals(viewSwarm) && field.equals(viewField)) {
      return;
    }
    Deposition.requireBlockResolution(mesh.resolvedPackages(), field);
    packs = new SwarmPack[partitions.size()];
    positions = new SwarmReal[partitions.size()][];
    views = new BlockView[mesh.blocks().size()];
    for (int q = 0; q < partitions.size(); q++) {
      MeshData md = partitions.get(q);
      packs[q] = SwarmPack.of(md, swarm);
      positions[q] = new SwarmReal[] {packs[q].x(), packs[q].y(), packs[q].z()};
      for (int b = 0; b < md.numBlocks(); b++) {
        views[md.block(b).lid()] = BlockView.of(md, field, b);
      }
    }
    viewPartitions = partitions;
    viewSwarm = swarm;
    viewField = field;
  }

  private void depositBlock(SwarmExchangePlan p, MeshData md, int b, SwarmPack pack,
      SwarmReal[] x, SwarmReal w, BlockView f) {
    UniformCartesian coords = md.block(b).coords();
    int[] nx = interior(md, b);
    int lid = md.block(b).lid();
    double perVolume = 1.0 / coords.cellVolume();
    int corners = 1 << p.ndim;
    for (int n = 0; n <= pack.maxActiveIndex(b); n++) {
      if (!pack.isActive(b, n)) {
        continue;
      }
      cloud(coords, nx, x, b, n, md);
      for (int corner = 0; corner < corners; corner++) {
        double mass = w.get(b, n) * corner(corner);
        if (inside(coords, nx)) {
          f.set(0, cell[2], cell[1], cell[0], f.get(0, cell[2], cell[1], cell[0])
              + mass * perVolume);
        } else {
          spill(p, lid, coords, mass);
        }
      }
    }
  }

  /**
   * Sets real swarm variable {@code target} of {@code swarm} on every block
   * of {@code md} to the cloud-in-cell interpolation of component 0 of cell field {@code field},
   * ghost cells included (fill them first).
   *
   * @throws IllegalStateException for a particle outside its block
   */
  public void interpolate(MeshData md, String field, String swarm, String target) {
    Deposition.requireBlockResolution(md.state(), field);
    if (md.numBlocks() == 0) {
      return;
    }
    SwarmPack pack = SwarmPack.of(md, swarm);
    SwarmReal[] x = {pack.x(), pack.y(), pack.z()};
    SwarmReal out = pack.real(target);
    int corners = 1 << mesh.ndim();
    for (int b = 0; b < md.numBlocks(); b++) {
      BlockView f = BlockView.of(md, field, b);
      UniformCartesian coords = md.block(b).coords();
      int[] nx = interior(md, b);
      for (int n = 0; n <= pack.maxActiveIndex(b); n++) {
        if (!pack.isActive(b, n)) {
          continue;
        }
        cloud(coords, nx, x, b, n, md);
        double value = 0.0;
        for (int corner = 0; corner < corners; corner++) {
          double weight = corner(corner);
          value += weight * f.get(0, cell[2], cell[1], cell[0]);
        }
        out.set(b, n, value);
      }
    }
  }

  /** Block {@code b}'s interior cells per axis (in an array this object reuses). */
  private int[] interior(MeshData md, int b) {
    for (int axis = 0; axis < 3; axis++) {
      interiorCells[axis] = md.block(b).cellBounds().interiorNcells(axis);
    }
    return interiorCells;
  }

  /**
   * Sets {@link #lower} and {@link #fraction}: per active axis the cell whose centre is the
   * nearest at or below the particle (a ghost cell at the lower edge), and the particle's distance
   * beyond that centre in cell widths.
   */
  private void cloud(UniformCartesian coords, int[] nx, SwarmReal[] x, int b, int n,
      MeshData md) {
    for (int axis = 0; axis < 3; axis++) {
      int start = coords.startIndex(axis);
      if (axis >= mesh.ndim()) {
        lower[axis] = start;
        fraction[axis] = 0.0;
        continue;
      }
      double position = x[axis].get(b, n);
      double low = coords.xf(axis, start);
      double high = coords.xf(axis, start + nx[axis]);
      if (!(position >= low && position < high)) {
        throw new IllegalStateException("particle at x" + (axis + 1) + "=" + position
            + " is outside block gid=" + md.block(b).gid() + " [" + low + ", " + high
            + "): exchange the swarm before depositing or interpolating");
      }
      double s = (position - low) / coords.dx(axis) - 0.5;
      double floor = Math.floor(s);
      lower[axis] = start + (int) floor;
      fraction[axis] = s - floor;
    }
  }

  /** Sets {@link #cell} to corner {@code corner} of the cloud; returns its weight. */
  private double corner(int corner) {
    double weight = 1.0;
    for (int axis = 0; axis < 3; axis++) {
      int bit = axis < mesh.ndim() ? (corner >> axis) & 1 : 0;
      cell[axis] = lower[axis] + bit;
      if (axis < mesh.ndim()) {
        weight *= bit == 1 ? fraction[axis] : 1.0 - fraction[axis];
      }
    }
    return weight;
  }

  private boolean inside(UniformCartesian coords, int[] nx) {
    for (int axis = 0; axis < mesh.ndim(); axis++) {
      int start = coords.startIndex(axis);
      if (cell[axis] < start || cell[axis] >= start + nx[axis]) {
        return false;
      }
    }
    return true;
  }

  /** Sends {@code mass} of ghost cell {@link #cell} to the block holding its centre. */
  private void spill(SwarmExchangePlan p, int lid, UniformCartesian coords, double mass) {
    for (int axis = 0; axis < 3; axis++) {
      centre[axis] = axis < p.ndim ? coords.xc(axis, cell[axis]) : 0.0;
      if (axis < p.ndim && !p.wrap(centre, axis, axis)) {
        return;
      }
    }
    int gid;
    int rank;
    if (p.contains(p.bounds, lid, centre[0], centre[1], centre[2])) {
      gid = p.blocks.get(lid).gid();
      rank = mesh.myRank();
    } else {
      int nb = p.neighbourContaining(lid, centre[0], centre[1], centre[2]);
      if (nb < 0) {
        throw new IllegalStateException("ghost cell centre (" + centre[0] + ", " + centre[1]
            + ", " + centre[2] + ") of block gid=" + p.blocks.get(lid).gid()
            + " lies in no neighbour");
      }
      gid = p.nbGid[nb];
      rank = p.nbRank[nb];
    }
    int peer = transport.peerIndex(rank);
    int at = transport.reserve(peer, RECORD);
    double[] buffer = transport.buffer(peer);
    buffer[at] = gid;
    buffer[at + 1] = centre[0];
    buffer[at + 2] = centre[1];
    buffer[at + 3] = centre[2];
    buffer[at + 4] = mass;
    buffer[at + 5] = p.blocks.get(lid).loc().level();
  }

  /**
   * Adds each record's mass to its block: whole to the cell holding the centre when the sender
   * is at the same or a finer level, shared by the {@code 2^ndim} cells around the centre (a
   * coarse cell centre is a fine cell corner) when the sender is coarser.
   */
  private void addRecords(double[] records, int length) {
    for (int at = 0; at < length; at += RECORD) {
      MeshBlock block = mesh.block((int) records[at]);
      UniformCartesian coords = block.coords();
      boolean prolong = block.loc().level() > (int) records[at + 5];
      for (int axis = 0; axis < 3; axis++) {
        int start = coords.startIndex(axis);
        int nx = block.cellBounds().interiorNcells(axis);
        double s = (records[at + 1 + axis] - coords.xf(axis, start)) / coords.dx(axis);
        if (axis >= mesh.ndim()) {
          cell[axis] = start;
        } else if (prolong) {
          cell[axis] = start + (int) Math.round(s) - 1;
        } else {
          cell[axis] = start + Math.min(nx - 1, (int) Math.floor(s));
        }
      }
      int pieces = prolong ? 1 << mesh.ndim() : 1;
      double density = records[at + 4] / pieces / coords.cellVolume();
      BlockView f = views[block.lid()];
      for (int piece = 0; piece < pieces; piece++) {
        int i = cell[0] + (piece & 1);
        int j = cell[1] + ((piece >> 1) & 1);
        int k = cell[2] + ((piece >> 2) & 1);
        f.set(0, k, j, i, f.get(0, k, j, i) + density);
      }
    }
  }

  /** The plan of the current block list, rebuilt (with the transport's peers) when it changed. */
  private SwarmExchangePlan currentPlan() {
    plan = SwarmExchangePlan.current(plan, mesh, transport, builtInOnly);
    return plan;
  }
}
