package org.metope.bvals;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.metope.bvals.channel.BoundaryType;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.NeighborBlock;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MetadataFlag;

/**
 * The ghost-exchange plans ({@link BoundaryType#ANY}) and flux-correction plans ({@link
 * BoundaryType#FLXCOR_SEND}, {@link BoundaryType#FLXCOR_RECV}) of a rank's partitions, both
 * directions, as they were when boundary communication was released for a remesh, so that the
 * plans after it take the rows of blocks that kept their location and neighbours ({@link
 * MeshBlock#previousLid()}) instead of working them out again: such a block's rows differ only
 * in where its data and its channels' buffers now lie. A block's rows are its boundaries (every
 * field, every neighbour the type covers, in cache order) and their refinement rows; Parthenon
 * builds every plan afresh.
 *
 * <p>Only for a type whose fields are all dense cell fields: a sparse field's offsets follow its
 * allocations, and face, edge and node fields' ownership masks depend on which blocks were just
 * refined. Only the plans that were built, not carried over to other containers ({@link
 * ContainerPlans}), since only those are built again; flux-correction plans are one per
 * partition for every container (fluxes are shared), found whichever container asks. Holds the
 * old tables, never the old channels or field data; the next {@link BoundaryCaches#release}
 * replaces it.
 */
final class PreviousPlans {
  /**
   * What one partition's plan of one direction held: its tables and per-boundary arrays (not its
   * channels, whose buffers go with the old arena).
   */
  private record Plan(int firstBlock, int numBlocks, BoundaryTable table, BoundaryTable prores,
      int[] block, int[] field, int[] proresOwner) {
    int size() {
      return table.size;
    }
  }

  private final Mesh mesh;
  private final int myRank;
  private final int generation;
  private final List<FieldInfo> ghostFields;
  private final List<FieldInfo> fluxFields;
  private final ArenaLayout layout;
  private final int containers;
  /** The partitions' plans by {@link #slot}. */
  private final List<List<Plan>> plans = new ArrayList<>();

  private PreviousPlans(Mesh mesh, List<FieldInfo> ghostFields, List<FieldInfo> fluxFields,
      ArenaLayout layout) {
    this.mesh = mesh;
    this.myRank = mesh.myRank();
    this.generation = mesh.blockGeneration();
    this.ghostFields = ghostFields;
    this.fluxFields = fluxFields;
    this.layout = layout;
    this.containers = mesh.fields().containers().size();
    for (int i = 0; i < BoundaryType.values().length * containers * 2; i++) {
      plans.add(new ArrayList<>());
    }
  }

  /**
   * Where the plans of {@code type}, {@code md}'s container and direction are kept: flux
   * corrections under container 0, since one plan serves every container.
   */
  private int slot(BoundaryType type, MeshData md, boolean sender) {
    int container = type.isFluxCorrection() ? 0 : md.container();
    return (type.ordinal() * containers + container) * 2 + (sender ? 1 : 0);
  }

  /**
   * The current ghost-exchange and flux-correction plans of {@code caches} (partitions of {@code
   * mesh}'s current blocks) that were built, not carried over ({@link ContainerPlans}), or null
   * when none can serve: no plan, or no type whose fields are all dense cell fields.
   */
  static PreviousPlans of(Mesh mesh, List<FieldInfo> ghostFields, List<FieldInfo> fluxFields,
      Map<MeshData, BvarsCache> caches, long arenaLayoutVersion) {
    List<BoundaryType> types = new ArrayList<>();
    if (denseCells(ghostFields)) {
      types.add(BoundaryType.ANY);
    }
    if (!fluxFields.isEmpty() && denseCells(fluxFields)) {
      types.add(BoundaryType.FLXCOR_SEND);
      types.add(BoundaryType.FLXCOR_RECV);
    }
    PreviousPlans kept = null;
    for (Map.Entry<MeshData, BvarsCache> e : caches.entrySet()) {
      MeshData md = e.getKey();
      if (md.storage() != mesh.fields() || e.getValue().owner != md) {
        continue;
      }
      for (BoundaryType type : types) {
        for (boolean sender : new boolean[] {false, true}) {
          BvarsSubCache sub = e.getValue().get(type, sender);
          if (sub == null || sub.allocationVersion != md.allocationVersion()
              || sub.arenaLayoutVersion != arenaLayoutVersion) {
            continue;
          }
          if (kept == null) {
            kept = new PreviousPlans(mesh, ghostFields, fluxFields, md.layout());
          }
          kept.plans.get(kept.slot(type, md, sender)).add(new Plan(md.blockIndex(0),
              md.numBlocks(), sub.table, sub.prores, sub.block, sub.field, sub.proresOwner));
        }
      }
    }
    return kept;
  }

  /** Whether every field of {@code fields} is a dense cell field. */
  private static boolean denseCells(List<FieldInfo> fields) {
    for (FieldInfo f : fields) {
      if (f.isSparse() || !f.metadata().isSet(MetadataFlag.CELL)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The old rows for the build of {@code md}'s plan of {@code type} and direction, or null when
   * these plans cannot serve it: not made on the block list just before {@code md}'s, made for
   * other fields than {@code type}'s now ({@code fields}), or none of that kind.
   */
  Rows rowsFor(MeshData md, BoundaryType type, boolean sender, List<FieldInfo> fields) {
    int slot = slot(type, md, sender);
    List<Plan> list = slot < plans.size() ? plans.get(slot) : List.of();
    boolean serves = !list.isEmpty() && md.numBlocks() > 0 && md.block(0).mesh() == mesh
        && mesh.blockGeneration() == generation + 1
        && fields.equals(type.isFluxCorrection() ? fluxFields : ghostFields);
    return serves ? new Rows(type, sender, fields, list) : null;
  }

  /** The old plans one build takes rows from: of one type, direction and container. */
  final class Rows {
    private final BoundaryType type;
    private final boolean sender;
    private final List<FieldInfo> fields;
    private final List<Plan> plans;

    private Rows(BoundaryType type, boolean sender, List<FieldInfo> fields, List<Plan> plans) {
      this.type = type;
      this.sender = sender;
      this.fields = fields;
      this.plans = plans;
    }

    /**
     * Adds partition block {@code b}'s boundaries to {@code s}, from the old plan where it has
     * them and through {@code fresh} where it has not (the boundaries with neighbours new to a
     * block whose neighbourhood changed), or does nothing and returns -1 when the old plan has
     * none of them; else returns the index after them. {@code index} is the first boundary's;
     * the rows taken are added to {@code s.relocated}.
     */
    int copyBlock(MeshData md, int b, CacheBuildScratch s, int index,
        InOneBoundaryCommunication comm, BoundaryCacheBuilder.BoundaryVisitor fresh) {
      MeshBlock block = md.block(b);
      boolean kept = block.previousLid() >= 0;
      int oldLid = kept ? block.previousLid() : block.previousLocationLid();
      Plan plan = oldLid < 0 ? null : planOf(plans, oldLid);
      if (plan == null) {
        return -1;
      }
      int neighbours = coveredNeighbours(block.neighbors(), type, s.covered);
      if (neighbours == 0) {
        return index; // no boundary of this type, as a build finds too
      }
      if (kept) {
        return copyRows(md, b, plan, neighbours, s, index, comm);
      }
      List<NeighborBlock> before = block.previousNeighbors();
      int oldNeighbours = coveredNeighbours(before, type, s.oldCovered);
      int first = oldNeighbours == 0 ? -1 : firstRow(plan, oldLid, oldNeighbours);
      // A receiving block's rows restrict into its coarse buffer when it has a coarser
      // neighbour: those rows hold only while that stays so.
      if (first < 0 || hasCoarser(before) != hasCoarser(block.neighbors())) {
        return -1;
      }
      return copyMatching(md, b, plan, first, oldNeighbours, s, index, comm, fresh);
    }

    /**
     * The first of old block {@code oldLid}'s rows in {@code plan}, checked to be {@code fields}
     * times {@code neighbours} rows of that block in field order, or -1.
     */
    private int firstRow(Plan plan, int oldLid, int neighbours) {
      int count = fields.size() * neighbours;
      int first = firstAtLeast(plan.block, 0, plan.size(), oldLid - plan.firstBlock());
      if (first + count > plan.size()
          || plan.block[first + count - 1] != oldLid - plan.firstBlock()
          || first + count < plan.size() && plan.block[first + count] == plan.block[first]) {
        return -1;
      }
      for (int k = 0; k < count; k++) {
        if (plan.field[first + k] != fields.get(k / neighbours).id()) {
          return -1;
        }
      }
      return first;
    }

    /**
     * {@link #copyBlock} for a block that kept its neighbours, {@code neighbours} of them
     * covered, whose old block was in {@code plan}: its rows in one copy.
     */
    private int copyRows(MeshData md, int b, Plan plan, int neighbours, CacheBuildScratch s,
        int index, InOneBoundaryCommunication comm) {
      MeshBlock block = md.block(b);
      int oldLid = block.previousLid();
      int count = fields.size() * neighbours;
      int first = firstRow(plan, oldLid, neighbours);
      if (first < 0) {
        return -1;
      }
      int row = s.table.addCopies(plan.table, first, count);
      for (int k = 0; k < count; k++) {
        moveRow(md, b, k / neighbours, s.covered.getInt(k % neighbours), plan, first + k,
            row + k, oldLid, s, comm);
      }
      // The block's refinement rows follow each other too, in the order of their boundaries.
      takeProres(md, b, plan, first, first + count, index - first, oldLid, s);
      s.relocated += count;
      return index + count;
    }

    /**
     * {@link #copyBlock} for a block whose neighbourhood changed, its old block's rows from
     * {@code first} on in {@code plan}: a boundary with a neighbour the old block had at the same
     * place and level takes that boundary's row, the others are built.
     */
    private int copyMatching(MeshData md, int b, Plan plan, int first, int oldNeighbours,
        CacheBuildScratch s, int index, InOneBoundaryCommunication comm,
        BoundaryCacheBuilder.BoundaryVisitor fresh) {
      int at = index;
      for (int f = 0; f < fields.size(); f++) {
        for (int j = 0; j < s.covered.size(); j++) {
          matchBoundary(md, b, f, s.covered.getInt(j), plan, first + f * oldNeighbours, s, at++,
              comm, fresh);
        }
      }
      return at;
    }

    /**
     * Boundary {@code index} of {@link #copyMatching}, of field {@code f} with neighbour {@code
     * n}: taken from the old block's rows of that field (from {@code fieldFirst} on) where they
     * have it, else built. A method per boundary, so that the JIT compiles it within the first
     * remeshes (a few blocks per remesh have their neighbourhood changed).
     */
    private void matchBoundary(MeshData md, int b, int f, int n, Plan plan, int fieldFirst,
        CacheBuildScratch s, int index, InOneBoundaryCommunication comm,
        BoundaryCacheBuilder.BoundaryVisitor fresh) {
      MeshBlock block = md.block(b);
      int m = sameContact(block.previousNeighbors(), s.oldCovered, block.neighbors().get(n));
      if (m >= 0) {
        int i = fieldFirst + m;
        int oldLid = block.previousLocationLid();
        moveRow(md, b, f, n, plan, i, s.table.addCopies(plan.table, i, 1), oldLid, s, comm);
        takeProres(md, b, plan, i, i + 1, index - i, oldLid, s);
        s.relocated++;
        return;
      }
      s.block = b;
      s.meshBlock = block;
      s.field = fields.get(f);
      s.fieldIndex = f;
      s.neighborIndex = n;
      s.nb = block.neighbors().get(n);
      fresh.visit(index, s);
    }

    /**
     * Row {@code i} of {@code plan}, copied to row {@code row} of {@code s.table}: the boundary of
     * field {@code f} with neighbour {@code n} of partition block {@code b}, given its channel,
     * its per-boundary entries and its offsets in the new arena and buffers.
     */
    private void moveRow(MeshData md, int b, int f, int n, Plan plan, int i, int row,
        int oldLid, CacheBuildScratch s, InOneBoundaryCommunication comm) {
      MeshBlock block = md.block(b);
      var buffer = type.isFluxCorrection()
          ? BoundaryCacheBuilder.fluxChannel(comm, block, block.neighbors().get(n),
              fields.get(f).id(), sender)
          : comm.valueChannels().channel(block, f, n, sender);
      s.buffers.add(buffer);
      s.blocks.add(b);
      s.fields.add(fields.get(f).id());
      s.allocated.add(1);
      ArenaLayout now = md.layout();
      int newBlock = md.blockIndex(b);
      int var = move(plan.table, i, BoundaryTable.VAR_OFFSET, oldLid, now, newBlock, s);
      int fine = move(plan.table, i, BoundaryTable.FINE_OFFSET, oldLid, now, newBlock, s);
      s.table.moveCopy(row, var, fine, buffer.isAllocated() ? buffer.buffer().offset() : 0);
    }

    /**
     * The refinement rows of {@code plan} of old boundaries {@code first} to {@code end - 1},
     * copied to {@code s.prores}, each owned by its old boundary plus {@code shift}.
     */
    private void takeProres(MeshData md, int b, Plan plan, int first, int end, int shift,
        int oldLid, CacheBuildScratch s) {
      int[] owner = plan.proresOwner;
      int from = firstAtLeast(owner, 0, owner.length, first);
      int to = firstAtLeast(owner, from, owner.length, end);
      BoundaryTable prores = plan.prores;
      ArenaLayout now = md.layout();
      int newBlock = md.blockIndex(b);
      int p0 = s.prores.addCopies(prores, from, to - from);
      for (int r = from; r < to; r++) {
        int p = p0 + r - from;
        int var = move(prores, r, BoundaryTable.VAR_OFFSET, oldLid, now, newBlock, s);
        int fine = move(prores, r, BoundaryTable.FINE_OFFSET, oldLid, now, newBlock, s);
        s.prores.moveCopy(p, var, fine, 0);
        s.proresOwner.add(owner[r] + shift);
        s.subsets[subset(prores.ints[BoundaryTable.OP * prores.size + r])].add(p);
      }
    }
  }

  /**
   * The index in {@code covered} (indices into {@code before}) of the neighbour in the same
   * place as {@code nb}: the same location, as seen from the block, element, half and level; or
   * -1. Gids and ranks may differ.
   */
  private static int sameContact(List<NeighborBlock> before, IntArrayList covered,
      NeighborBlock nb) {
    for (int m = 0; m < covered.size(); m++) {
      NeighborBlock old = before.get(covered.getInt(m));
      if (old.element() == nb.element() && old.fi1() == nb.fi1() && old.fi2() == nb.fi2()
          && old.levelDifference() == nb.levelDifference() && old.loc().equals(nb.loc())
          && old.originLoc().equals(nb.originLoc())) {
        return m;
      }
    }
    return -1;
  }

  /** Whether a neighbour of {@code neighbors} is coarser than the block. */
  private static boolean hasCoarser(List<NeighborBlock> neighbors) {
    for (int n = 0; n < neighbors.size(); n++) {
      if (neighbors.get(n).isCoarser()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Puts into {@code covered} the indices of the neighbours of {@code neighbors} whose boundaries
   * {@code type} covers, in order, and returns how many (a dense cell field's: no edge fluxes).
   */
  private int coveredNeighbours(List<NeighborBlock> neighbors, BoundaryType type,
      IntArrayList covered) {
    covered.clear();
    for (int n = 0; n < neighbors.size(); n++) {
      if (type.covers(neighbors.get(n), myRank)) {
        covered.add(n);
      }
    }
    return covered.size();
  }

  /** The plan of {@code list} of the partition that held old block {@code oldLid}, or null. */
  private static Plan planOf(List<Plan> list, int oldLid) {
    for (int i = 0; i < list.size(); i++) {
      Plan p = list.get(i);
      if (oldLid >= p.firstBlock() && oldLid < p.firstBlock() + p.numBlocks()) {
        return p;
      }
    }
    return null;
  }

  /** The first index in {@code [from, to)} of ascending {@code values} at {@code value} or more. */
  private static int firstAtLeast(int[] values, int from, int to, int value) {
    int lo = from;
    int hi = to;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (values[mid] < value) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** The buffer subset a refinement row of operation {@code op} belongs to. */
  private static int subset(int op) {
    return switch (op) {
      case BoundaryOp.RESTRICT -> BvarsSubCache.RESTRICTION;
      case BoundaryOp.PROLONGATE -> BvarsSubCache.PROLONGATION;
      default -> BvarsSubCache.INTERNAL_PROLONGATION;
    };
  }

  /**
   * Column {@code column} (an arena offset) of row {@code row}, moved from old block {@code
   * oldBlock} to block {@code newBlock} of {@code now}: the same place in the same instance. A
   * fine offset of a row that does not refine is left as it is (0). {@code s} keeps the instance
   * found last, the first one tried next.
   */
  private int move(BoundaryTable t, int row, int column, int oldBlock, ArenaLayout now,
      int newBlock, CacheBuildScratch s) {
    int offset = t.ints[column * t.size + row];
    if (column == BoundaryTable.FINE_OFFSET
        && !BoundaryOp.usesFine(t.ints[BoundaryTable.OP * t.size + row])) {
      return offset;
    }
    // A block's rows lie mostly in one instance or two: try the last one found first.
    int last = s.lastMovedInstance;
    if (last < layout.numInstances() && inInstance(offset, last, oldBlock)) {
      return now.offset(last, newBlock) + offset - layout.offset(last, oldBlock);
    }
    for (int inst = 0; inst < layout.numInstances(); inst++) {
      if (inInstance(offset, inst, oldBlock)) {
        s.lastMovedInstance = inst;
        return now.offset(inst, newBlock) + offset - layout.offset(inst, oldBlock);
      }
    }
    throw new IllegalStateException("an old plan's offset lies in none of its block's instances:"
        + " offset=" + offset + " block=" + oldBlock);
  }

  /** Whether instance {@code inst} of old block {@code oldBlock} holds index {@code offset}. */
  private boolean inInstance(int offset, int inst, int oldBlock) {
    int start = layout.offset(inst, oldBlock);
    return start >= 0 && offset >= start && offset < start + layout.blockLength(inst);
  }
}
